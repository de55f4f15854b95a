package dev.runnel.testlog;

import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import org.slf4j.ILoggerFactory;
import org.slf4j.IMarkerFactory;
import org.slf4j.Marker;
import org.slf4j.event.Level;
import org.slf4j.helpers.BasicMDCAdapter;
import org.slf4j.helpers.BasicMarkerFactory;
import org.slf4j.helpers.LegacyAbstractLogger;
import org.slf4j.helpers.MessageFormatter;
import org.slf4j.spi.MDCAdapter;
import org.slf4j.spi.SLF4JServiceProvider;

/**
 * The core's tests' logging: a real MDC (the NOP logger has none, so the runtime would not set
 * it), and every line from INFO up kept with the MDC it was logged under, for tests to assert.
 */
public final class RecordingLogProvider implements SLF4JServiceProvider {
    /** One line logged: its level, logger, formatted message, and the MDC at the time. */
    public record Line(Level level, String logger, String message, Map<String, String> mdc) {}

    /** Every line logged in this JVM, oldest first. */
    public static final List<Line> LINES = new CopyOnWriteArrayList<>();

    private final MDCAdapter mdc = new BasicMDCAdapter();
    private final IMarkerFactory markers = new BasicMarkerFactory();
    private final ILoggerFactory loggers = Recording::new;

    @Override
    public ILoggerFactory getLoggerFactory() {
        return loggers;
    }

    @Override
    public IMarkerFactory getMarkerFactory() {
        return markers;
    }

    @Override
    public MDCAdapter getMDCAdapter() {
        return mdc;
    }

    @Override
    public String getRequestedApiVersion() {
        return "2.0.99";
    }

    @Override
    public void initialize() {}

    private final class Recording extends LegacyAbstractLogger {
        Recording(String name) {
            this.name = name;
        }

        @Override
        public boolean isTraceEnabled() {
            return false;
        }

        @Override
        public boolean isDebugEnabled() {
            return false;
        }

        @Override
        public boolean isInfoEnabled() {
            return true;
        }

        @Override
        public boolean isWarnEnabled() {
            return true;
        }

        @Override
        public boolean isErrorEnabled() {
            return true;
        }

        @Override
        protected String getFullyQualifiedCallerName() {
            return null;
        }

        @Override
        protected void handleNormalizedLoggingCall(Level level, Marker marker, String pattern, Object[] args,
                Throwable t) {
            Map<String, String> context = mdc.getCopyOfContextMap();
            LINES.add(new Line(level, name, MessageFormatter.basicArrayFormat(pattern, args),
                    context == null ? Map.of() : Map.copyOf(context)));
        }
    }
}
