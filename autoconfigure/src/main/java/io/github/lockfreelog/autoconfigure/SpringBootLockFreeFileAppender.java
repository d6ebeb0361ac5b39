package io.github.lockfreelog.autoconfigure;

import io.github.lockfreelog.logback.LockFreeFileAppender;

/**
 * The appender the starter attaches. It differs from {@link LockFreeFileAppender} in one way: a
 * plain {@code LoggerContext.reset()} (Logback re-reading its configuration, a JMX reload) does not
 * stop it, because {@link LockFreeLogAppenderHolder} attaches it again right after the reset. So
 * the journal stays mapped and the counters go on. When the context is stopped (the JVM shuts
 * down, or Spring Boot stops Logback before configuring it again) it stops as any appender does.
 */
final class SpringBootLockFreeFileAppender extends LockFreeFileAppender {

    private static final String LOGGER_CONTEXT = "ch.qos.logback.classic.LoggerContext";

    @Override
    public void stop() {
        if (isStarted() && isInsidePlainContextReset()) {
            return;
        }
        super.stop();
    }

    /** Stops the appender whatever is on the stack (the starter's own detach). */
    void stopNow() {
        super.stop();
    }

    /** Whether {@code LoggerContext.reset()} is on the stack and {@code LoggerContext.stop()} is not. Rare, so the walk costs nothing that matters. */
    private static boolean isInsidePlainContextReset() {
        return StackWalker.getInstance().walk(frames -> {
            boolean reset = false;
            for (var it = frames.iterator(); it.hasNext();) {
                StackWalker.StackFrame frame = it.next();
                if (LOGGER_CONTEXT.equals(frame.getClassName())) {
                    if ("stop".equals(frame.getMethodName())) {
                        return false;
                    }
                    reset |= "reset".equals(frame.getMethodName());
                }
            }
            return reset;
        });
    }
}
