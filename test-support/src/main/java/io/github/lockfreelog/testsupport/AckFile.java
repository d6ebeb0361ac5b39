package io.github.lockfreelog.testsupport;

import java.io.IOException;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.MappedByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/**
 * A memory-mapped file in which a child JVM's threads say which events their {@code doAppend} had returned for,
 * so that the test can read it after a {@code kill -9} or a halt at a crash point (the page cache outlives the
 * process). Each thread has a slot of its own, a cache line apart; a slot holds the number of events acknowledged,
 * so that a slot never written reads as "none". (A slot that held the last event's number, with -1 written as
 * "none" after mapping, read as "event 0 acknowledged" when the child halted between the mapping, which fills the
 * file with zeros, and that write: a halt on the drainer's thread can come at any moment of a start.)
 */
public final class AckFile {

    public static final int SLOT = 128;
    private static final VarHandle LONG = MethodHandles.byteBufferViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN);

    private final MappedByteBuffer slots;

    private AckFile(MappedByteBuffer slots) {
        this.slots = slots;
    }

    /** Creates (or opens) the file with a slot for each of {@code threads} threads, each reading "none". */
    public static AckFile create(Path path, int threads) throws IOException {
        try (FileChannel channel = FileChannel.open(path, StandardOpenOption.CREATE, StandardOpenOption.READ,
                StandardOpenOption.WRITE)) {
            return new AckFile(channel.map(FileChannel.MapMode.READ_WRITE, 0, (long) threads * SLOT));
        }
    }

    /** Says that {@code thread}'s events 0 to {@code event} were acknowledged (a volatile store). */
    public void acknowledge(int thread, long event) {
        LONG.setVolatile(slots, thread * SLOT, event + 1);
    }

    /** The last event {@code thread} acknowledged, or -1 for none. */
    public long acknowledged(int thread) {
        return (long) LONG.getVolatile(slots, thread * SLOT) - 1;
    }

    /**
     * The last event each of {@code threads} threads acknowledged, -1 for none (also when the file, or its slot, is
     * missing: the child stopped before it made it).
     */
    public static long[] read(Path path, int threads) throws IOException {
        byte[] content;
        try {
            content = Files.readAllBytes(path);
        } catch (NoSuchFileException e) {
            content = new byte[0];
        }
        ByteBuffer bytes = ByteBuffer.wrap(content).order(ByteOrder.LITTLE_ENDIAN);
        long[] acks = new long[threads];
        for (int t = 0; t < threads; t++) {
            acks[t] = bytes.capacity() >= (t + 1) * SLOT ? bytes.getLong(t * SLOT) - 1 : -1;
        }
        return acks;
    }
}
