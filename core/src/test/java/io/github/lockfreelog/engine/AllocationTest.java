package io.github.lockfreelog.engine;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.lockfreelog.testing.TestStatus;
import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import java.util.function.UnaryOperator;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The path from append to return allocates nothing of its own, swaps included. */
class AllocationTest {

    @TempDir
    Path dir;

    @Test
    void appendAllocatesNothing() throws Exception {
        java.lang.management.ThreadMXBean bean = ManagementFactory.getThreadMXBean();
        Assumptions.assumeTrue(bean instanceof com.sun.management.ThreadMXBean, "no allocation counter here");
        com.sun.management.ThreadMXBean threads = (com.sun.management.ThreadMXBean) bean;
        EngineConfig config = EngineConfig.builder().name("alloc").logFile(dir.resolve("a.log")).journalFile(dir.resolve("a.journal"))
                .buffers(3, 64 * 1024).maxEventSize(16 * 1024).backpressure(Backpressure.BLOCK)
                .maxBlock(30, TimeUnit.SECONDS).flushInterval(10, TimeUnit.MILLISECONDS)
                .unblockTimeout(10, TimeUnit.SECONDS).stopTimeout(10, TimeUnit.SECONDS).build();
        JournalEngine engine = JournalEngine.start(config, TestStatus.QUIET, UnaryOperator.identity());
        try {
            byte[] payload = "2026-11-29T23:00:00.000Z  INFO 4242 --- [main] c.e.Demo : an event of about a line\n"
                    .getBytes(StandardCharsets.US_ASCII);
            for (int i = 0; i < 200_000; i++) { // warm up: JIT, and LongAdder cells if any
                engine.append(payload, true);
            }
            long id = Thread.currentThread().getId();
            long before = threads.getThreadAllocatedBytes(id);
            int n = 200_000; // about 300 buffer swaps
            for (int i = 0; i < n; i++) {
                engine.append(payload, true);
            }
            long allocated = threads.getThreadAllocatedBytes(id) - before;
            assertThat(engine.statistics().swaps()).isGreaterThan(300);
            // the counter itself may report a few hundred bytes of noise; one object per event would be >= 3 MB
            assertThat(allocated).as("bytes allocated by %d appends", n).isLessThan(16 * 1024);
        } finally {
            engine.stop();
        }
    }
}
