package dev.runnel.postgres;

import static dev.runnel.postgres.ClusterSql.P.*;

import dev.runnel.ClientRow;
import dev.runnel.LeaderRow;
import dev.runnel.KeyLimit;
import dev.runnel.QueueRow;
import dev.runnel.RateLimit;
import dev.runnel.driver.Driver;
import dev.runnel.driver.ClientDeleteParams;
import dev.runnel.driver.ClientHeartbeatParams;
import dev.runnel.driver.ClientRescuedParams;
import dev.runnel.driver.LeaderElectParams;
import dev.runnel.driver.QueueLimits;
import dev.runnel.driver.QueuePauseParams;
import dev.runnel.driver.Sql;
import dev.runnel.driver.SqlFile;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.ResultSet;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.OptionalInt;
import java.util.Optional;

/** The client and leader operations of {@link PostgresDriver}, one statement each, from {@code cluster.sql}. */
final class PostgresCluster {
    private final PostgresSchema schema;
    private final PostgresConnections connections;
    private final SqlFile<ClusterSql> sql;

    PostgresCluster(PostgresSchema schema, PostgresConnections connections) {
        this.schema = schema;
        this.connections = connections;
        this.sql = SqlFile.parse("cluster.sql", ClusterSql.class.getResourceAsStream("cluster.sql"),
                ClusterSql.class)
                .withSchema(schema.quoted());
    }

    void heartbeat(ClientHeartbeatParams p) {
        connections.run("recording the heartbeat of client " + p.id(), c -> {
            Sql clientHeartbeat = sql.get(ClusterSql.ClientHeartbeat);
            try (PreparedStatement ps = c.prepareStatement(clientHeartbeat.text())) {
                clientHeartbeat.setString(ps, ID, p.id());
                clientHeartbeat.setObject(ps, NOW, PostgresJobs.timestamp(p.now()));
                clientHeartbeat.setObject(ps, EXPIRES_AT, PostgresJobs.timestamp(p.expiresAt()));
                clientHeartbeat.setString(ps, METADATA, p.metadata());
                return ps.executeUpdate();
            }
        });
    }

    void stop(String id, Instant now) {
        connections.run("recording the stop of client " + id, c -> {
            Sql clientStop = sql.get(ClusterSql.ClientStop);
            try (PreparedStatement ps = c.prepareStatement(clientStop.text())) {
                clientStop.setObject(ps, NOW, PostgresJobs.timestamp(now));
                clientStop.setString(ps, ID, id);
                return ps.executeUpdate();
            }
        });
    }

    List<ClientRow> list() {
        return connections.run("listing clients", c -> {
            Sql clientList = sql.get(ClusterSql.ClientList);
            try (PreparedStatement ps = c.prepareStatement(clientList.text()); ResultSet rs = ps.executeQuery()) {
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
            Sql clientListDead = sql.get(ClusterSql.ClientListDead);
            try (PreparedStatement ps = c.prepareStatement(clientListDead.text())) {
                clientListDead.setObject(ps, NOW, PostgresJobs.timestamp(now));
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
            Sql clientMarkRescued = sql.get(ClusterSql.ClientMarkRescued);
            try (PreparedStatement ps = c.prepareStatement(clientMarkRescued.text())) {
                clientMarkRescued.setObject(ps, NOW, PostgresJobs.timestamp(p.lease().now()));
                clientMarkRescued.setArray(ps, CLIENT_IDS, c.createArrayOf("text", p.clientIds().toArray()));
                clientMarkRescued.setString(ps, LEADER_ID, p.lease().leaderId());
                return ps.executeUpdate();
            }
        });
    }

    int deleteExpired(ClientDeleteParams p) {
        return connections.run("removing clients gone for long", c -> {
            Sql clientDeleteExpired = sql.get(ClusterSql.ClientDeleteExpired);
            try (PreparedStatement ps = c.prepareStatement(clientDeleteExpired.text())) {
                clientDeleteExpired.setObject(ps, EXPIRED_BEFORE, PostgresJobs.timestamp(p.expiredBefore()));
                clientDeleteExpired.setString(ps, LEADER_ID, p.lease().leaderId());
                clientDeleteExpired.setObject(ps, NOW, PostgresJobs.timestamp(p.lease().now()));
                return ps.executeUpdate();
            }
        });
    }

    boolean attemptElect(LeaderElectParams p) {
        return connections.run("electing a leader", c -> {
            Sql leaderAttemptElect = sql.get(ClusterSql.LeaderAttemptElect);
            try (PreparedStatement ps = c.prepareStatement(leaderAttemptElect.text())) {
                leaderAttemptElect.setString(ps, LEADER_ID, p.leaderId());
                leaderAttemptElect.setObject(ps, NOW, PostgresJobs.timestamp(p.now()));
                leaderAttemptElect.setObject(ps, EXPIRES_AT, PostgresJobs.timestamp(p.expiresAt()));
                try (ResultSet rs = ps.executeQuery()) {
                    return rs.next();
                }
            }
        });
    }

    void resign(String leaderId) {
        connections.run("resigning the leadership", c -> {
            Sql leaderResign = sql.get(ClusterSql.LeaderResign);
            try (PreparedStatement ps = c.prepareStatement(leaderResign.text())) {
                leaderResign.setString(ps, LEADER_ID, leaderId);
                return ps.executeUpdate();
            }
        });
    }

    Optional<LeaderRow> leader() {
        return connections.run("reading the leader", c -> {
            Sql leaderGet = sql.get(ClusterSql.LeaderGet);
            try (PreparedStatement ps = c.prepareStatement(leaderGet.text()); ResultSet rs = ps.executeQuery()) {
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
            Sql queueRegister = sql.get(ClusterSql.QueueRegister);
            try (PreparedStatement ps = c.prepareStatement(queueRegister.text())) {
                queueRegister.setObject(ps, NOW, PostgresJobs.timestamp(now));
                queueRegister.setArray(ps, QUEUES, c.createArrayOf("text", queues.toArray()));
                return ps.executeUpdate();
            }
        });
    }

    List<QueueRow> queues() {
        return connections.run("listing queues", c -> {
            Sql queueList = sql.get(ClusterSql.QueueList);
            try (PreparedStatement ps = c.prepareStatement(queueList.text()); ResultSet rs = ps.executeQuery()) {
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
            Sql queueSetGlobalLimit = sql.get(ClusterSql.QueueSetGlobalLimit);
            try (PreparedStatement ps = c.prepareStatement(queueSetGlobalLimit.text())) {
                QueueLimits.bindInt(queueSetGlobalLimit, ps, LIMIT, limit);
                queueSetGlobalLimit.setObject(ps, NOW, PostgresJobs.timestamp(now));
                queueSetGlobalLimit.setString(ps, QUEUE, queue);
                try (ResultSet rs = ps.executeQuery()) {
                    return rs.next() && limitsChanged(c);
                }
            }
        });
    }

    boolean setRateLimit(String queue, Optional<RateLimit> rate, Instant now) {
        return connections.run("setting a queue's rate limit", c -> {
            Sql queueSetRateLimit = sql.get(ClusterSql.QueueSetRateLimit);
            try (PreparedStatement ps = c.prepareStatement(queueSetRateLimit.text())) {
                QueueLimits.bindRate(queueSetRateLimit, ps, RATE_LIMIT, RATE_PERIOD_US, rate);
                queueSetRateLimit.setObject(ps, NOW, PostgresJobs.timestamp(now));
                queueSetRateLimit.setString(ps, QUEUE, queue);
                try (ResultSet rs = ps.executeQuery()) {
                    return rs.next() && limitsChanged(c);
                }
            }
        });
    }

    boolean setKeyLimit(String queue, Optional<KeyLimit> limit, Instant now) {
        return connections.transaction("setting a queue's per-key limit", c -> {
            boolean found;
            Sql queueSetKeyLimit = sql.get(ClusterSql.QueueSetKeyLimit);
            try (PreparedStatement ps = c.prepareStatement(queueSetKeyLimit.text())) {
                queueSetKeyLimit.setString(ps, SOURCE, limit.map(KeyLimit::sourceName).orElse(null));
                queueSetKeyLimit.setString(ps, FIELD, limit.map(KeyLimit::field).orElse(null));
                QueueLimits.bindInt(queueSetKeyLimit, ps, LIMIT, limit.map(l -> OptionalInt.of(l.limit())).orElse(OptionalInt.empty()));
                queueSetKeyLimit.setString(ps, WEIGHTS, QueueLimits.weights(limit));
                QueueLimits.bindRate(queueSetKeyLimit, ps, RATE_LIMIT, RATE_PERIOD_US, limit.flatMap(KeyLimit::rate));
                queueSetKeyLimit.setObject(ps, NOW, PostgresJobs.timestamp(now));
                queueSetKeyLimit.setString(ps, QUEUE, queue);
                try (ResultSet rs = ps.executeQuery()) {
                    found = rs.next();
                }
            }
            if (found && limit.isPresent()) {
                Sql queueKeyWaiting = sql.get(ClusterSql.QueueKeyWaiting);
                try (PreparedStatement ps = c.prepareStatement(queueKeyWaiting.text())) {
                    queueKeyWaiting.setString(ps, QUEUE, queue);
                    ps.executeUpdate();
                }
            }
            return found && limitsChanged(c);
        });
    }

    /**
     * Tells the listening clients that a queue's limits changed ({@link Driver#LIMITS_CHANGED}), so
     * that they read them again at once rather than at their next poll; returns true.
     */
    private boolean limitsChanged(Connection c) throws SQLException {
        Sql queueLimitsChanged = sql.get(ClusterSql.QueueLimitsChanged);
        try (PreparedStatement ps = c.prepareStatement(queueLimitsChanged.text())) {
            queueLimitsChanged.setString(ps, CHANNEL, schema.channel());
            queueLimitsChanged.setString(ps, MESSAGE, Driver.LIMITS_CHANGED);
            ps.execute();
        }
        return true;
    }

    int keyStragglers(Instant since) {
        return connections.run("giving late jobs their keys", c -> {
            Sql queueKeyRecent = sql.get(ClusterSql.QueueKeyRecent);
            try (PreparedStatement recent = c.prepareStatement(queueKeyRecent.text())) {
                queueKeyRecent.setObject(recent, SINCE, PostgresJobs.timestamp(since));
                try (ResultSet rs = recent.executeQuery()) {
                    if (!rs.next() || !rs.getBoolean(1)) {
                        return 0;
                    }
                }
            }
            Sql queueKeyStragglers = sql.get(ClusterSql.QueueKeyStragglers);
            try (PreparedStatement ps = c.prepareStatement(queueKeyStragglers.text())) {
                queueKeyStragglers.setObject(ps, SINCE, PostgresJobs.timestamp(since));
                return ps.executeUpdate();
            }
        });
    }

    List<String> setPaused(QueuePauseParams p) {
        String queue = p.queue().orElse(null);
        return connections.run(p.paused() ? "pausing queues" : "resuming queues", c -> {
            Sql q = sql.get(p.paused() ? ClusterSql.QueuePause : ClusterSql.QueueResume);
            try (PreparedStatement ps = c.prepareStatement(q.text())) {
                q.setObject(ps, NOW, PostgresJobs.timestamp(p.now()));
                q.setString(ps, QUEUE, queue);
                if (!p.paused()) {
                    q.setString(ps, CHANNEL, schema.channel());
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
