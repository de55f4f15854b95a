package dev.runnel.postgres;

import static dev.runnel.postgres.AdminSql.P.*;

import dev.runnel.JobState;
import dev.runnel.SearchIndex;
import dev.runnel.driver.JdbcIds;
import dev.runnel.driver.JobCancelParams;
import dev.runnel.driver.Links;
import dev.runnel.driver.Sql;
import dev.runnel.driver.SqlFile;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Instant;
import java.util.EnumMap;
import java.util.EnumSet;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.TimeUnit;

/**
 * The job administration of {@link PostgresDriver}, from {@code admin.sql}: one statement each,
 * and for cancel, retry and delete, in the same transaction, what the change settles for linked
 * jobs ({@link PostgresLinks}).
 */
final class PostgresAdmin {
    private final PostgresSchema schema;
    private final PostgresConnections connections;
    private final SqlFile<AdminSql> sql;
    private final PostgresLinks links;

    PostgresAdmin(PostgresSchema schema, PostgresConnections connections, PostgresLinks links) {
        this.schema = schema;
        this.connections = connections;
        this.links = links;
        this.sql = SqlFile.parse("admin.sql", AdminSql.class.getResourceAsStream("admin.sql"), AdminSql.class)
                .withSchema(schema.quoted());
    }

    long[] cancelMany(JobCancelParams p) {
        if (p.ids().length == 0) {
            return new long[0];
        }
        // One transaction: a linked job cancelled settles what waits for it with it.
        return connections.transaction("cancelling jobs", c -> {
            links.lockBatchesOf(c, p.ids());
            Sql jobCancelMany = sql.get(AdminSql.JobCancelMany);
            long[] changed;
            try (PreparedStatement ps = c.prepareStatement(jobCancelMany.text())) {
                jobCancelMany.setObject(ps, NOW, PostgresJobs.timestamp(p.now()));
                jobCancelMany.setString(ps, NOW_TEXT, p.now().toString());
                jobCancelMany.setString(ps, REASON, p.reason());
                jobCancelMany.setObject(ps, IDS, p.ids());
                jobCancelMany.setString(ps, CHANNEL, schema.channel());
                changed = JdbcIds.read(ps, p.ids().length);
            }
            if (changed.length > 0) {
                // Those cancelled now; a running one was only asked to stop, and its outcome settles.
                Links.settle(links.linkedFinal(c, changed).finished(), p.now(), links.steps(c));
            }
            return changed;
        });
    }

    long[] cancelRequested(long[] ids) {
        if (ids.length == 0) {
            return new long[0];
        }
        return connections.run("looking for cancels requested", c -> {
            Sql jobCancelRequested = sql.get(AdminSql.JobCancelRequested);
            try (PreparedStatement ps = c.prepareStatement(jobCancelRequested.text())) {
                jobCancelRequested.setObject(ps, IDS, ids);
                return JdbcIds.read(ps, ids.length);
            }
        });
    }

    long[] retryMany(long[] ids, Instant now) {
        if (ids.length == 0) {
            return new long[0];
        }
        // One transaction: a linked job retried leaves its batch's counts and waits again for what
        // it runs after that is not done.
        return connections.transaction("retrying jobs", c -> {
            links.lockBatchesOf(c, ids);
            Map<Long, JobState> linked = links.lockLinked(c, ids);
            Sql jobRetryMany = sql.get(AdminSql.JobRetryMany);
            long[] retried;
            try (PreparedStatement ps = c.prepareStatement(jobRetryMany.text())) {
                jobRetryMany.setObject(ps, NOW, PostgresJobs.timestamp(now));
                jobRetryMany.setObject(ps, IDS, ids);
                jobRetryMany.setString(ps, CHANNEL, schema.channel());
                retried = JdbcIds.read(ps, ids.length);
            }
            if (!linked.isEmpty()) {
                Links.reopen(before(linked, retried), now, links.steps(c));
            }
            return retried;
        });
    }

    Optional<Long> uniqueHolder(long id) {
        return connections.run("finding a unique key's holder", c -> {
            Sql jobUniqueHolder = sql.get(AdminSql.JobUniqueHolder);
            try (PreparedStatement ps = c.prepareStatement(jobUniqueHolder.text())) {
                jobUniqueHolder.setLong(ps, ID, id);
                long[] holder = JdbcIds.read(ps, 1);
                return holder.length == 0 ? Optional.empty() : Optional.of(holder[0]);
            }
        });
    }

    long[] deleteMany(long[] ids, Instant now) {
        if (ids.length == 0) {
            return new long[0];
        }
        // One transaction: a linked job deleted settles what waits for it, as an outcome would.
        return connections.transaction("deleting jobs", c -> {
            links.lockBatchesOf(c, ids);
            Map<Long, JobState> linked = links.lockLinked(c, ids);
            Sql jobDeleteMany = sql.get(AdminSql.JobDeleteMany);
            long[] deleted;
            try (PreparedStatement ps = c.prepareStatement(jobDeleteMany.text())) {
                jobDeleteMany.setObject(ps, IDS, ids);
                deleted = JdbcIds.read(ps, ids.length);
            }
            if (!linked.isEmpty()) {
                Links.settleDeleted(before(linked, deleted), now, links.steps(c));
            }
            return deleted;
        });
    }

    /** The states before the change of the linked jobs among {@code changed}. */
    private static Map<Long, JobState> before(Map<Long, JobState> linked, long[] changed) {
        Map<Long, JobState> previous = new HashMap<>();
        for (long id : changed) {
            JobState state = linked.get(id);
            if (state != null) {
                previous.put(id, state);
            }
        }
        return previous;
    }

    /**
     * How long building a search index may take: {@value #INDEX_BUILD_HOURS} hours, in place of the
     * driver's socket timeout (seconds), as it reads the whole table while writes go on.
     */
    static final int INDEX_BUILD_HOURS = 2;

    /** The valid search indexes; an invalid one (a build that failed) is not listed. */
    Set<SearchIndex> searchIndexList() {
        Set<SearchIndex> present = EnumSet.noneOf(SearchIndex.class);
        searchIndexStates().forEach((index, valid) -> {
            if (valid) {
                present.add(index);
            }
        });
        return present;
    }

    private Map<SearchIndex, Boolean> searchIndexStates() {
        return connections.run("listing the search indexes", c -> {
            Map<SearchIndex, Boolean> states = new EnumMap<>(SearchIndex.class);
            Sql searchIndexList = sql.get(AdminSql.SearchIndexList);
            try (PreparedStatement ps = c.prepareStatement(searchIndexList.text())) {
                searchIndexList.setString(ps, SCHEMA, schema.name());
                try (ResultSet rs = ps.executeQuery()) {
                    while (rs.next()) {
                        states.put(SearchIndex.named(rs.getString(1).substring("runnel_job_".length())), rs.getBoolean(2));
                    }
                }
            }
            return states;
        });
    }

    /** Creates {@code index}; one left invalid by a build that failed is dropped and built again. */
    void searchIndexCreate(SearchIndex index) {
        if (Boolean.FALSE.equals(searchIndexStates().get(index))) {
            searchIndexDrop(index);
        }
        build("creating the " + index.cliName() + " search index", index == SearchIndex.KIND
                ? AdminSql.SearchIndexKindCreate : AdminSql.SearchIndexArgsCreate);
    }

    void searchIndexDrop(SearchIndex index) {
        build("dropping the " + index.cliName() + " search index", index == SearchIndex.KIND
                ? AdminSql.SearchIndexKindDrop : AdminSql.SearchIndexArgsDrop);
    }

    /** Runs a concurrent index statement, with the socket timeout lifted to the build's for its duration. */
    private void build(String what, AdminSql statement) {
        connections.run(what, c -> {
            int before = c.getNetworkTimeout();
            c.setNetworkTimeout(Runnable::run, (int) TimeUnit.HOURS.toMillis(INDEX_BUILD_HOURS));
            try (Statement st = c.createStatement()) {
                st.execute(sql.get(statement).text());
            } finally {
                c.setNetworkTimeout(Runnable::run, before);
            }
            return null;
        });
    }
}
