package io.github.lockfreelog.logback.encoding;

import static org.assertj.core.api.Assertions.assertThat;

import ch.qos.logback.classic.spi.ILoggingEvent;
import io.github.lockfreelog.testsupport.Allocations;

/** Whether the pattern fast path encodes without allocating, as {@link Allocations} counts it. */
final class EncodingAllocations {

    private EncodingAllocations() {
    }

    /**
     * Asserts that 100,000 encodings of {@code event}, after 20,000 that warm up and keep this thread's parts, are
     * each whole and together allocate less than 16 KiB.
     */
    static void assertEncodesWithoutAllocating(PatternEncoding fast, ILoggingEvent event) {
        event.getFormattedMessage();
        long[] total = {0};
        Runnable encode = () -> total[0] += fast.encode(event).length;
        Allocations.allocatedBy(encode, 20_000);
        long allocated = Allocations.allocatedBy(encode, 100_000);
        assertThat(total[0]).as("every encoding whole").isEqualTo(120_000L * fast.encode(event).length);
        assertThat(allocated).as("bytes allocated by 100,000 encodings").isLessThan(16 * 1024);
    }
}
