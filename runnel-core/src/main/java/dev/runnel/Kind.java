package dev.runnel;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * Names the kind of an args type, in place of overriding {@link JobArgs#kind()}:
 *
 * <pre>{@code
 * @Kind("send_receipt")
 * record SendReceipt(long orderId, String email) implements JobArgs {}
 * }</pre>
 *
 * Runnel reads it when a worker is registered, without building an instance, so it suits args
 * records whose constructors validate their fields. Without it, Runnel builds a sample with every
 * component null or zero to call {@code kind()}, which such a constructor refuses.
 */
@Documented
@Retention(RetentionPolicy.RUNTIME)
@Target(ElementType.TYPE)
public @interface Kind {
    /** The kind name; the rules of {@link JobArgs#kind()} apply. */
    String value();
}
