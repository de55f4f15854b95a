package dev.runnel.sqlite;

import static dev.runnel.sqlite.ClusterSql.P.*;

import dev.runnel.ClientRow;
import dev.runnel.LeaderRow;
import dev.runnel.KeyLimit;
import dev.runnel.QueueRow;
import dev.runnel.RateLimit;
import dev.runnel.driver.ClientDeleteParams;
import dev.runnel.driver.ClientHeartbeatParams;
import dev.runnel.driver.ClientRescuedParams;
import dev.runnel.driver.JobJson;
import dev.runnel.driver.LeaderElectParams;
import dev.runnel.driver.QueueLimits;
import dev.runnel.driver.QueuePauseParams;
import dev.runnel.driver.Sql;
import dev.runnel.driver.SqlFile;
import dev.runnel.driver.Times;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.OptionalInt;

/** The client and leader operations of {@link SqliteDriver}, one statement each, from {@code cluster.sql}. */
final class SqliteCluster {
    private final SqliteConnections connections;
    private final SqlFile<ClusterSql> sql;

    SqliteCluster(SqliteConnections connections) {
        this.connections = connections;
        this.sql = SqlFile.parse("cluster.sql", ClusterSql.class.getResourceAsStream("cluster.sql"),
                ClusterSql.class);
    }

    void heartbeat(ClientHeartbeatParams p) {
        connections.write(s -> {
            Sql clientHeartbeat = sql.get(ClusterSql.ClientHeartbeat);
            PreparedStatement ps = s.prepare(clientHeartbeat.text());
            clientHeartbeat.setString(ps, ID, p.id());
            clientHeartbeat.setLong(ps, NOW, Times.toMicros(p.now()));
            clientHeartbeat.setLong(ps, EXPIRES_AT, Times.toMicros(p.expiresAt()));
            clientHeartbeat.setString(ps, METADATA, p.metadata());
            return ps.executeUpdate();
        });
    }

    void stop(String id, Instant now) {
        connections.write(s -> {
            Sql clientStop = sql.get(ClusterSql.ClientStop);
            PreparedStatement ps = s.prepare(clientStop.text());
            clientStop.setLong(ps, NOW, Times.toMicros(now));
            clientStop.setString(ps, ID, id);
            return ps.executeUpdate();
        });
    }

    List<ClientRow> list() {
        return connections.read(s -> {
            List<ClientRow> clients = new ArrayList<>();
            Sql clientList = sql.get(ClusterSql.ClientList);
            try (ResultSet rs = s.prepare(clientList.text()).executeQuery()) {
                while (rs.next()) {
                    long stopped = rs.getLong(5);
                    Optional<Instant> stoppedAt = rs.wasNull() ? Optional.empty() : Optional.of(Times.fromMicros(stopped));
                    clients.add(new ClientRow(rs.getString(1), Times.fromMicros(rs.getLong(2)),
                            Times.fromMicros(rs.getLong(3)), Times.fromMicros(rs.getLong(4)), stoppedAt, rs.getString(6)));
                }
            }
            return clients;
        });
    }

    List<String> listDead(Instant now) {
        return connections.read(s -> {
            Sql clientListDead = sql.get(ClusterSql.ClientListDead);
            PreparedStatement ps = s.prepare(clientListDead.text());
            clientListDead.setLong(ps, NOW, Times.toMicros(now));
            List<String> ids = new ArrayList<>();
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    ids.add(rs.getString(1));
                }
            }
            return ids;
        });
    }

    void markRescued(ClientRescuedParams p) {
        if (p.clientIds().isEmpty()) {
            return;
        }
        connections.write(s -> {
            Sql clientMarkRescued = sql.get(ClusterSql.ClientMarkRescued);
            PreparedStatement ps = s.prepare(clientMarkRescued.text());
            clientMarkRescued.setLong(ps, NOW, Times.toMicros(p.lease().now()));
            clientMarkRescued.setString(ps, CLIENT_IDS, JobJson.encodeStrings(p.clientIds()));
            clientMarkRescued.setString(ps, LEADER_ID, p.lease().leaderId());
            return ps.executeUpdate();
        });
    }

    int deleteExpired(ClientDeleteParams p) {
        return connections.write(s -> {
            Sql clientDeleteExpired = sql.get(ClusterSql.ClientDeleteExpired);
            PreparedStatement ps = s.prepare(clientDeleteExpired.text());
            clientDeleteExpired.setLong(ps, EXPIRED_BEFORE, Times.toMicros(p.expiredBefore()));
            clientDeleteExpired.setString(ps, LEADER_ID, p.lease().leaderId());
            clientDeleteExpired.setLong(ps, NOW, Times.toMicros(p.lease().now()));
            return ps.executeUpdate();
        });
    }

    boolean attemptElect(LeaderElectParams p) {
        return connections.write(s -> {
            Sql leaderAttemptElect = sql.get(ClusterSql.LeaderAttemptElect);
            PreparedStatement ps = s.prepare(leaderAttemptElect.text());
            leaderAttemptElect.setString(ps, LEADER_ID, p.leaderId());
            leaderAttemptElect.setLong(ps, NOW, Times.toMicros(p.now()));
            leaderAttemptElect.setLong(ps, EXPIRES_AT, Times.toMicros(p.expiresAt()));
            try (ResultSet rs = ps.executeQuery()) {
                return rs.next();
            }
        });
    }

    void resign(String leaderId) {
        connections.write(s -> {
            Sql leaderResign = sql.get(ClusterSql.LeaderResign);
            PreparedStatement ps = s.prepare(leaderResign.text());
            leaderResign.setString(ps, LEADER_ID, leaderId);
            return ps.executeUpdate();
        });
    }

    Optional<LeaderRow> leader() {
        return connections.read(s -> {
            Sql leaderGet = sql.get(ClusterSql.LeaderGet);
            try (ResultSet rs = s.prepare(leaderGet.text()).executeQuery()) {
                return rs.next() ? Optional.of(row(rs)) : Optional.<LeaderRow>empty();
            }
        });
    }

    private static LeaderRow row(ResultSet rs) throws SQLException {
        return new LeaderRow(rs.getString(1), Times.fromMicros(rs.getLong(2)), Times.fromMicros(rs.getLong(3)));
    }

    void registerQueues(List<String> queues, Instant now) {
        if (queues.isEmpty()) {
            return;
        }
        connections.write(s -> {
            Sql queueRegister = sql.get(ClusterSql.QueueRegister);
            PreparedStatement ps = s.prepare(queueRegister.text());
            queueRegister.setString(ps, QUEUES, JobJson.encodeStrings(queues));
            queueRegister.setLong(ps, NOW, Times.toMicros(now));
            return ps.executeUpdate();
        });
    }

    List<QueueRow> queues() {
        return connections.read(s -> {
            List<QueueRow> queues = new ArrayList<>();
            Sql queueList = sql.get(ClusterSql.QueueList);
            try (ResultSet rs = s.prepare(queueList.text()).executeQuery()) {
                while (rs.next()) {
                    long paused = rs.getLong(4);
                    Optional<Instant> pausedAt = rs.wasNull() ? Optional.empty() : Optional.of(Times.fromMicros(paused));
                    queues.add(new QueueRow(rs.getString(1), Times.fromMicros(rs.getLong(2)),
                            Times.fromMicros(rs.getLong(3)), pausedAt, rs.getString(5), QueueLimits.optionalInt(rs, 6),
                            QueueLimits.rateLimit(rs, 7), QueueLimits.keyLimit(rs, 9)));
                }
            }
            return queues;
        });
    }

    boolean setGlobalLimit(String queue, OptionalInt limit, Instant now) {
        return connections.writeTransaction(s -> {
            Sql queueSetGlobalLimit = sql.get(ClusterSql.QueueSetGlobalLimit);
            PreparedStatement set = s.prepare(queueSetGlobalLimit.text());
            QueueLimits.bindInt(queueSetGlobalLimit, set, LIMIT, limit);
            queueSetGlobalLimit.setLong(set, NOW, Times.toMicros(now));
            queueSetGlobalLimit.setString(set, QUEUE, queue);
            boolean found;
            try (ResultSet rs = set.executeQuery()) {
                found = rs.next();
            }
            if (found && limit.isPresent()) {
                Sql queueMarkRunningLimited = sql.get(ClusterSql.QueueMarkRunningLimited);
                PreparedStatement mark = s.prepare(queueMarkRunningLimited.text());
                queueMarkRunningLimited.setString(mark, QUEUE, queue);
                mark.executeUpdate();
            }
            return found;
        });
    }

    boolean setRateLimit(String queue, Optional<RateLimit> rate, Instant now) {
        return connections.write(s -> {
            Sql queueSetRateLimit = sql.get(ClusterSql.QueueSetRateLimit);
            PreparedStatement ps = s.prepare(queueSetRateLimit.text());
            QueueLimits.bindRate(queueSetRateLimit, ps, RATE_LIMIT, RATE_PERIOD_US, rate);
            queueSetRateLimit.setLong(ps, NOW, Times.toMicros(now));
            queueSetRateLimit.setString(ps, QUEUE, queue);
            try (ResultSet rs = ps.executeQuery()) {
                return rs.next();
            }
        });
    }

    boolean setKeyLimit(String queue, Optional<KeyLimit> limit, Instant now) {
        return connections.writeTransaction(s -> {
            Sql queueSetKeyLimit = sql.get(ClusterSql.QueueSetKeyLimit);
            PreparedStatement ps = s.prepare(queueSetKeyLimit.text());
            queueSetKeyLimit.setString(ps, SOURCE, limit.map(KeyLimit::sourceName).orElse(null));
            queueSetKeyLimit.setString(ps, FIELD, limit.map(KeyLimit::field).orElse(null));
            QueueLimits.bindInt(queueSetKeyLimit, ps, LIMIT, limit.map(l -> OptionalInt.of(l.limit())).orElse(OptionalInt.empty()));
            queueSetKeyLimit.setLong(ps, NOW, Times.toMicros(now));
            queueSetKeyLimit.setString(ps, QUEUE, queue);
            queueSetKeyLimit.setString(ps, WEIGHTS, QueueLimits.weights(limit));
            QueueLimits.bindRate(queueSetKeyLimit, ps, RATE_LIMIT, RATE_PERIOD_US, limit.flatMap(KeyLimit::rate));
            boolean found;
            try (ResultSet rs = ps.executeQuery()) {
                found = rs.next();
            }
            if (found && limit.isPresent()) {
                Sql keyTriggerCreate = sql.get(ClusterSql.KeyTriggerCreate);
                s.exec(keyTriggerCreate.text());
                Sql queueKeyWaiting = sql.get(ClusterSql.QueueKeyWaiting);
                PreparedStatement waiting = s.prepare(queueKeyWaiting.text());
                queueKeyWaiting.setString(waiting, QUEUE, queue);
                waiting.executeUpdate();
            } else if (found) {
                boolean any;
                Sql keyLimitAny = sql.get(ClusterSql.KeyLimitAny);
                try (ResultSet rs = s.prepare(keyLimitAny.text()).executeQuery()) {
                    any = rs.next() && rs.getBoolean(1);
                }
                if (!any) {
                    Sql keyTriggerDrop = sql.get(ClusterSql.KeyTriggerDrop);
                    s.exec(keyTriggerDrop.text());
                }
            }
            return found;
        });
    }

    int keyStragglers(Instant since) {
        boolean recent = connections.read(s -> {
            Sql queueKeyRecent = sql.get(ClusterSql.QueueKeyRecent);
            PreparedStatement ps = s.prepare(queueKeyRecent.text());
            queueKeyRecent.setLong(ps, SINCE, Times.toMicros(since));
            try (ResultSet rs = ps.executeQuery()) {
                return rs.next() && rs.getBoolean(1);
            }
        });
        if (!recent) {
            return 0;
        }
        return connections.write(s -> {
            Sql queueKeyStragglers = sql.get(ClusterSql.QueueKeyStragglers);
            PreparedStatement ps = s.prepare(queueKeyStragglers.text());
            queueKeyStragglers.setLong(ps, SINCE, Times.toMicros(since));
            return ps.executeUpdate();
        });
    }

    List<String> setPaused(QueuePauseParams p) {
        return connections.write(s -> {
            Sql q = sql.get(p.paused() ? ClusterSql.QueuePause : ClusterSql.QueueResume);
            PreparedStatement ps = s.prepare(q.text());
            q.setLong(ps, NOW, Times.toMicros(p.now()));
            q.setString(ps, QUEUE, p.queue().orElse(null));
            List<String> names = new ArrayList<>();
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    names.add(rs.getString(1));
                }
            }
            return names;
        });
    }
}
