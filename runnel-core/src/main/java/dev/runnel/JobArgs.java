package dev.runnel;

/**
 * The arguments of a job: a Java type (a record is the natural form) with a stable kind name.
 * Args are stored as JSON with Jackson; decoding ignores unknown fields, so a deployment may add
 * a field without breaking jobs already queued.
 *
 * <pre>{@code
 * record SendReceipt(long orderId, String email) implements JobArgs {
 *     public String kind() { return "send_receipt"; }
 * }
 *
 * @Kind("refund")                  // the same, read without building an instance
 * record Refund(long orderId) implements JobArgs {}
 * }</pre>
 */
public interface JobArgs {
    /**
     * The kind name under which jobs of this type are stored and workers are registered. It must
     * stay stable across deployments: renaming it orphans jobs already queued. By default, the
     * type's {@link Kind} annotation.
     *
     * @throws IllegalStateException if the type neither overrides this nor carries {@link Kind}
     */
    default String kind() {
        return KindNames.annotated(getClass()).orElseThrow(() -> new IllegalStateException(getClass().getName()
                + " names no kind: annotate it with @Kind(\"...\") or override kind()"));
    }

    /**
     * Defaults for every job of this kind; options given at insert time override them, and these
     * override the client-wide defaults. Default: no per-kind defaults.
     */
    default InsertOptions insertOptions() {
        return InsertOptions.NONE;
    }
}
