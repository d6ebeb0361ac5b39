package io.github.lockfreelog.autoconfigure.actuate;

import static org.assertj.core.api.Assertions.assertThat;

import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.LoggerContext;
import ch.qos.logback.core.util.Duration;
import io.github.lockfreelog.logback.LockFreeFileAppender;
import io.github.lockfreelog.testing.FailingSink;
import io.github.lockfreelog.testing.TestAppenders;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * Lock-free appenders attached straight to a logger of a Logback context of their own, as a Logback
 * configuration would declare them: the actuator parts are tested apart from the starter's way of
 * attaching its appender, and apart from whatever other tests leave in the global context.
 * {@link #close()} detaches and stops every appender created here.
 */
final class AttachedAppenders implements AutoCloseable {

    /** The logger appenders are attached to. */
    static final String LOGGER = "test.lockfreelog";

    private final LoggerContext context = new LoggerContext();

    private final List<LockFreeFileAppender> created = new ArrayList<>();

    AttachedAppenders() {
        context.setName("actuate-tests");
        context.start();
    }

    LoggerContext context() {
        return context;
    }

    /** The logger the appenders are attached to: log through it to reach them. */
    Logger logger() {
        return context.getLogger(LOGGER);
    }

    /** A started appender writing {@code file}, attached to {@link #LOGGER}. */
    LockFreeFileAppender attach(String name, Path file) {
        return attach(name, file, null);
    }

    /**
     * A started appender writing {@code file}, attached to {@link #LOGGER}; when {@code failing} is
     * not {@code null}, its writes to the file fail while it is set (see {@link FailingSink}).
     */
    LockFreeFileAppender attach(String name, Path file, AtomicBoolean failing) {
        LockFreeFileAppender appender = TestAppenders.create(context, file, a -> {
            a.setName(name);
            a.setBufferCount(2);
            a.setFlushInterval(Duration.buildByMilliseconds(20));
            if (failing != null) {
                a.setSinkDecorator(delegate -> new FailingSink(delegate, failing, false));
            }
        });
        created.add(appender);
        appender.start();
        assertThat(appender.isStarted()).as("appender %s started", name).isTrue();
        attach(appender);
        return appender;
    }

    /** Attaches an appender (again) to {@link #LOGGER}. */
    void attach(LockFreeFileAppender appender) {
        logger().addAppender(appender);
    }

    /** Takes an appender off {@link #LOGGER}, leaving it running. */
    void detach(LockFreeFileAppender appender) {
        logger().detachAppender(appender);
    }

    /** Lets go of an appender the test detached and stopped itself, so that nothing here keeps it reachable. */
    void forget(LockFreeFileAppender appender) {
        created.remove(appender);
    }

    @Override
    public void close() {
        for (LockFreeFileAppender appender : created) {
            for (Logger logger : context.getLoggerList()) {
                logger.detachAppender(appender);
            }
            appender.stop();
        }
        created.clear();
        context.stop();
    }
}
