package io.github.lockfreelog.testsupport;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The acknowledgement file a crash test's child writes and the test reads after the child died: whatever moment the
 * child died at, a slot says no more than the child's thread was acknowledged for.
 */
class AckFileTest {

    @TempDir
    Path dir;

    /**
     * A child halted right after it mapped the file (the mapping fills it with zeros) and before any thread logged: a
     * zero-filled slot must read as "none", not as "event 0 acknowledged" (the test would then miss an event that
     * was never acknowledged).
     */
    @Test
    void aFileJustMappedReadsAsNoneForEveryThread() throws Exception {
        Path path = dir.resolve("ack");
        AckFile acks = AckFile.create(path, 4);
        assertThat(Files.size(path)).isEqualTo(4L * AckFile.SLOT);
        assertThat(AckFile.read(path, 4)).containsExactly(-1, -1, -1, -1);
        for (int t = 0; t < 4; t++) {
            assertThat(acks.acknowledged(t)).as("thread %d", t).isEqualTo(-1);
        }
    }

    @Test
    void eachThreadsSlotHoldsItsLastAcknowledgedEvent() throws Exception {
        Path path = dir.resolve("ack");
        AckFile acks = AckFile.create(path, 3);
        acks.acknowledge(0, 0);
        acks.acknowledge(2, 41);
        acks.acknowledge(2, 42);
        assertThat(AckFile.read(path, 3)).containsExactly(0, -1, 42);
        assertThat(acks.acknowledged(2)).isEqualTo(42);
        assertThat(AckFile.create(path, 3).acknowledged(0)).as("opened again, as the test or a next run does")
                .isZero();
    }

    @Test
    void aMissingFileOrSlotReadsAsNone() throws Exception {
        assertThat(AckFile.read(dir.resolve("never-made"), 2)).containsExactly(-1, -1);
        Path short_ = dir.resolve("short");
        AckFile.create(short_, 1).acknowledge(0, 7);
        assertThat(AckFile.read(short_, 2)).as("a slot beyond the file's end").containsExactly(7, -1);
    }
}
