package io.github.lockfreelog.testsupport;

import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;

/** What the calling thread allocates, as the JVM counts it (tests that need the count are skipped where it cannot). */
public final class Allocations {

    private Allocations() {
    }

    /** Bytes this thread allocates while running {@code work} {@code times} times. */
    public static long allocatedBy(Runnable work, int times) {
        ThreadMXBean bean = ManagementFactory.getThreadMXBean();
        assumeTrue(bean instanceof com.sun.management.ThreadMXBean, "no allocation counter here");
        com.sun.management.ThreadMXBean threads = (com.sun.management.ThreadMXBean) bean;
        long id = Thread.currentThread().getId();
        long before = threads.getThreadAllocatedBytes(id);
        for (int i = 0; i < times; i++) {
            work.run();
        }
        return threads.getThreadAllocatedBytes(id) - before;
    }
}
