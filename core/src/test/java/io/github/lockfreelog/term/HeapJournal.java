package io.github.lockfreelog.term;

import static io.github.lockfreelog.term.JournalDescriptor.*;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.concurrent.atomic.AtomicLongArray;

/**
 * A journal on the heap, for the model checker: one {@link AtomicLongArray} element per 8 bytes,
 * so that every access the engine makes (header compare-and-sets, tail reads, payload copies,
 * refills) is an access to a Java object that Lincheck sees and may switch threads at. Accesses
 * through a view {@code VarHandle} on a mapped buffer are invisible to it.
 *
 * <p>Each access keeps its ordering: plain as plain, acquire as acquire, and so on. Bytes are
 * little-endian within a word, as in the mapped journal. An int or a byte copy that covers part of
 * a word rewrites the word with the other bytes as they were; the engine only does that to words
 * no other thread writes at the same time (metadata, or the tail of the writer's own frame).
 *
 * <p>Not final: the model-checking test breaks it on purpose to show that the check can fail.
 */
public class HeapJournal extends Journal {

    final AtomicLongArray words;

    public HeapJournal(int bufferCount, int bufferSize) {
        super(null, bufferCount, bufferSize);
        words = new AtomicLongArray((int) (journalLength(bufferCount, bufferSize) / Long.BYTES));
    }

    /** A fresh journal of any geometry (the model check uses buffers far below the allowed minimum). */
    public static <J extends HeapJournal> J initialised(J journal) {
        journal.initialise();
        return journal;
    }

    private static int word(int offset) {
        return offset >>> 3;
    }

    private static int shift(int offset) {
        return (offset & 7) * 8;
    }

    @Override
    public ByteBuffer duplicate() {
        throw new UnsupportedOperationException("a heap journal has no mapping: keep events below the staging size");
    }

    @Override
    public int getIntPlain(int offset) {
        return (int) (words.getPlain(word(offset)) >>> shift(offset));
    }

    @Override
    public void putIntPlain(int offset, int value) {
        putInt(offset, value);
    }

    @Override
    public void putIntRelease(int offset, int value) {
        putInt(offset, value);
    }

    @Override
    public int getIntVolatile(int offset) {
        return (int) (words.get(word(offset)) >>> shift(offset));
    }

    @Override
    public void putIntVolatile(int offset, int value) {
        putInt(offset, value);
    }

    /** Replaces half a word, keeping the other half (volatile, which is at least as strong as asked). */
    private void putInt(int offset, int value) {
        int at = word(offset);
        long mask = 0xFFFF_FFFFL << shift(offset);
        long bits = (value & 0xFFFF_FFFFL) << shift(offset);
        for (;;) {
            long old = words.get(at);
            if (words.compareAndSet(at, old, (old & ~mask) | bits)) {
                return;
            }
        }
    }

    @Override
    public long getLongPlain(int offset) {
        return words.getPlain(word(offset));
    }

    @Override
    public void putLongPlain(int offset, long value) {
        words.setPlain(word(offset), value);
    }

    @Override
    public void putLongRelease(int offset, long value) {
        words.setRelease(word(offset), value);
    }

    @Override
    public void putLongVolatile(int offset, long value) {
        words.set(word(offset), value);
    }

    @Override
    public long getLongVolatile(int offset) {
        return words.get(word(offset));
    }

    @Override
    public long getLongAcquire(int offset) {
        return words.getAcquire(word(offset));
    }

    @Override
    public boolean casLong(int offset, long expected, long value) {
        return words.compareAndSet(word(offset), expected, value);
    }

    @Override
    public long getAndAddLong(int offset, long delta) {
        return words.getAndAdd(word(offset), delta);
    }

    /** Frames of at most this many bytes are reserved with a fetch-and-add (see {@link Journal#maxAddedFrame()}). */
    int maxAddedFrame = MAX_ADDED_FRAME;

    @Override
    public int maxAddedFrame() {
        return maxAddedFrame;
    }

    /**
     * One load per word, as a bulk copy does; the bytes are moved between a local word and the
     * array by the JDK, so that the checker sees the journal's words and nothing else.
     */
    @Override
    public void getBytes(int offset, byte[] dst, int dstOffset, int length) {
        ByteBuffer word = ByteBuffer.allocate(Long.BYTES).order(ByteOrder.LITTLE_ENDIAN);
        int end = offset + length;
        for (int at = offset & ~7; at < end; at += Long.BYTES) {
            int from = Math.max(at, offset);
            int to = Math.min(at + Long.BYTES, end);
            word.putLong(0, words.getPlain(word(at)));
            word.get(from - at, dst, dstOffset + from - offset, to - from);
        }
    }

    @Override
    public void getBytes(int offset, ByteBuffer dst, int dstIndex, int length) {
        byte[] bytes = new byte[length];
        getBytes(offset, bytes, 0, length);
        dst.put(dstIndex, bytes);
    }

    /** One store per word; a word the copy covers in part keeps its other bytes. */
    @Override
    public void putBytes(int offset, byte[] src, int srcOffset, int length) {
        ByteBuffer word = ByteBuffer.allocate(Long.BYTES).order(ByteOrder.LITTLE_ENDIAN);
        int end = offset + length;
        for (int at = offset & ~7; at < end; at += Long.BYTES) {
            int from = Math.max(at, offset);
            int to = Math.min(at + Long.BYTES, end);
            if (to - from < Long.BYTES) {
                word.putLong(0, words.getPlain(word(at)));
            }
            word.put(from - at, src, srcOffset + from - offset, to - from);
            words.setPlain(word(at), word.getLong(0));
        }
    }

    @Override
    public void fillEmpty(int offset, int length, int termId) {
        for (int at = offset; at < offset + length; at += FRAME_ALIGNMENT) {
            words.setPlain(word(at), emptyHeader(termId));
        }
    }

    @Override
    public void close() {
        // nothing to release
    }

    @Override
    public void closeAndEmpty() {
        // nothing on disk
    }
}
