package dev.runnel.internal;

import dev.runnel.Migrator;
import dev.runnel.RunnelException;
import dev.runnel.driver.Driver;
import dev.runnel.driver.Migration;
import dev.runnel.driver.MigrationApplyParams;
import dev.runnel.driver.MigrationRecord;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;
import java.util.stream.Collectors;

/**
 * What {@link Migrator} does with the driver: its numbered migrations applied and reverted, each
 * in its own transaction, and a database that a newer Runnel migrated refused before anything
 * changes.
 */
public final class Migrations {
    private final Driver driver;

    public Migrations(Driver driver) {
        this.driver = driver;
    }

    /** The newest version this Runnel knows. */
    public int latestVersion() {
        List<Migration> all = driver.migrations();
        return all.isEmpty() ? 0 : all.getLast().version();
    }

    /** The newest version applied to the database, 0 for a new one. */
    public int currentVersion() {
        return newest(driver.migrationApplied());
    }

    /** The newest version of those {@code applied}, in order; 0 for none. */
    private static int newest(List<MigrationRecord> applied) {
        return applied.isEmpty() ? 0 : applied.getLast().version();
    }

    /** Every known migration and, if applied, when. */
    public List<Migrator.Status> list() {
        Map<Integer, MigrationRecord> applied = appliedChecked();
        return driver.migrations().stream()
                .map(m -> new Migrator.Status(m.version(), m.name(),
                        Optional.ofNullable(applied.get(m.version())).map(MigrationRecord::appliedAt)))
                .toList();
    }

    /** Applies every pending migration; returns the versions applied. */
    public List<Integer> up() {
        return up(latestVersion());
    }

    /** Applies pending migrations up to and including {@code target}; returns the versions applied. */
    public List<Integer> up(int target) {
        checkTarget(target);
        Map<Integer, MigrationRecord> applied = appliedChecked();
        List<Integer> done = new ArrayList<>();
        for (Migration m : driver.migrations()) {
            if (m.version() <= target && !applied.containsKey(m.version()) && driver.migrationApply(new MigrationApplyParams(m, true))) {
                done.add(m.version());
            }
        }
        return done;
    }

    /** Reverts the newest {@code steps} applied migrations; returns the versions reverted. */
    public List<Integer> down(int steps) {
        if (steps < 1) {
            throw new IllegalArgumentException("steps must be at least 1, was " + steps);
        }
        Map<Integer, MigrationRecord> applied = appliedChecked();
        List<Migration> all = driver.migrations();
        List<Integer> done = new ArrayList<>();
        for (int i = all.size() - 1; i >= 0 && done.size() < steps; i--) {
            Migration m = all.get(i);
            if (applied.containsKey(m.version()) && driver.migrationApply(new MigrationApplyParams(m, false))) {
                done.add(m.version());
            }
        }
        return done;
    }

    /** The SQL of every migration in one direction, in the order it would run, for review. */
    public String sql(boolean up) {
        List<Migration> all = new ArrayList<>(driver.migrations());
        if (!up) {
            all = all.reversed();
        }
        Function<Migration, String> body = up ? Migration::up : Migration::down;
        return all.stream()
                .map(m -> "-- " + m.name() + (up ? ".up.sql" : ".down.sql") + "\n" + body.apply(m).strip() + "\n")
                .collect(Collectors.joining("\n"));
    }

    /**
     * Throws unless the database is at exactly the latest version: what a client checks before it
     * starts.
     */
    public void checkCurrent() {
        int current = newest(appliedNotNewer());
        int latest = latestVersion();
        if (current < latest) {
            throw new RunnelException("database schema is at version " + current + " but this Runnel needs version "
                    + latest + ": run `runnel migrate up` (or build the client with autoMigrate)");
        }
    }

    private Map<Integer, MigrationRecord> appliedChecked() {
        return appliedNotNewer().stream().collect(Collectors.toMap(MigrationRecord::version, r -> r));
    }

    /** The migrations applied, read once; throws when any is newer than this Runnel knows. */
    private List<MigrationRecord> appliedNotNewer() {
        List<MigrationRecord> applied = driver.migrationApplied();
        int latest = latestVersion();
        for (MigrationRecord r : applied) {
            if (r.version() > latest) {
                throw new RunnelException("database schema is at version " + applied.getLast().version()
                        + ", newer than this Runnel, which knows up to version " + latest
                        + "; upgrade Runnel (nothing was changed)");
            }
        }
        return applied;
    }

    private void checkTarget(int target) {
        if (target < 0 || target > latestVersion()) {
            throw new IllegalArgumentException("target version must be between 0 and " + latestVersion() + ", was " + target);
        }
    }
}
