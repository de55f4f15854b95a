package dev.runnel.internal;

/** Whether this client holds the leader's lease now, and so runs the cluster's maintenance. */
@FunctionalInterface
public interface Leadership {
    boolean isLeader();
}
