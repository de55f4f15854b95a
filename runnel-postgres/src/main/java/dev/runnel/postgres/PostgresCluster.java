package dev.runnel.postgres;

import dev.runnel.ClientRow;
import dev.runnel.LeaderRow;
import dev.runnel.KeyLimit;
import dev.runnel.QueueRow;
import dev.runnel.RateLimit;
import dev.runnel.driver.ClientDeleteParams;
import dev.runnel.driver.ClientHeartbeatParams;
import dev.runnel.driver.ClientRescuedParams;
import dev.runnel.driver.LeaderElectParams;
import dev.runnel.driver.QueueLimits;
import dev.runnel.driver.QueuePauseParams;
import dev.runnel.driver.SqlFile;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.ResultSet;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.OptionalInt;
import java.util.Optional;
import java.util.Set;

/** The client and leader operations of {@link PostgresDriver}, one statement each, from {@code cluster.sql}. */
final class PostgresCluster {
    private static final Set<String> STATEMENTS = Set.of("ClientHeartbeat", "ClientStop", "ClientList",
            "ClientListDead", "ClientMarkRescued", "ClientDeleteExpired", "LeaderAttemptElect", "LeaderResign",
            "LeaderGet", "QueueRegister", "QueueList", "QueuePause", "QueueResume", "QueueSetGlobalLimit", "QueueSetRateLimit", "QueueSetKeyLimit",
            "QueueKeyWaiting", "QueueKeyStragglers", "QueueKeyRecent");

    private final PostgresSchema schema;
    private final PostgresConnections connections;
    private final SqlFile sql;

    PostgresCluster(PostgresSchema schema, PostgresConnections connections) {
        this.schema = schema;
        this.connections = connections;
        this.sql = SqlFile.parse("cluster.sql", PostgresCluster.class.getResourceAsStream("cluster.sql"), STATEMENTS)
                .withSchema(schema.quoted());
    }

    void heartbeat(ClientHeartbeatParams p) {
        connections.run("recording the heartbeat of client " + p.id(), c -> {
            try (PreparedStatement ps = c.prepareStatement(sql.get("ClientHeartbeat"))) {
                ps.setString(1, p.id());
                ps.setObject(2, PostgresJobs.timestamp(p.now()));
                ps.setObject(3, PostgresJobs.timestamp(p.now()));
                ps.setObject(4, PostgresJobs.timestamp(p.expiresAt()));
                ps.setString(5, p.metadata());
                return ps.executeUpdate();
            }
        });
    }

    void stop(String id, Instant now) {
        connections.run("recording the stop of client " + id, c -> {
            try (PreparedStatement ps = c.prepareStatement(sql.get("ClientStop"))) {
                ps.setObject(1, PostgresJobs.timestamp(now));
                ps.setObject(2, PostgresJobs.timestamp(now));
                ps.setString(3, id);
                return ps.executeUpdate();
            }
        });
    }

    List<ClientRow> list() {
        return connections.run("listing clients", c -> {
            try (PreparedStatement ps = c.prepareStatement(sql.get("ClientList")); ResultSet rs = ps.executeQuery()) {
                List<ClientRow> clients = new ArrayList<>();
                while (rs.next()) {
                    clients.add(new ClientRow(rs.getString(1), PostgresRows.instant(rs, 2), PostgresRows.instant(rs, 3),
                            PostgresRows.instant(rs, 4), Optional.ofNullable(PostgresRows.instant(rs, 5)),
                            rs.getString(6)));
                }
                return clients;
            }
        });
    }

    List<String> listDead(Instant now) {
        return connections.run("listing dead clients", c -> {
            try (PreparedStatement ps = c.prepareStatement(sql.get("ClientListDead"))) {
                ps.setObject(1, PostgresJobs.timestamp(now));
                List<String> ids = new ArrayList<>();
                try (ResultSet rs = ps.executeQuery()) {
                    while (rs.next()) {
                        ids.add(rs.getString(1));
                    }
                }
                return ids;
            }
        });
    }

    void markRescued(ClientRescuedParams p) {
        if (p.clientIds().isEmpty()) {
            return;
        }
        connections.run("marking clients rescued", c -> {
            try (PreparedStatement ps = c.prepareStatement(sql.get("ClientMarkRescued"))) {
                ps.setObject(1, PostgresJobs.timestamp(p.lease().now()));
                ps.setArray(2, c.createArrayOf("text", p.clientIds().toArray()));
                ps.setObject(3, PostgresJobs.timestamp(p.lease().now()));
                ps.setString(4, p.lease().leaderId());
                ps.setObject(5, PostgresJobs.timestamp(p.lease().now()));
                return ps.executeUpdate();
            }
        });
    }

    int deleteExpired(ClientDeleteParams p) {
        return connections.run("removing clients gone for long", c -> {
            try (PreparedStatement ps = c.prepareStatement(sql.get("ClientDeleteExpired"))) {
                ps.setObject(1, PostgresJobs.timestamp(p.expiredBefore()));
                ps.setString(2, p.lease().leaderId());
                ps.setObject(3, PostgresJobs.timestamp(p.lease().now()));
                return ps.executeUpdate();
            }
        });
    }

    boolean attemptElect(LeaderElectParams p) {
        return connections.run("electing a leader", c -> {
            try (PreparedStatement ps = c.prepareStatement(sql.get("LeaderAttemptElect"))) {
                ps.setString(1, p.leaderId());
                ps.setObject(2, PostgresJobs.timestamp(p.now()));
                ps.setObject(3, PostgresJobs.timestamp(p.expiresAt()));
                try (ResultSet rs = ps.executeQuery()) {
                    return rs.next();
                }
            }
        });
    }

    void resign(String leaderId) {
        connections.run("resigning the leadership", c -> {
            try (PreparedStatement ps = c.prepareStatement(sql.get("LeaderResign"))) {
                ps.setString(1, leaderId);
                return ps.executeUpdate();
            }
        });
    }

    Optional<LeaderRow> leader() {
        return connections.run("reading the leader", c -> {
            try (PreparedStatement ps = c.prepareStatement(sql.get("LeaderGet")); ResultSet rs = ps.executeQuery()) {
                return rs.next()
                        ? Optional.of(new LeaderRow(rs.getString(1), PostgresRows.instant(rs, 2), PostgresRows.instant(rs, 3)))
                        : Optional.<LeaderRow>empty();
            }
        });
    }

    void registerQueues(List<String> queues, Instant now) {
        if (queues.isEmpty()) {
            return;
        }
        connections.run("registering queues", c -> {
            try (PreparedStatement ps = c.prepareStatement(sql.get("QueueRegister"))) {
                ps.setObject(1, PostgresJobs.timestamp(now));
                ps.setObject(2, PostgresJobs.timestamp(now));
                ps.setArray(3, c.createArrayOf("text", queues.toArray()));
                return ps.executeUpdate();
            }
        });
    }

    List<QueueRow> queues() {
        return connections.run("listing queues", c -> {
            try (PreparedStatement ps = c.prepareStatement(sql.get("QueueList")); ResultSet rs = ps.executeQuery()) {
                List<QueueRow> queues = new ArrayList<>();
                while (rs.next()) {
                    queues.add(new QueueRow(rs.getString(1), PostgresRows.instant(rs, 2), PostgresRows.instant(rs, 3),
                            Optional.ofNullable(PostgresRows.instant(rs, 4)), rs.getString(5), QueueLimits.optionalInt(rs, 6),
                            QueueLimits.rateLimit(rs, 7), QueueLimits.keyLimit(rs, 9)));
                }
                return queues;
            }
        });
    }

    boolean setGlobalLimit(String queue, OptionalInt limit, Instant now) {
        return connections.run("setting a queue's global limit", c -> {
            try (PreparedStatement ps = c.prepareStatement(sql.get("QueueSetGlobalLimit"))) {
                QueueLimits.bindInt(ps, 1, limit);
                QueueLimits.bindInt(ps, 4, limit);
                ps.setObject(2, PostgresJobs.timestamp(now));
                ps.setString(3, queue);
                try (ResultSet rs = ps.executeQuery()) {
                    return rs.next();
                }
            }
        });
    }

    boolean setRateLimit(String queue, Optional<RateLimit> rate, Instant now) {
        return connections.run("setting a queue's rate limit", c -> {
            try (PreparedStatement ps = c.prepareStatement(sql.get("QueueSetRateLimit"))) {
                QueueLimits.bindRate(ps, 1, rate);
                ps.setObject(3, PostgresJobs.timestamp(now));
                ps.setString(4, queue);
                try (ResultSet rs = ps.executeQuery()) {
                    return rs.next();
                }
            }
        });
    }

    boolean setKeyLimit(String queue, Optional<KeyLimit> limit, Instant now) {
        return connections.transaction("setting a queue's per-key limit", c -> {
            boolean found;
            try (PreparedStatement ps = c.prepareStatement(sql.get("QueueSetKeyLimit"))) {
                ps.setString(1, limit.map(KeyLimit::sourceName).orElse(null));
                ps.setString(2, limit.map(KeyLimit::field).orElse(null));
                QueueLimits.bindInt(ps, 3, limit.map(l -> OptionalInt.of(l.limit())).orElse(OptionalInt.empty()));
                ps.setString(4, QueueLimits.weights(limit));
                QueueLimits.bindRate(ps, 5, limit.flatMap(KeyLimit::rate));
                ps.setObject(7, PostgresJobs.timestamp(now));
                ps.setObject(8, PostgresJobs.timestamp(now));
                ps.setString(9, queue);
                try (ResultSet rs = ps.executeQuery()) {
                    found = rs.next();
                }
            }
            if (found && limit.isPresent()) {
                try (PreparedStatement ps = c.prepareStatement(sql.get("QueueKeyWaiting"))) {
                    ps.setString(1, queue);
                    ps.executeUpdate();
                }
            }
            return found;
        });
    }

    int keyStragglers(Instant since) {
        return connections.run("giving late jobs their keys", c -> {
            try (PreparedStatement recent = c.prepareStatement(sql.get("QueueKeyRecent"))) {
                recent.setObject(1, PostgresJobs.timestamp(since));
                try (ResultSet rs = recent.executeQuery()) {
                    if (!rs.next() || !rs.getBoolean(1)) {
                        return 0;
                    }
                }
            }
            try (PreparedStatement ps = c.prepareStatement(sql.get("QueueKeyStragglers"))) {
                ps.setObject(1, PostgresJobs.timestamp(since));
                return ps.executeUpdate();
            }
        });
    }

    List<String> setPaused(QueuePauseParams p) {
        String queue = p.queue().orElse(null);
        return connections.run(p.paused() ? "pausing queues" : "resuming queues", c -> {
            try (PreparedStatement ps = c.prepareStatement(sql.get(p.paused() ? "QueuePause" : "QueueResume"))) {
                int i = 1;
                ps.setObject(i++, PostgresJobs.timestamp(p.now()));
                if (p.paused()) {
                    ps.setObject(i++, PostgresJobs.timestamp(p.now()));
                }
                ps.setString(i++, queue);
                ps.setString(i++, queue);
                if (!p.paused()) {
                    ps.setString(i, schema.channel());
                }
                List<String> names = new ArrayList<>();
                try (ResultSet rs = ps.executeQuery()) {
                    while (rs.next()) {
                        names.add(rs.getString(1));
                    }
                }
                return names;
            }
        });
    }
}
