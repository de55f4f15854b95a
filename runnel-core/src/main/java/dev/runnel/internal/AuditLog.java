package dev.runnel.internal;

import dev.runnel.AuditRow;
import dev.runnel.driver.AuditInsertParams;
import dev.runnel.driver.AuditListParams;
import dev.runnel.driver.Driver;
import java.time.Clock;
import java.util.List;

/** What {@link dev.runnel.Audit} does with the driver: entries of the audit log written and read. */
public final class AuditLog {
    private final Driver driver;
    private final Clock clock;

    public AuditLog(Driver driver, Clock clock) {
        this.driver = driver;
        this.clock = clock;
    }

    /** Writes an entry stamped now by the client's clock; returns its id. */
    public long record(String actor, String action, String target, long count) {
        return driver.auditInsert(new AuditInsertParams(clock.instant(), actor, action, target, count));
    }

    public List<AuditRow> list(long beforeId, int limit) {
        return driver.auditList(new AuditListParams(beforeId, limit));
    }
}
