package io.github.lockfreelog.testsupport;

import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;

/** Threads for tests that need what only newer Java versions have. */
public final class TestThreads {

    private TestThreads() {
    }

    /**
     * An executor that runs each task in a new virtual thread (Java 21 and later), or {@code null}
     * on a Java without virtual threads: tests then skip.
     */
    public static ExecutorService virtualThreadPerTask() {
        try {
            return (ExecutorService) Executors.class.getMethod("newVirtualThreadPerTaskExecutor").invoke(null);
        } catch (ReflectiveOperationException | RuntimeException e) {
            return null;
        }
    }
}
