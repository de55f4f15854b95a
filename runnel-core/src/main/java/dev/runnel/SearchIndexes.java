package dev.runnel;

import dev.runnel.driver.Driver;
import java.util.Set;

/**
 * Adds and removes the optional {@link SearchIndex}es of a database's job table, from any process
 * (no client needed): {@code new SearchIndexes(driver).create(SearchIndex.KIND)}. Creating one
 * does not block inserts or workers (on Postgres, {@code CREATE INDEX CONCURRENTLY}), and takes a
 * while on a large table; it is safe to repeat.
 */
public final class SearchIndexes {
    private final Driver driver;

    public SearchIndexes(Driver driver) {
        if (driver == null) {
            throw new IllegalArgumentException("driver must not be null");
        }
        this.driver = driver;
    }

    /** The search indexes this driver can create; empty where it has none (SQLite). */
    public Set<SearchIndex> supported() {
        return driver.searchIndexesSupported();
    }

    /** The search indexes the job table has now. */
    public Set<SearchIndex> present() {
        return driver.searchIndexList();
    }

    /** Creates {@code index}, unless it exists. */
    public void create(SearchIndex index) {
        driver.searchIndexCreate(require(index));
    }

    /** Drops {@code index}, if it exists. */
    public void drop(SearchIndex index) {
        driver.searchIndexDrop(require(index));
    }

    private SearchIndex require(SearchIndex index) {
        if (index == null) {
            throw new IllegalArgumentException("index must not be null");
        }
        if (!supported().contains(index)) {
            throw new IllegalArgumentException("the " + driver.name() + " driver has no " + index.cliName()
                    + " search index (Postgres has them; SQLite's listings walk its rowid)");
        }
        return index;
    }
}
