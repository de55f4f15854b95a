package dev.runnel.postgres;

import dev.runnel.SearchIndex;
import dev.runnel.driver.JdbcIds;
import dev.runnel.driver.JobCancelParams;
import dev.runnel.driver.SqlFile;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Instant;
import java.util.EnumMap;
import java.util.EnumSet;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.TimeUnit;

/** The job administration of {@link PostgresDriver}, one statement each, from {@code admin.sql}. */
final class PostgresAdmin {
    private static final Set<String> STATEMENTS = Set.of("JobCancelMany", "JobCancelRequested", "JobRetryMany",
            "JobUniqueHolder", "JobDeleteMany", "SearchIndexList", "SearchIndexKindCreate", "SearchIndexArgsCreate",
            "SearchIndexKindDrop", "SearchIndexArgsDrop");

    private final PostgresSchema schema;
    private final PostgresConnections connections;
    private final SqlFile sql;

    PostgresAdmin(PostgresSchema schema, PostgresConnections connections) {
        this.schema = schema;
        this.connections = connections;
        this.sql = SqlFile.parse("admin.sql", PostgresAdmin.class.getResourceAsStream("admin.sql"), STATEMENTS)
                .withSchema(schema.quoted());
    }

    long[] cancelMany(JobCancelParams p) {
        if (p.ids().length == 0) {
            return new long[0];
        }
        return connections.run("cancelling jobs", c -> {
            try (PreparedStatement ps = c.prepareStatement(sql.get("JobCancelMany"))) {
                ps.setObject(1, PostgresJobs.timestamp(p.now()));
                ps.setObject(2, PostgresJobs.timestamp(p.now()));
                ps.setString(3, p.now().toString());
                ps.setString(4, p.reason());
                ps.setObject(5, p.ids());
                ps.setString(6, schema.channel());
                return JdbcIds.read(ps, p.ids().length);
            }
        });
    }

    long[] cancelRequested(long[] ids) {
        if (ids.length == 0) {
            return new long[0];
        }
        return connections.run("looking for cancels requested", c -> {
            try (PreparedStatement ps = c.prepareStatement(sql.get("JobCancelRequested"))) {
                ps.setObject(1, ids);
                return JdbcIds.read(ps, ids.length);
            }
        });
    }

    long[] retryMany(long[] ids, Instant now) {
        if (ids.length == 0) {
            return new long[0];
        }
        return connections.run("retrying jobs", c -> {
            try (PreparedStatement ps = c.prepareStatement(sql.get("JobRetryMany"))) {
                ps.setObject(1, PostgresJobs.timestamp(now));
                ps.setObject(2, ids);
                ps.setString(3, schema.channel());
                return JdbcIds.read(ps, ids.length);
            }
        });
    }

    Optional<Long> uniqueHolder(long id) {
        return connections.run("finding a unique key's holder", c -> {
            try (PreparedStatement ps = c.prepareStatement(sql.get("JobUniqueHolder"))) {
                ps.setLong(1, id);
                long[] holder = JdbcIds.read(ps, 1);
                return holder.length == 0 ? Optional.empty() : Optional.of(holder[0]);
            }
        });
    }

    long[] deleteMany(long[] ids) {
        if (ids.length == 0) {
            return new long[0];
        }
        return connections.run("deleting jobs", c -> {
            try (PreparedStatement ps = c.prepareStatement(sql.get("JobDeleteMany"))) {
                ps.setObject(1, ids);
                return JdbcIds.read(ps, ids.length);
            }
        });
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
            try (PreparedStatement ps = c.prepareStatement(sql.get("SearchIndexList"))) {
                ps.setString(1, schema.name());
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
                ? "SearchIndexKindCreate" : "SearchIndexArgsCreate");
    }

    void searchIndexDrop(SearchIndex index) {
        build("dropping the " + index.cliName() + " search index", index == SearchIndex.KIND
                ? "SearchIndexKindDrop" : "SearchIndexArgsDrop");
    }

    /** Runs a concurrent index statement, with the socket timeout lifted to the build's for its duration. */
    private void build(String what, String statement) {
        connections.run(what, c -> {
            int before = c.getNetworkTimeout();
            c.setNetworkTimeout(Runnable::run, (int) TimeUnit.HOURS.toMillis(INDEX_BUILD_HOURS));
            try (Statement st = c.createStatement()) {
                st.execute(sql.get(statement));
            } finally {
                c.setNetworkTimeout(Runnable::run, before);
            }
            return null;
        });
    }
}
