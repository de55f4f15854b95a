package dev.runnel;

import dev.runnel.internal.ArgsCodec;

/** A periodic job's args and metadata made ready to store, as a client's codec writes and checks them. */
final class PeriodicEncoding {
    private PeriodicEncoding() {}

    /**
     * {@code job} with its args as {@code codec} writes them (the default wrote them already),
     * its args checked as those of an insert are (within the client's {@link RunnelBuilder#maxArgsBytes}, and
     * nothing in them that cannot be stored as given) and its metadata as an insert's metadata is.
     */
    static PeriodicJob encoded(PeriodicJob job, ArgsCodec codec) {
        PeriodicJob encoded = codec.writesAsDefault() ? job : job.encodedWith(codec::encodeArgs);
        try {
            codec.checkArgs(encoded.args(), encoded.kind());
            ArgsCodec.checkMetadata(encoded.metadata(), encoded.kind());
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("periodic job " + job.name() + ": " + e.getMessage(), e);
        }
        return encoded;
    }
}
