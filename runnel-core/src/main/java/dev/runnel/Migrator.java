package dev.runnel;

import dev.runnel.driver.Driver;
import dev.runnel.internal.Migrations;
import java.time.Instant;
import java.util.List;
import java.util.Optional;

/**
 * Applies and reverts a driver's numbered schema migrations, each in its own transaction, recorded
 * in the database's migration table. A database migrated by a newer Runnel is refused before
 * anything changes.
 */
public final class Migrator {
    private final Migrations migrations;

    public Migrator(Driver driver) {
        this.migrations = new Migrations(driver);
    }

    /** One migration and whether it is applied. */
    public record Status(int version, String name, Optional<Instant> appliedAt) {}

    /** The newest version this Runnel knows. */
    public int latestVersion() {
        return migrations.latestVersion();
    }

    /** The newest version applied to the database, 0 for a new one. */
    public int currentVersion() {
        return migrations.currentVersion();
    }

    /** Every known migration and, if applied, when. */
    public List<Status> list() {
        return migrations.list();
    }

    /** Applies every pending migration; returns the versions applied. */
    public List<Integer> up() {
        return migrations.up();
    }

    /** Applies pending migrations up to and including {@code target}; returns the versions applied. */
    public List<Integer> up(int target) {
        return migrations.up(target);
    }

    /** Reverts the newest {@code steps} applied migrations; returns the versions reverted. */
    public List<Integer> down(int steps) {
        return migrations.down(steps);
    }

    /** The SQL of every migration in one direction, in the order it would run, for review. */
    public String sql(boolean up) {
        return migrations.sql(up);
    }

    /**
     * Throws unless the database is at exactly the latest version: what a client checks before it
     * starts.
     */
    public void checkCurrent() {
        migrations.checkCurrent();
    }
}
