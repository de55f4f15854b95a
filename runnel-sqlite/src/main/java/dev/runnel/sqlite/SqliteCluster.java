package dev.runnel.sqlite;

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
import java.util.Set;

/** The client and leader operations of {@link SqliteDriver}, one statement each, from {@code cluster.sql}. */
final class SqliteCluster {
    private static final Set<String> STATEMENTS = Set.of("ClientHeartbeat", "ClientStop", "ClientList",
            "ClientListDead", "ClientMarkRescued", "ClientDeleteExpired", "LeaderAttemptElect", "LeaderResign",
            "LeaderGet", "QueueRegister", "QueueList", "QueuePause", "QueueResume", "QueueSetGlobalLimit",
            "QueueMarkRunningLimited", "QueueSetRateLimit", "QueueSetKeyLimit",
            "QueueKeyWaiting", "QueueKeyStragglers", "KeyTriggerCreate", "KeyTriggerDrop", "KeyLimitAny",
            "QueueKeyRecent");

    private final SqliteConnections connections;
    private final SqlFile sql;

    SqliteCluster(SqliteConnections connections) {
        this.connections = connections;
        this.sql = SqlFile.parse("cluster.sql", SqliteCluster.class.getResourceAsStream("cluster.sql"), STATEMENTS);
    }

    void heartbeat(ClientHeartbeatParams p) {
        connections.write(s -> {
            PreparedStatement ps = s.prepare(sql.get("ClientHeartbeat"));
            ps.setString(1, p.id());
            ps.setLong(2, Times.toMicros(p.now()));
            ps.setLong(3, Times.toMicros(p.expiresAt()));
            ps.setString(4, p.metadata());
            return ps.executeUpdate();
        });
    }

    void stop(String id, Instant now) {
        connections.write(s -> {
            PreparedStatement ps = s.prepare(sql.get("ClientStop"));
            ps.setLong(1, Times.toMicros(now));
            ps.setString(2, id);
            return ps.executeUpdate();
        });
    }

    List<ClientRow> list() {
        return connections.read(s -> {
            List<ClientRow> clients = new ArrayList<>();
            try (ResultSet rs = s.prepare(sql.get("ClientList")).executeQuery()) {
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
            PreparedStatement ps = s.prepare(sql.get("ClientListDead"));
            ps.setLong(1, Times.toMicros(now));
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
            PreparedStatement ps = s.prepare(sql.get("ClientMarkRescued"));
            ps.setLong(1, Times.toMicros(p.lease().now()));
            ps.setString(2, JobJson.encodeStrings(p.clientIds()));
            ps.setString(3, p.lease().leaderId());
            return ps.executeUpdate();
        });
    }

    int deleteExpired(ClientDeleteParams p) {
        return connections.write(s -> {
            PreparedStatement ps = s.prepare(sql.get("ClientDeleteExpired"));
            ps.setLong(1, Times.toMicros(p.expiredBefore()));
            ps.setString(2, p.lease().leaderId());
            ps.setLong(3, Times.toMicros(p.lease().now()));
            return ps.executeUpdate();
        });
    }

    boolean attemptElect(LeaderElectParams p) {
        return connections.write(s -> {
            PreparedStatement ps = s.prepare(sql.get("LeaderAttemptElect"));
            ps.setString(1, p.leaderId());
            ps.setLong(2, Times.toMicros(p.now()));
            ps.setLong(3, Times.toMicros(p.expiresAt()));
            try (ResultSet rs = ps.executeQuery()) {
                return rs.next();
            }
        });
    }

    void resign(String leaderId) {
        connections.write(s -> {
            PreparedStatement ps = s.prepare(sql.get("LeaderResign"));
            ps.setString(1, leaderId);
            return ps.executeUpdate();
        });
    }

    Optional<LeaderRow> leader() {
        return connections.read(s -> {
            try (ResultSet rs = s.prepare(sql.get("LeaderGet")).executeQuery()) {
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
            PreparedStatement ps = s.prepare(sql.get("QueueRegister"));
            ps.setString(1, JobJson.encodeStrings(queues));
            ps.setLong(2, Times.toMicros(now));
            return ps.executeUpdate();
        });
    }

    List<QueueRow> queues() {
        return connections.read(s -> {
            List<QueueRow> queues = new ArrayList<>();
            try (ResultSet rs = s.prepare(sql.get("QueueList")).executeQuery()) {
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
            PreparedStatement set = s.prepare(sql.get("QueueSetGlobalLimit"));
            QueueLimits.bindInt(set, 1, limit);
            set.setLong(2, Times.toMicros(now));
            set.setString(3, queue);
            boolean found;
            try (ResultSet rs = set.executeQuery()) {
                found = rs.next();
            }
            if (found && limit.isPresent()) {
                PreparedStatement mark = s.prepare(sql.get("QueueMarkRunningLimited"));
                mark.setString(1, queue);
                mark.executeUpdate();
            }
            return found;
        });
    }

    boolean setRateLimit(String queue, Optional<RateLimit> rate, Instant now) {
        return connections.write(s -> {
            PreparedStatement ps = s.prepare(sql.get("QueueSetRateLimit"));
            QueueLimits.bindRate(ps, 1, rate);
            ps.setLong(3, Times.toMicros(now));
            ps.setString(4, queue);
            try (ResultSet rs = ps.executeQuery()) {
                return rs.next();
            }
        });
    }

    boolean setKeyLimit(String queue, Optional<KeyLimit> limit, Instant now) {
        return connections.writeTransaction(s -> {
            PreparedStatement ps = s.prepare(sql.get("QueueSetKeyLimit"));
            ps.setString(1, limit.map(KeyLimit::sourceName).orElse(null));
            ps.setString(2, limit.map(KeyLimit::field).orElse(null));
            QueueLimits.bindInt(ps, 3, limit.map(l -> OptionalInt.of(l.limit())).orElse(OptionalInt.empty()));
            ps.setLong(4, Times.toMicros(now));
            ps.setString(5, queue);
            ps.setString(6, QueueLimits.weights(limit));
            QueueLimits.bindRate(ps, 7, limit.flatMap(KeyLimit::rate));
            boolean found;
            try (ResultSet rs = ps.executeQuery()) {
                found = rs.next();
            }
            if (found && limit.isPresent()) {
                s.exec(sql.get("KeyTriggerCreate"));
                PreparedStatement waiting = s.prepare(sql.get("QueueKeyWaiting"));
                waiting.setString(1, queue);
                waiting.executeUpdate();
            } else if (found) {
                boolean any;
                try (ResultSet rs = s.prepare(sql.get("KeyLimitAny")).executeQuery()) {
                    any = rs.next() && rs.getBoolean(1);
                }
                if (!any) {
                    s.exec(sql.get("KeyTriggerDrop"));
                }
            }
            return found;
        });
    }

    int keyStragglers(Instant since) {
        boolean recent = connections.read(s -> {
            PreparedStatement ps = s.prepare(sql.get("QueueKeyRecent"));
            ps.setLong(1, Times.toMicros(since));
            try (ResultSet rs = ps.executeQuery()) {
                return rs.next() && rs.getBoolean(1);
            }
        });
        if (!recent) {
            return 0;
        }
        return connections.write(s -> {
            PreparedStatement ps = s.prepare(sql.get("QueueKeyStragglers"));
            ps.setLong(1, Times.toMicros(since));
            return ps.executeUpdate();
        });
    }

    List<String> setPaused(QueuePauseParams p) {
        return connections.write(s -> {
            PreparedStatement ps = s.prepare(sql.get(p.paused() ? "QueuePause" : "QueueResume"));
            ps.setLong(1, Times.toMicros(p.now()));
            ps.setString(2, p.queue().orElse(null));
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
