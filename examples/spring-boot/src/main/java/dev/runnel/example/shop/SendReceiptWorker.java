package dev.runnel.example.shop;

import dev.runnel.Job;
import dev.runnel.Worker;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.springframework.stereotype.Component;

/** Registered by the starter for {@link SendReceipt}, because it implements {@code Worker<SendReceipt>}. */
@Component
public class SendReceiptWorker implements Worker<SendReceipt> {
    private final List<Long> sent = new CopyOnWriteArrayList<>();

    @Override
    public void work(Job<SendReceipt> job) {
        sent.add(job.args().orderId()); // mail the receipt here; throw to retry with backoff
    }

    /** The orders whose receipt was sent, in order. */
    public List<Long> sent() {
        return List.copyOf(sent);
    }
}
