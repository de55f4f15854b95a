package dev.runnel.internal;

import dev.runnel.JobArgs;
import dev.runnel.Worker;

/** A registered worker: the kind, its args type, and the worker. */
public record WorkUnit<T extends JobArgs>(String kind, Class<T> type, Worker<T> worker) {}
