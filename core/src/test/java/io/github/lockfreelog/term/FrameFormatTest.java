package io.github.lockfreelog.term;

import static io.github.lockfreelog.term.JournalDescriptor.*;
import static org.assertj.core.api.Assertions.assertThat;

import io.github.lockfreelog.engine.Backpressure;
import io.github.lockfreelog.engine.EngineConfig;
import io.github.lockfreelog.engine.JournalEngine;
import io.github.lockfreelog.sink.LogSink;
import io.github.lockfreelog.testing.GatedSink;
import io.github.lockfreelog.testing.TestStatus;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import java.util.function.UnaryOperator;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The bytes the engine leaves in the journal: frame layout, commit protocol, padding, tails. */
class FrameFormatTest {

    static final int BUFFER = 64 * 1024;

    @TempDir
    Path dir;

    JournalEngine engine;

    @AfterEach
    void stop() {
        if (engine != null) {
            engine.stop();
        }
    }

    private JournalEngine start(UnaryOperator<LogSink> sink) throws IOException {
        EngineConfig config = EngineConfig.builder().name("frames").logFile(dir.resolve("f.log")).journalFile(dir.resolve(".lockfreelog/f.log.journal"))
                .buffers(3, BUFFER).maxEventSize(BUFFER / 4).backpressure(Backpressure.BLOCK)
                .maxBlock(5, TimeUnit.SECONDS).flushInterval(1, TimeUnit.HOURS)
                .unblockTimeout(10, TimeUnit.SECONDS).stopTimeout(10, TimeUnit.SECONDS).build();
        engine = JournalEngine.start(config, TestStatus.QUIET, sink);
        return engine;
    }

    /** Reads the journal file as it is on disk: what another process would see after a crash. */
    private ByteBuffer journalBytes() throws IOException {
        return ByteBuffer.wrap(Files.readAllBytes(dir.resolve(".lockfreelog/f.log.journal")))
                .order(ByteOrder.LITTLE_ENDIAN);
    }

    @Test
    void committedFrameHasPositiveLengthDataTypePayloadAndAlignedNextFrame() throws IOException {
        start(UnaryOperator.identity());
        byte[] first = "hello\n".getBytes(StandardCharsets.US_ASCII); // 6 bytes: frame 14, aligned 16
        byte[] second = "0123456789abcdef\n".getBytes(StandardCharsets.US_ASCII); // 17: frame 25, aligned 32
        engine.append(first, true);
        engine.append(second, true);

        ByteBuffer j = journalBytes();
        assertThat(j.getLong(MAGIC_OFFSET)).isEqualTo(MAGIC);
        assertThat(j.getInt(VERSION_OFFSET)).isEqualTo(VERSION);
        assertThat(j.getInt(BUFFER_COUNT_OFFSET)).isEqualTo(3);
        assertThat(j.getInt(BUFFER_SIZE_OFFSET)).isEqualTo(BUFFER);
        int base = bufferOffset(0, BUFFER);
        assertThat(j.getInt(base + FRAME_LENGTH_OFFSET)).isEqualTo(HEADER_LENGTH + 6);
        assertThat(j.getInt(base + FRAME_TYPE_OFFSET)).isEqualTo(TYPE_DATA);
        assertThat(slice(j, base + HEADER_LENGTH, 6)).isEqualTo("hello\n");
        int next = base + 16;
        assertThat(j.getInt(next + FRAME_LENGTH_OFFSET)).isEqualTo(HEADER_LENGTH + 17);
        assertThat(j.getInt(next + FRAME_TYPE_OFFSET)).isEqualTo(TYPE_DATA);
        assertThat(slice(j, next + HEADER_LENGTH, 17)).isEqualTo("0123456789abcdef\n");
        assertThat(j.getInt(next + 32)).as("nothing reserved after").isZero();
        assertThat(j.getLong(tailCounterOffset(0))).isEqualTo(packTail(0, 48));
        assertThat(j.getLong(ACTIVE_TERM_COUNT_OFFSET)).isZero();
        // buffers 1 and 2 look full, as if they held terms -2 and -1, and hold the free slots of terms 1 and 2
        assertThat(j.getLong(tailCounterOffset(1))).isEqualTo(packTail(-2, BUFFER));
        assertThat(j.getLong(tailCounterOffset(2))).isEqualTo(packTail(-1, BUFFER));
        assertThat(j.getLong(bufferOffset(1, BUFFER))).isEqualTo(emptyHeader(1)).isEqualTo(1L << 32);
        assertThat(j.getLong(bufferOffset(2, BUFFER) + BUFFER - 8)).isEqualTo(emptyHeader(2));
    }

    @Test
    void reservationCrossingTheEndWritesPaddingAndSwapsToTheNextBuffer() throws IOException {
        GatedSink[] gate = new GatedSink[1];
        start(s -> gate[0] = new GatedSink(s));
        byte[] event = new byte[1000 - HEADER_LENGTH]; // frames of exactly 1000 bytes, aligned to 1000
        java.util.Arrays.fill(event, (byte) 'a');
        event[event.length - 1] = '\n';
        int perBuffer = BUFFER / 1000; // 65 frames, 536 bytes left over
        for (int i = 0; i < perBuffer + 1; i++) {
            engine.append(event, true);
        }
        ByteBuffer j = journalBytes();
        int base = bufferOffset(0, BUFFER);
        int padAt = base + perBuffer * 1000;
        assertThat(j.getInt(padAt + FRAME_LENGTH_OFFSET)).isEqualTo(BUFFER - perBuffer * 1000);
        assertThat(j.getInt(padAt + FRAME_TYPE_OFFSET)).isEqualTo(TYPE_PADDING);
        assertThat(j.getLong(ACTIVE_TERM_COUNT_OFFSET)).isEqualTo(1);
        int second = bufferOffset(1, BUFFER);
        assertThat(j.getInt(second + FRAME_LENGTH_OFFSET)).isEqualTo(1000);
        assertThat(j.getLong(tailCounterOffset(1))).isEqualTo(packTail(1, 1000));
        assertThat(engine.statistics().swaps()).isEqualTo(1);
        gate[0].open();
    }

    @Test
    void aWaitingCallerReservesPastTheEndOnlyOncePerTerm() throws IOException {
        GatedSink[] gate = new GatedSink[1];
        EngineConfig config = EngineConfig.builder().name("frames").logFile(dir.resolve("f.log")).journalFile(dir.resolve(".lockfreelog/f.log.journal"))
                .buffers(3, BUFFER).maxEventSize(BUFFER / 4).backpressure(Backpressure.BLOCK)
                .maxBlock(300, TimeUnit.MILLISECONDS).flushInterval(1, TimeUnit.HOURS)
                .unblockTimeout(10, TimeUnit.SECONDS).stopTimeout(10, TimeUnit.SECONDS).build();
        engine = JournalEngine.start(config, TestStatus.QUIET, (UnaryOperator<LogSink>) sink -> gate[0] = new GatedSink(sink));
        byte[] event = new byte[1000 - HEADER_LENGTH];
        java.util.Arrays.fill(event, (byte) 'w');
        while (engine.statistics().dropped() == 0) {
            engine.append(event, true); // three buffers fill; the drainer is held in its first write
        }
        assertThat(engine.statistics().drops()).containsEntry("timeout", 1L);
        long active = engine.journal().activeTermCountAcquire();
        long rawTail = engine.journal().rawTailVolatile((int) (active % 3));
        // 300 ms of waiting did not keep adding to the tail: one frame past the end at most
        assertThat(tailOffset(rawTail)).isLessThanOrEqualTo(BUFFER + 1000);
        assertThat(termId(rawTail)).isEqualTo((int) active);
        gate[0].open();
    }

    @Test
    void drainRecordSaysHowFarTheLogReached() throws IOException {
        start(UnaryOperator.identity());
        byte[] event = "drained\n".getBytes(StandardCharsets.US_ASCII);
        byte[] big = new byte[8000];
        java.util.Arrays.fill(big, (byte) 'b');
        big[big.length - 1] = '\n';
        for (int i = 0; i < 10; i++) {
            engine.append(big, true); // 80 KB: the first buffer fills, swaps, is drained and cleaned
        }
        engine.append(event, true);
        org.awaitility.Awaitility.await().atMost(java.time.Duration.ofSeconds(10))
                .until(() -> engine.statistics().eventsWritten() >= 8);
        try (Journal journal = JournalFiles.open(dir.resolve(".lockfreelog/f.log.journal"))) {
            Journal.DrainRecord record = journal.readDrainRecord();
            assertThat(record.termCount()).isEqualTo(1);
            assertThat(record.offset()).isZero();
            assertThat(record.logSize()).isEqualTo(Files.size(dir.resolve("f.log"))).isEqualTo(8 * 8000);
            // the drained buffer now holds the free slots of term 3, the next it hosts (which also pre-touched its pages)
            ByteBuffer j = journalBytes();
            for (int i = bufferOffset(0, BUFFER); i < bufferOffset(1, BUFFER); i += 8) {
                assertThat(j.getLong(i)).isEqualTo(emptyHeader(3));
            }
        }
    }

    @Test
    void tornDrainRecordSlotIsIgnored() throws IOException {
        Path file = dir.resolve("j");
        try (Journal journal = JournalFiles.create(file, 2, BUFFER)) {
            journal.writeDrainRecord(3, 128, 4096, 7);
            journal.writeDrainRecord(4, 256, 8192, 8);
            assertThat(journal.readDrainRecord()).isEqualTo(new Journal.DrainRecord(8, 4, 256, 8192));
            // a crash half way through writing slot 0 (seq 8): its check no longer matches
            journal.putIntPlain(DRAIN_RECORD_OFFSET + DRAIN_OFFSET_FIELD, 999);
            assertThat(journal.readDrainRecord()).isEqualTo(new Journal.DrainRecord(7, 3, 128, 4096));
        }
    }

    @Test
    void geometryChecksNameTheSettingAndTheAllowedValues() {
        assertThat(checkGeometry(1, 8 * 1024 * 1024)).isEqualTo("bufferCount=1 is not allowed: use 2 to 16");
        assertThat(checkGeometry(3, 100_000)).contains("bufferSize=100000").contains("multiple of the page size (4096 bytes)");
        assertThat(checkGeometry(3, 4096)).contains("64KB");
        assertThat(checkGeometry(3, 8 * 1024 * 1024)).isNull();
        assertThat(checkGeometry(16, 512L * 1024 * 1024)).contains("under 2GB");
    }

    private static String slice(ByteBuffer buffer, int at, int length) {
        byte[] bytes = new byte[length];
        buffer.get(at, bytes);
        return new String(bytes, StandardCharsets.US_ASCII);
    }
}
