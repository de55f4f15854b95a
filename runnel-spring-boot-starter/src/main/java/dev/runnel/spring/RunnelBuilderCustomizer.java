package dev.runnel.spring;

import dev.runnel.RunnelBuilder;

/**
 * A bean that changes the {@link RunnelBuilder} after the starter has applied the
 * {@code runnel.*} properties and registered the worker, listener, middleware and error-handler
 * beans, for settings the properties do not cover (a clock, a retry policy). Several run in their
 * {@link org.springframework.core.annotation.Order}.
 */
@FunctionalInterface
public interface RunnelBuilderCustomizer {
    void customize(RunnelBuilder builder);
}
