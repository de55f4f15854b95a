package dev.runnel.spring;

import dev.runnel.InsertOptions;
import dev.runnel.InsertRequest;
import dev.runnel.InsertResult;
import dev.runnel.JobArgs;
import dev.runnel.Runnel;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.List;
import java.util.Optional;
import javax.sql.DataSource;
import org.springframework.jdbc.datasource.DataSourceUtils;
import org.springframework.transaction.support.TransactionSynchronizationManager;

/**
 * Inserts jobs the Spring way: inside a Spring-managed transaction ({@code @Transactional},
 * {@code TransactionTemplate}) on the application's {@link DataSource}, the job is written on
 * that transaction's connection and exists only if it commits; outside one, it is written at once,
 * as {@link Runnel#insert} does.
 *
 * <pre>{@code
 * @Transactional
 * public void placeOrder(Order order) {
 *     orders.save(order);
 *     runnelTemplate.insert(new SendReceipt(order.id(), order.email()));   // rolled back with the order
 * }
 * }</pre>
 *
 * <p>The transaction's connection must reach Runnel's tables: the same database, as when Runnel
 * uses the application's DataSource. On Postgres the workers hear of the job when the transaction
 * commits; on SQLite, at their next poll.
 */
public final class RunnelTemplate {
    private final Runnel runnel;
    private final Optional<DataSource> dataSource;

    RunnelTemplate(Runnel runnel, Optional<DataSource> dataSource) {
        this.runnel = runnel;
        this.dataSource = dataSource;
    }

    /** The client underneath, for everything but inserting. */
    public Runnel runnel() {
        return runnel;
    }

    /** Inserts one job, in the current transaction if there is one; see {@link Runnel#insert(JobArgs)}. */
    public InsertResult insert(JobArgs args) {
        return insert(args, InsertOptions.NONE);
    }

    /** Inserts one job with options, in the current transaction if there is one. */
    public InsertResult insert(JobArgs args, InsertOptions options) {
        return insertMany(List.of(new InsertRequest(args, options))).getFirst();
    }

    /** Inserts many jobs, all or none, in the current transaction if there is one. */
    public List<InsertResult> insertMany(List<InsertRequest> requests) {
        if (dataSource.isEmpty() || !TransactionSynchronizationManager.isActualTransactionActive()) {
            return runnel.insertMany(requests);
        }
        DataSource ds = dataSource.get();
        Connection connection = DataSourceUtils.getConnection(ds);
        try {
            if (connection.getAutoCommit()) {
                throw new IllegalStateException("a transaction is active, but not on the application's DataSource"
                        + " (its connection is in autocommit): the job would not roll back with it. Run the"
                        + " transaction on that DataSource, or insert with Runnel outside it");
            }
            return runnel.insertMany(connection, requests);
        } catch (SQLException e) {
            throw new IllegalStateException("cannot read the transaction's connection: " + e.getMessage(), e);
        } finally {
            DataSourceUtils.releaseConnection(connection, ds);
        }
    }

    /** Whether an insert now would join a transaction. */
    public boolean inTransaction() {
        return dataSource.isPresent() && TransactionSynchronizationManager.isActualTransactionActive();
    }
}
