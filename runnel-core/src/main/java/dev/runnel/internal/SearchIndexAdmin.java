package dev.runnel.internal;

import dev.runnel.SearchIndex;
import dev.runnel.driver.Driver;
import java.util.Set;

/** What {@link dev.runnel.SearchIndexes} does with the driver: the job table's optional indexes made and dropped. */
public final class SearchIndexAdmin {
    private final Driver driver;

    public SearchIndexAdmin(Driver driver) {
        this.driver = driver;
    }

    public Set<SearchIndex> supported() {
        return driver.searchIndexesSupported();
    }

    public Set<SearchIndex> present() {
        return driver.searchIndexList();
    }

    public void create(SearchIndex index) {
        driver.searchIndexCreate(require(index));
    }

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
