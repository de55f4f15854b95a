package dev.runnel.spring;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.runnel.ErrorHandler;
import dev.runnel.InsertMiddleware;
import dev.runnel.JobListener;
import dev.runnel.Runnel;
import dev.runnel.RunnelBuilder;
import dev.runnel.RuntimeListener;
import dev.runnel.WorkMiddleware;
import dev.runnel.micrometer.RunnelMetrics;
import dev.runnel.otel.RunnelTracing;
import io.micrometer.core.instrument.MeterRegistry;
import io.opentelemetry.api.OpenTelemetry;
import java.time.Clock;
import java.time.Duration;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Optional;
import javax.sql.DataSource;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.beans.factory.config.ConfigurableListableBeanFactory;
import org.springframework.boot.actuate.info.InfoContributor;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBooleanProperty;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.boot.health.contributor.HealthIndicator;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.Ordered;
import org.springframework.core.annotation.Order;
import org.springframework.core.env.Environment;

/**
 * Configures a Runnel client from the {@code runnel.*} properties ({@link RunnelProperties}):
 * its driver (from {@code runnel.database-url}, or on the application's {@link DataSource}), its
 * queues and periodic jobs, the application's {@link dev.runnel.Worker} beans registered by their
 * args type, its {@link JobListener}, {@link RuntimeListener}, {@link InsertMiddleware},
 * {@link WorkMiddleware} and {@link ErrorHandler} beans, and its Jackson 2 {@link ObjectMapper}
 * bean if it has one; then {@link RunnelBuilderCustomizer} beans. The client is a {@link Runnel}
 * bean, started and stopped with the context ({@link RunnelLifecycle}); a {@link RunnelTemplate}
 * inserts inside Spring transactions. With Actuator, a health indicator and an info contributor
 * named {@code runnel}; with runnel-micrometer and a {@code MeterRegistry} bean, a
 * {@code RunnelMetrics} bean; with runnel-otel and an {@code OpenTelemetry} bean, a
 * {@code RunnelTracing} bean; each is registered as the listener or middleware it is.
 * {@code runnel.enabled=false} turns it all off.
 */
@AutoConfiguration(afterName = {
        "org.springframework.boot.jdbc.autoconfigure.DataSourceAutoConfiguration",
        "org.springframework.boot.jdbc.autoconfigure.DataSourceTransactionManagerAutoConfiguration",
        "org.springframework.boot.micrometer.metrics.autoconfigure.MetricsAutoConfiguration",
        "org.springframework.boot.micrometer.metrics.autoconfigure.CompositeMeterRegistryAutoConfiguration",
        "org.springframework.boot.micrometer.metrics.autoconfigure.export.simple.SimpleMetricsExportAutoConfiguration",
        "org.springframework.boot.opentelemetry.autoconfigure.OpenTelemetrySdkAutoConfiguration"})
@ConditionalOnBooleanProperty(name = "runnel.enabled", matchIfMissing = true)
@EnableConfigurationProperties(RunnelProperties.class)
public class RunnelAutoConfiguration {
    /** Spring's own default for {@code spring.lifecycle.timeout-per-shutdown-phase}. */
    static final Duration DEFAULT_SHUTDOWN_PHASE = Duration.ofSeconds(30);

    @Bean(destroyMethod = "close")
    @ConditionalOnMissingBean
    Runnel runnel(RunnelProperties properties, ObjectProvider<DataSource> dataSource,
            ConfigurableListableBeanFactory beans, ObjectProvider<JobListener> listeners,
            ObjectProvider<RuntimeListener> runtimeListeners, ObjectProvider<InsertMiddleware> insertMiddleware,
            ObjectProvider<WorkMiddleware> workMiddleware, ObjectProvider<ErrorHandler> errorHandler,
            ObjectProvider<ObjectMapper> objectMapper, ObjectProvider<RunnelBuilderCustomizer> customizers,
            Environment environment) {
        Duration shutdownPhase = Binder.get(environment)
                .bind("spring.lifecycle.timeout-per-shutdown-phase", Duration.class).orElse(DEFAULT_SHUTDOWN_PHASE);
        return ClientFactory.build(properties, new ClientFactory.Parts(
                DriverFactory.open(properties, Optional.ofNullable(dataSource.getIfUnique())),
                WorkerBeans.find(beans),
                listeners.orderedStream().toList(),
                runtimeListeners.orderedStream().toList(),
                insertMiddleware.orderedStream().toList(),
                workMiddleware.orderedStream().toList(),
                errorHandler.getIfUnique(),
                // Jackson 2's: Spring Boot 4's own mapper is Jackson 3's, which Runnel does not use.
                objectMapper.getIfUnique(),
                customizers.orderedStream().toList(),
                shutdownPhase));
    }

    @Bean
    @ConditionalOnMissingBean
    RunnelLifecycle runnelLifecycle(Runnel runnel, RunnelProperties properties) {
        boolean works = !properties.getQueues().isEmpty() || !properties.getPeriodic().isEmpty();
        return new RunnelLifecycle(runnel, works, ClientFactory.stopTimeout(properties));
    }

    @Bean
    @ConditionalOnMissingBean
    RunnelTemplate runnelTemplate(Runnel runnel, ObjectProvider<DataSource> dataSource) {
        return new RunnelTemplate(runnel, Optional.ofNullable(dataSource.getIfUnique()));
    }

    /** The health indicator, with Actuator's health module. */
    @Configuration(proxyBeanMethods = false)
    @ConditionalOnClass(HealthIndicator.class)
    static class HealthConfiguration {
        @Bean
        @ConditionalOnMissingBean(name = "runnelHealthIndicator")
        @ConditionalOnBooleanProperty(name = "management.health.runnel.enabled", matchIfMissing = true)
        RunnelHealthIndicator runnelHealthIndicator(Runnel runnel, RunnelLifecycle lifecycle,
                RunnelProperties properties) {
            Duration lease = Optional.ofNullable(properties.getLeaderLease()).orElse(RunnelBuilder.DEFAULT_LEADER_LEASE);
            Duration heartbeat = Optional.ofNullable(properties.getHeartbeatInterval())
                    .orElse(RunnelBuilder.DEFAULT_HEARTBEAT_INTERVAL);
            // An election takes up to a lease after the last leader's expiry; give it that and a heartbeat more.
            return new RunnelHealthIndicator(runnel, lifecycle, new LinkedHashSet<>(properties.getQueues().keySet()),
                    properties.getHealth().getStuckAfter(), lease.multipliedBy(2).plus(heartbeat), Clock.systemUTC());
        }
    }

    /** The info contributor, with Actuator. */
    @Configuration(proxyBeanMethods = false)
    @ConditionalOnClass(InfoContributor.class)
    static class InfoConfiguration {
        @Bean
        @ConditionalOnMissingBean(name = "runnelInfoContributor")
        RunnelInfoContributor runnelInfoContributor(Runnel runnel, RunnelProperties properties,
                ConfigurableListableBeanFactory beans) {
            List<String> workers = WorkerBeans.find(beans).values().stream()
                    .map(w -> w.argsType().getName()).toList();
            return new RunnelInfoContributor(runnel, properties, workers);
        }
    }

    /**
     * Runnel's meters on the application's registry: a {@link JobListener} and a
     * {@link RuntimeListener} bean, which the client registers as both.
     */
    @Configuration(proxyBeanMethods = false)
    @ConditionalOnClass({RunnelMetrics.class, MeterRegistry.class})
    @ConditionalOnBean(MeterRegistry.class)
    @ConditionalOnBooleanProperty(name = "runnel.metrics.enabled", matchIfMissing = true)
    static class MetricsConfiguration {
        @Bean
        @ConditionalOnMissingBean
        RunnelMetrics runnelMetrics(MeterRegistry registry) {
            return new RunnelMetrics(registry);
        }
    }

    /**
     * Runnel's spans with the application's OpenTelemetry: an {@link InsertMiddleware} and a
     * {@link WorkMiddleware} bean, which the client registers as both, outermost, so that the
     * application's own middleware runs inside the spans and sees them current.
     */
    @Configuration(proxyBeanMethods = false)
    @ConditionalOnClass({RunnelTracing.class, OpenTelemetry.class})
    @ConditionalOnBean(OpenTelemetry.class)
    @ConditionalOnBooleanProperty(name = "runnel.tracing.enabled", matchIfMissing = true)
    static class TracingConfiguration {
        @Bean
        @ConditionalOnMissingBean
        @Order(Ordered.HIGHEST_PRECEDENCE)
        RunnelTracing runnelTracing(OpenTelemetry openTelemetry) {
            return RunnelTracing.create(openTelemetry);
        }
    }
}
