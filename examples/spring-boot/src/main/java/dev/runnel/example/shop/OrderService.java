package dev.runnel.example.shop;

import dev.runnel.spring.RunnelTemplate;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.stereotype.Service;
import org.springframework.transaction.annotation.Transactional;

/** Places orders: the order and the job that mails its receipt commit together, or not at all. */
@Service
public class OrderService {
    private final JdbcTemplate jdbc;
    private final RunnelTemplate runnel;

    public OrderService(JdbcTemplate jdbc, RunnelTemplate runnel) {
        this.jdbc = jdbc;
        this.runnel = runnel;
    }

    /** Saves the order and enqueues its receipt; a refused payment rolls both back. */
    @Transactional
    public void placeOrder(long id, String email, boolean paymentRefused) {
        jdbc.update("INSERT INTO orders (id, email) VALUES (?, ?)", id, email);
        runnel.insert(new SendReceipt(id, email));
        if (paymentRefused) {
            throw new IllegalStateException("payment refused for order " + id);
        }
    }
}
