package io.github.lockfreelog.journal;

import static io.github.lockfreelog.journal.JournalDescriptor.*;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.LocalDateTime;
import java.time.format.DateTimeFormatter;

/**
 * Appends to the log file, exactly once, the committed events that a previous process left in
 * its journal when it died.
 *
 * <p>The newest intact drain record says up to which term and offset the log file had been
 * written, and how long the log file was then. If the log file is now longer than that, the
 * process died after a write and before recording it: the extra bytes are exactly the first
 * payload bytes after the recorded position, so that many bytes are skipped. If it is shorter,
 * an outside tool truncated it, and everything after the recorded position is appended.
 *
 * <p>Frames are read from the recorded position onwards, term after term while a buffer's tail
 * still carries the expected term id. A committed data frame is recovered; padding is skipped; a
 * frame whose writer died mid-copy (negative length) is skipped and counted; a reservation whose
 * header was never written (zero) is skipped by re-synchronising, 8 bytes at a time, on the next
 * plausible committed header, and counted.
 */
final class Recovery {

    record Result(long recoveredFrames, long recoveredBytes, long skippedFrames) {
        static final Result NONE = new Result(0, 0, 0);
    }

    private Recovery() {
    }

    static Result recover(Path journalFile, LogSink sink, StatusReporter status) throws IOException {
        if (!Files.exists(journalFile) || Files.size(journalFile) == 0) {
            return Result.NONE;
        }
        Journal journal;
        try {
            journal = Journal.open(journalFile);
        } catch (JournalFormatException e) {
            Path aside = moveAside(journalFile);
            status.warn(e.getMessage() + "; moved it to " + aside + " and started a fresh journal", null);
            return Result.NONE;
        }
        try {
            Journal.DrainRecord record = journal.readDrainRecord();
            if (record == null) {
                journal.close();
                Path aside = moveAside(journalFile);
                status.warn("journal " + journalFile + " has no intact drain record; moved it to " + aside
                        + " and started a fresh journal", null);
                return Result.NONE;
            }
            Result result;
            try {
                result = new Replay(journal, sink, record).run();
            } catch (RuntimeException e) {
                journal.close();
                Path aside = moveAside(journalFile);
                status.warn("journal " + journalFile + " could not be read to its end (" + e
                        + "); moved it to " + aside + " and started a fresh journal", e);
                return Result.NONE;
            }
            if (result.recoveredFrames() > 0 || result.skippedFrames() > 0) {
                status.info("recovered " + result.recoveredFrames() + " events (" + result.recoveredBytes()
                        + " bytes) from journal " + journalFile + " into the log file; skipped "
                        + result.skippedFrames() + " unfinished or damaged frames");
            }
            return result;
        } finally {
            journal.close();
        }
    }

    /**
     * Re-synchronises after a gap or a damaged header: the offset (relative to {@code base}) of the
     * next 8-byte slot at or after {@code offset} that holds a plausible committed header, or
     * {@code limit} if none does.
     */
    static int nextPlausibleFrame(Journal journal, int base, int offset, int limit) {
        for (; offset < limit; offset += FRAME_ALIGNMENT) {
            int length = journal.getIntAcquire(base + offset + FRAME_LENGTH_OFFSET);
            int type = journal.getIntPlain(base + offset + FRAME_TYPE_OFFSET);
            if (length >= HEADER_LENGTH && isValidType(type) && length <= limit - offset
                    && align(length) <= limit - offset) {
                return offset;
            }
        }
        return limit;
    }

    static Path moveAside(Path journalFile) throws IOException {
        String stamp = LocalDateTime.now().format(DateTimeFormatter.ofPattern("yyyyMMdd-HHmmss-SSS"));
        Path aside = journalFile.resolveSibling(journalFile.getFileName() + ".bad-" + stamp);
        return Files.move(journalFile, aside, StandardCopyOption.ATOMIC_MOVE);
    }

    /** One pass over the journal's undrained frames. */
    private static final class Replay {
        private final Journal journal;
        private final LogSink sink;
        private final Journal.DrainRecord record;
        private final ByteBuffer view;
        private final int bufferCount;
        private final int bufferSize;
        private long skipBytes;
        private long recovered;
        private long recoveredBytes;
        private long skipped;

        Replay(Journal journal, LogSink sink, Journal.DrainRecord record) {
            this.journal = journal;
            this.sink = sink;
            this.record = record;
            this.view = journal.duplicate();
            this.bufferCount = journal.bufferCount();
            this.bufferSize = journal.bufferSize();
        }

        Result run() throws IOException {
            long logSize = sink.size();
            skipBytes = logSize > record.logSize() ? logSize - record.logSize() : 0;
            long term = record.termCount();
            long offset = record.offset();
            for (int seen = 0; seen < bufferCount; seen++, term++, offset = 0) {
                int index = (int) (term % bufferCount);
                long rawTail = journal.rawTailVolatile(index);
                if (termId(rawTail) != (int) term) {
                    break;
                }
                replayTerm(journal.bufferBase(index), (int) offset, (int) Math.min(tailOffset(rawTail), bufferSize));
            }
            return new Result(recovered, recoveredBytes, skipped);
        }

        private void replayTerm(int base, int offset, int limit) throws IOException {
            while (offset < limit) {
                int at = base + offset;
                int length = journal.getIntAcquire(at + FRAME_LENGTH_OFFSET);
                int type = journal.getIntPlain(at + FRAME_TYPE_OFFSET);
                if (length >= HEADER_LENGTH && isValidType(type) && length <= limit - offset
                        && align(length) <= limit - offset) {
                    if (type == TYPE_DATA) {
                        emit(at + HEADER_LENGTH, length - HEADER_LENGTH);
                    }
                    offset += align(length);
                } else if (length < 0 && length != Integer.MIN_VALUE && -length >= HEADER_LENGTH
                        && -length <= limit - offset && align(-length) <= limit - offset) {
                    skipped++; // the writer died while copying
                    offset += align(-length);
                } else {
                    skipped++; // header never written, or damaged: find the next committed frame
                    offset = nextPlausibleFrame(journal, base, offset + FRAME_ALIGNMENT, limit);
                }
            }
        }

        private void emit(int at, int length) throws IOException {
            int start = at;
            int left = length;
            if (skipBytes > 0) {
                int skip = (int) Math.min(skipBytes, left);
                skipBytes -= skip;
                start += skip;
                left -= skip;
            }
            if (left == 0) {
                return; // this frame had reached the log file before the process died
            }
            recovered++;
            recoveredBytes += left;
            view.limit(start + left).position(start);
            while (view.hasRemaining()) {
                sink.write(new ByteBuffer[] {view}, 0, 1);
            }
        }
    }
}
