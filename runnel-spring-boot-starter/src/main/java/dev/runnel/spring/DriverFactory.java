package dev.runnel.spring;

import dev.runnel.Drivers;
import dev.runnel.driver.Driver;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DatabaseMetaData;
import java.sql.SQLException;
import java.util.Locale;
import java.util.Optional;
import javax.sql.DataSource;
import org.springframework.util.ClassUtils;

/**
 * Opens the driver the properties ask for: {@code runnel.database-url} when it is set, else one on
 * the application's {@link DataSource}, whose database is asked what it is. Each driver is touched
 * through its own nested class, so that only the driver module the application has must be on the
 * class path.
 */
final class DriverFactory {
    private DriverFactory() {}

    static Driver open(RunnelProperties properties, Optional<DataSource> dataSource) {
        String url = properties.getDatabaseUrl();
        if (url != null) {
            if (properties.getSchema() != null) {
                throw new IllegalArgumentException("runnel.schema applies to the application's DataSource; with"
                        + " runnel.database-url, give the schema in the URL (?schema=" + properties.getSchema() + ")");
            }
            return Drivers.open(url);
        }
        DataSource ds = dataSource.orElseThrow(() -> new IllegalArgumentException("Runnel needs a database: set"
                + " runnel.database-url (sqlite://jobs.db, postgres://user@host:5432/db) or define a DataSource"));
        String product;
        String jdbcUrl;
        try (Connection c = ds.getConnection()) {
            DatabaseMetaData meta = c.getMetaData();
            product = meta.getDatabaseProductName();
            jdbcUrl = meta.getURL();
        } catch (SQLException e) {
            throw new IllegalStateException("cannot reach the application's DataSource to see which database it is: "
                    + e.getMessage(), e);
        }
        String lower = product.toLowerCase(Locale.ROOT);
        if (lower.contains("postgres")) {
            require("dev.runnel.postgres.PostgresDriver", "runnel-postgres", product);
            return Postgres.open(ds, properties.getSchema());
        }
        if (lower.contains("sqlite")) {
            require("dev.runnel.sqlite.SqliteDriver", "runnel-sqlite", product);
            if (properties.getSchema() != null) {
                throw new IllegalArgumentException("runnel.schema applies to PostgreSQL; the DataSource is SQLite");
            }
            return Sqlite.open(jdbcUrl);
        }
        throw new IllegalArgumentException("Runnel has drivers for PostgreSQL and SQLite, and the application's"
                + " DataSource is " + product + ": set runnel.database-url");
    }

    private static void require(String className, String artifact, String product) {
        if (!ClassUtils.isPresent(className, DriverFactory.class.getClassLoader())) {
            throw new IllegalStateException("the application's DataSource is " + product + ": add the dependency"
                    + " dev.runnel:" + artifact);
        }
    }

    private static final class Postgres {
        static Driver open(DataSource ds, String schema) {
            dev.runnel.postgres.PostgresDriverBuilder builder = dev.runnel.postgres.PostgresDriver.builder()
                    .dataSource(ds);
            if (schema != null) {
                builder.schema(schema);
            }
            return builder.build();
        }
    }

    private static final class Sqlite {
        static Driver open(String jdbcUrl) {
            String path = jdbcUrl.substring("jdbc:sqlite:".length());
            int query = path.indexOf('?');
            if (query >= 0) {
                path = path.substring(0, query);
            }
            if (path.startsWith("file:")) {
                path = path.substring("file:".length());
            }
            if (path.isEmpty() || path.contains(":memory:") || path.contains("mode=memory")) {
                throw new IllegalArgumentException("the application's DataSource is an in-memory SQLite database,"
                        + " which Runnel's own connections cannot share: use a file, or set runnel.database-url");
            }
            return dev.runnel.sqlite.SqliteDriver.open(Path.of(path));
        }
    }
}
