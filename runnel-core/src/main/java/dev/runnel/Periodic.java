package dev.runnel;

import dev.runnel.internal.ArgsCodec;
import dev.runnel.internal.PeriodicAdmin;
import java.util.List;
import java.util.Optional;

/**
 * The cluster's periodic jobs, from any client (one that only inserts, too): listed, added,
 * changed, removed, paused and resumed at runtime. Every change is stored at once, and the leader
 * follows it from its next round (within the scheduler interval, a second by default). Handed out
 * by {@link Runnel#periodic()}.
 *
 * <p>Jobs declared in code ({@link RunnelBuilder#periodic}) are stored when a client starts; an
 * operator's changes to them stand across restarts: a pause holds until resumed, an edit until the
 * code's definition changes, and a removed job comes back only with a changed definition in code.
 * Dropping a declaration from the code does not remove the job (during a rolling deployment old
 * clients still declare it): remove it here or with {@code runnel periodic remove}.
 */
public final class Periodic {
    private final PeriodicAdmin admin;
    private final ArgsCodec codec;

    Periodic(PeriodicAdmin admin, ArgsCodec codec) {
        this.admin = admin;
        this.codec = codec;
    }

    /** Every periodic job, by name; {@link PeriodicRow#nextRun} tells when each fires next. */
    public List<PeriodicRow> list() {
        return admin.list();
    }

    /** The periodic job named {@code name}, if there is one. */
    public Optional<PeriodicRow> get(String name) {
        return admin.get(name);
    }

    /**
     * Adds {@code job}, or replaces the definition of the job of that name (a removed one comes
     * back). A new job fires no tick from before it was added; a changed schedule counts its ticks
     * from now on (a tick of the old one not yet enqueued is dropped); other changes apply from the
     * next tick enqueued. With {@link PeriodicJob#runOnStart} a
     * job is enqueued at once when the stored definition changed. Returns whether it changed
     * (false: stored already, exactly so).
     */
    public boolean upsert(PeriodicJob job) {
        if (job == null) {
            throw new IllegalArgumentException("job must not be null");
        }
        return admin.upsert(PeriodicEncoding.encoded(job, codec));
    }

    /** Removes periodic job {@code name}; throws {@link NotFoundException} when there is none. */
    public void remove(String name) {
        admin.remove(name);
    }

    /**
     * Pauses periodic job {@code name}: no tick is enqueued until it is resumed, and ticks that
     * come due meanwhile are dropped, whatever its catch-up policy (so is a tick that came due
     * just before and that the leader had not yet enqueued: it does so within the scheduler
     * interval). Survives restarts. Throws {@link NotFoundException} when there is no such job.
     */
    public void pause(String name) {
        admin.setPaused(name, true);
    }

    /** Resumes periodic job {@code name}: ticks from now on fire. Throws {@link NotFoundException} when there is none. */
    public void resume(String name) {
        admin.setPaused(name, false);
    }
}
