package io.github.lockfreelog.testing;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import ch.qos.logback.classic.spi.ILoggingEvent;
import io.github.lockfreelog.logback.encoding.PatternEncoding;

/** What the calling thread allocates, as the JVM counts it (tests that need the count are skipped where it cannot). */
public final class Allocations {

    private Allocations() {
    }

    /** Bytes this thread allocates while running {@code work} {@code times} times. */
    public static long allocatedBy(Runnable work, int times) {
        java.lang.management.ThreadMXBean bean = java.lang.management.ManagementFactory.getThreadMXBean();
        assumeTrue(bean instanceof com.sun.management.ThreadMXBean, "no allocation counter here");
        com.sun.management.ThreadMXBean threads = (com.sun.management.ThreadMXBean) bean;
        long id = Thread.currentThread().getId();
        long before = threads.getThreadAllocatedBytes(id);
        for (int i = 0; i < times; i++) {
            work.run();
        }
        return threads.getThreadAllocatedBytes(id) - before;
    }

    /**
     * Asserts that 100,000 encodings of {@code event}, after 20,000 that warm up and keep this thread's parts, are
     * each whole and together allocate less than 16 KiB.
     */
    public static void assertEncodesWithoutAllocating(PatternEncoding fast, ILoggingEvent event) {
        event.getFormattedMessage();
        long[] total = {0};
        Runnable encode = () -> total[0] += fast.encode(event).length;
        allocatedBy(encode, 20_000);
        long allocated = allocatedBy(encode, 100_000);
        assertThat(total[0]).as("every encoding whole").isEqualTo(120_000L * fast.encode(event).length);
        assertThat(allocated).as("bytes allocated by 100,000 encodings").isLessThan(16 * 1024);
    }
}
