package dev.runnel.spring;

import dev.runnel.Runnel;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.springframework.boot.actuate.info.Info;
import org.springframework.boot.actuate.info.InfoContributor;

/**
 * Runnel's part of {@code /actuator/info}, without touching the database: the driver, this
 * client's id, the queues it works (concurrency, delivery), the args types it has workers for
 * and its periodic jobs.
 */
public final class RunnelInfoContributor implements InfoContributor {
    private final Runnel runnel;
    private final RunnelProperties properties;
    private final List<String> workers;

    RunnelInfoContributor(Runnel runnel, RunnelProperties properties, List<String> workers) {
        this.runnel = runnel;
        this.properties = properties;
        this.workers = List.copyOf(workers);
    }

    @Override
    public void contribute(Info.Builder builder) {
        Map<String, Object> queues = new LinkedHashMap<>();
        properties.getQueues().forEach((name, q) -> queues.put(name, Map.of(
                "maxWorkers", q.getMaxWorkers(),
                "delivery", q.getDelivery().name().toLowerCase().replace('_', '-'))));
        Map<String, Object> info = new LinkedHashMap<>();
        info.put("driver", runnel.driverName());
        info.put("client", runnel.id());
        info.put("queues", queues);
        info.put("workers", workers);
        info.put("periodic", List.copyOf(properties.getPeriodic().keySet()));
        builder.withDetail("runnel", info);
    }
}
