package io.github.lockfreelog.term;

import static io.github.lockfreelog.term.JournalDescriptor.*;

import io.github.lockfreelog.files.FileMapping;
import java.io.IOException;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.file.Path;

/**
 * The journal's memory in production: the file, mapped once by {@link JournalFiles} (through a
 * {@link FileMapping}: the foreign memory API on Java 22 and later) and kept mapped until
 * {@link #close()}. Shared words are read and written with {@code VarHandle}s over the mapping, so
 * ordered and atomic access needs no {@code sun.misc.Unsafe}; bytes are copied with absolute bulk
 * gets and puts.
 */
final class MappedJournal extends Journal {

    private static final VarHandle INT = MethodHandles.byteBufferViewVarHandle(int[].class, ByteOrder.LITTLE_ENDIAN);
    private static final VarHandle LONG = MethodHandles.byteBufferViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN);
    private static final VarHandle ARRAY_LONG = MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN);
    private static final int FILL_CHUNK = 64 * 1024;

    private final FileChannel channel;
    private final FileMapping mapping;
    private final ByteBuffer buffer;
    /** The free-slot pattern that {@link #fillEmpty} copies, made once: the drainer allocates nothing per refill. */
    private final byte[] fillPattern = new byte[FILL_CHUNK];
    /** Whether closing the journal closes its file (else the file's lock holder owns the channel). */
    private final boolean ownsChannel;
    private boolean closed;

    MappedJournal(Path path, int bufferCount, int bufferSize, FileChannel channel, FileMapping mapping,
            boolean ownsChannel) {
        super(path, bufferCount, bufferSize);
        this.channel = channel;
        this.mapping = mapping;
        this.buffer = mapping.buffer();
        this.ownsChannel = ownsChannel;
    }

    @Override
    public ByteBuffer duplicate() {
        return buffer.duplicate().order(ByteOrder.LITTLE_ENDIAN);
    }

    @Override
    public int getIntPlain(int offset) {
        return (int) INT.get(buffer, offset);
    }

    @Override
    public void putIntPlain(int offset, int value) {
        INT.set(buffer, offset, value);
    }

    @Override
    public void putIntRelease(int offset, int value) {
        INT.setRelease(buffer, offset, value);
    }

    @Override
    public int getIntVolatile(int offset) {
        return (int) INT.getVolatile(buffer, offset);
    }

    @Override
    public void putIntVolatile(int offset, int value) {
        INT.setVolatile(buffer, offset, value);
    }

    @Override
    public long getLongPlain(int offset) {
        return (long) LONG.get(buffer, offset);
    }

    @Override
    public void putLongPlain(int offset, long value) {
        LONG.set(buffer, offset, value);
    }

    @Override
    public void putLongRelease(int offset, long value) {
        LONG.setRelease(buffer, offset, value);
    }

    @Override
    public void putLongVolatile(int offset, long value) {
        LONG.setVolatile(buffer, offset, value);
    }

    @Override
    public long getLongVolatile(int offset) {
        return (long) LONG.getVolatile(buffer, offset);
    }

    @Override
    public long getLongAcquire(int offset) {
        return (long) LONG.getAcquire(buffer, offset);
    }

    @Override
    public boolean casLong(int offset, long expected, long value) {
        return LONG.compareAndSet(buffer, offset, expected, value);
    }

    @Override
    public long getAndAddLong(int offset, long delta) {
        return (long) LONG.getAndAdd(buffer, offset, delta);
    }

    @Override
    public void getBytes(int offset, byte[] dst, int dstOffset, int length) {
        buffer.get(offset, dst, dstOffset, length);
    }

    @Override
    public void getBytes(int offset, ByteBuffer dst, int dstIndex, int length) {
        dst.put(dstIndex, buffer, offset, length);
    }

    @Override
    public void putBytes(int offset, byte[] src, int srcOffset, int length) {
        buffer.put(offset, src, srcOffset, length);
    }

    @Override
    public void fillEmpty(int offset, int length, int termId) {
        final byte[] pattern = fillPattern; // the drainer's alone, and the creating thread's before it starts
        ARRAY_LONG.set(pattern, 0, emptyHeader(termId));
        for (int i = Long.BYTES; i < FILL_CHUNK; i += i) {
            System.arraycopy(pattern, 0, pattern, i, Math.min(i, FILL_CHUNK - i));
        }
        int end = offset + length;
        for (int at = offset; at < end; at += FILL_CHUNK) {
            buffer.put(at, pattern, 0, Math.min(FILL_CHUNK, end - at));
        }
        VarHandle.releaseFence();
    }

    @Override
    public void close() throws IOException {
        if (closed) {
            return;
        }
        closed = true;
        mapping.closeAndRelease(ownsChannel ? channel : null);
    }

    @Override
    public void closeAndEmpty() throws IOException {
        boolean wasClosed = closed;
        closed = true;
        if (!wasClosed) {
            mapping.release(); // before the truncation: a store past the file's end would fault
        }
        try {
            channel.truncate(0);
        } finally {
            if (ownsChannel) {
                channel.close();
            }
        }
    }
}
