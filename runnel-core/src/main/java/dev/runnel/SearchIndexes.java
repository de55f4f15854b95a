package dev.runnel;

import dev.runnel.driver.Driver;
import dev.runnel.internal.SearchIndexAdmin;
import java.util.Set;

/**
 * Adds and removes the optional {@link SearchIndex}es of a database's job table, from any process
 * (no client needed): {@code new SearchIndexes(driver).create(SearchIndex.KIND)}. Creating one
 * does not block inserts or workers (on Postgres, {@code CREATE INDEX CONCURRENTLY}), and takes a
 * while on a large table; it is safe to repeat.
 */
public final class SearchIndexes {
    private final SearchIndexAdmin admin;

    public SearchIndexes(Driver driver) {
        if (driver == null) {
            throw new IllegalArgumentException("driver must not be null");
        }
        this.admin = new SearchIndexAdmin(driver);
    }

    /** The search indexes this driver can create; empty where it has none (SQLite). */
    public Set<SearchIndex> supported() {
        return admin.supported();
    }

    /** The search indexes the job table has now. */
    public Set<SearchIndex> present() {
        return admin.present();
    }

    /** Creates {@code index}, unless it exists. */
    public void create(SearchIndex index) {
        admin.create(index);
    }

    /** Drops {@code index}, if it exists. */
    public void drop(SearchIndex index) {
        admin.drop(index);
    }
}
