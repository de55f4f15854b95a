package dev.runnel.cli;

import dev.runnel.Runnel;
import picocli.CommandLine.Option;

/** The {@code --at-most-once} option of the commands that work a queue. */
final class DeliveryOption {
    @Option(names = "--at-most-once", description = "Work the queue at most once: the claim removes each job, and nothing is written after.")
    boolean atMostOnce;

    Runnel.Delivery delivery() {
        return atMostOnce ? Runnel.Delivery.AT_MOST_ONCE : Runnel.Delivery.AT_LEAST_ONCE;
    }
}
