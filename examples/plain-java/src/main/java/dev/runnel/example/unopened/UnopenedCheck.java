package dev.runnel.example.unopened;

import dev.runnel.JobArgs;
import dev.runnel.Runnel;

/**
 * What an application meets when it forgets to open the package of its args: this package is not
 * opened in module-info.java, so registering a worker for {@link Reminder} fails, and the message
 * says which line to add. Printed for the example's test to check.
 */
public final class UnopenedCheck {
    record Reminder(String text) implements JobArgs {
        @Override public String kind() { return "reminder"; }
    }

    private UnopenedCheck() {}

    public static void main(String[] args) {
        try {
            Runnel.builder().worker(Reminder.class, job -> { });
            System.out.println("registered: the package was open after all");
            System.exit(1);
        } catch (IllegalArgumentException e) {
            System.out.println(e.getMessage());
        }
    }
}
