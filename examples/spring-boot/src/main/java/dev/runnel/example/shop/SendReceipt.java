package dev.runnel.example.shop;

import dev.runnel.JobArgs;

/** The job: mail the receipt of an order. */
public record SendReceipt(long orderId, String email) implements JobArgs {
    @Override public String kind() { return "send_receipt"; }
}
