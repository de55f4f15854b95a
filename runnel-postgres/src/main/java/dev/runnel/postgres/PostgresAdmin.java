package dev.runnel.postgres;

import dev.runnel.SearchIndex;
import dev.runnel.driver.JdbcIds;
import dev.runnel.driver.JobCancelParams;
import dev.runnel.driver.SqlFile;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Instant;
import java.util.EnumSet;
import java.util.Optional;
import java.util.Set;

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

    Set<SearchIndex> searchIndexList() {
        return connections.run("listing the search indexes", c -> {
            Set<SearchIndex> present = EnumSet.noneOf(SearchIndex.class);
            try (PreparedStatement ps = c.prepareStatement(sql.get("SearchIndexList"))) {
                ps.setString(1, schema.name());
                try (ResultSet rs = ps.executeQuery()) {
                    while (rs.next()) {
                        present.add(SearchIndex.named(rs.getString(1).substring("runnel_job_".length())));
                    }
                }
            }
            return present;
        });
    }

    void searchIndexCreate(SearchIndex index) {
        execute("creating the " + index.cliName() + " search index", index == SearchIndex.KIND
                ? "SearchIndexKindCreate" : "SearchIndexArgsCreate");
    }

    void searchIndexDrop(SearchIndex index) {
        execute("dropping the " + index.cliName() + " search index", index == SearchIndex.KIND
                ? "SearchIndexKindDrop" : "SearchIndexArgsDrop");
    }

    private void execute(String what, String statement) {
        connections.run(what, c -> {
            try (Statement st = c.createStatement()) {
                st.execute(sql.get(statement));
            }
            return null;
        });
    }
}
