package io.github.lockfreelog.files;

import java.io.IOException;
import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.lang.reflect.Field;
import java.lang.reflect.Method;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;

/**
 * Maps a file into memory, and releases the mapping when its owner says so rather than when the
 * garbage collector gets to it. On Java 22 and later the mapping belongs to a shared arena of the
 * foreign memory API ({@code FileChannel.map(mode, offset, size, Arena)}), and closing the arena
 * unmaps it: nothing of {@code sun.misc.Unsafe} is used, so Java 24 and later print no warning,
 * and an access after the release throws rather than faults. Before Java 22 the mapping is a
 * {@code MappedByteBuffer} released through {@code Unsafe.invokeCleaner}, or left to the garbage
 * collector where that is not available. The API is reached through method handles, so the
 * project builds and runs on Java 17.
 */
public final class FileMapping {

    /** The first Java release whose foreign memory API is final. */
    private static final int FOREIGN_MEMORY_RELEASE = 22;
    private static final Foreign FOREIGN = Foreign.find();
    private static final Cleaner CLEANER = FOREIGN == null ? Cleaner.find() : null;

    private final ByteBuffer buffer;
    /** The arena that owns the mapping ({@code java.lang.foreign.Arena}); {@code null} before Java 22. */
    private final AutoCloseable arena;
    private boolean released;

    private FileMapping(ByteBuffer buffer, AutoCloseable arena) {
        this.buffer = buffer;
        this.arena = arena;
    }

    /** Maps {@code size} bytes of {@code channel} from its start, for reading and writing. */
    public static FileMapping map(FileChannel channel, long size) throws IOException {
        if (FOREIGN != null) {
            return FOREIGN.map(channel, size);
        }
        return new FileMapping(channel.map(FileChannel.MapMode.READ_WRITE, 0, size), null);
    }

    /** Whether mappings are released through the foreign memory API (Java 22 and later). */
    public static boolean usesForeignMemory() {
        return FOREIGN != null;
    }

    /** The mapped bytes; valid until {@link #release()}. */
    public ByteBuffer buffer() {
        return buffer;
    }

    /**
     * Releases the mapping; the caller guarantees that no thread touches it any more. Returns
     * whether it is released now (else the garbage collector releases it). Only the first call
     * does anything.
     */
    public boolean release() {
        if (released) {
            return true;
        }
        released = true;
        if (arena != null) {
            try {
                arena.close();
                return true;
            } catch (Exception e) {
                return false; // a thread still inside an access: the memory stays mapped until exit
            }
        }
        return CLEANER != null && CLEANER.clean(buffer);
    }

    /** Closes {@code channel} (if not {@code null}), then releases the mapping, even when the close fails. */
    public void closeAndRelease(FileChannel channel) throws IOException {
        try {
            if (channel != null) {
                channel.close();
            }
        } finally {
            release();
        }
    }

    /** The foreign memory API, where the running Java has it final. */
    private static final class Foreign {
        private final MethodHandle ofShared;
        private final MethodHandle map;
        private final MethodHandle asByteBuffer;

        private Foreign(MethodHandle ofShared, MethodHandle map, MethodHandle asByteBuffer) {
            this.ofShared = ofShared;
            this.map = map;
            this.asByteBuffer = asByteBuffer;
        }

        static Foreign find() {
            if (Runtime.version().feature() < FOREIGN_MEMORY_RELEASE) {
                return null;
            }
            try {
                MethodHandles.Lookup lookup = MethodHandles.publicLookup();
                Class<?> arena = Class.forName("java.lang.foreign.Arena");
                Class<?> segment = Class.forName("java.lang.foreign.MemorySegment");
                return new Foreign(lookup.findStatic(arena, "ofShared", MethodType.methodType(arena)),
                        lookup.findVirtual(FileChannel.class, "map", MethodType.methodType(segment,
                                FileChannel.MapMode.class, long.class, long.class, arena)),
                        lookup.findVirtual(segment, "asByteBuffer", MethodType.methodType(ByteBuffer.class)));
            } catch (ReflectiveOperationException | RuntimeException e) {
                return null;
            }
        }

        FileMapping map(FileChannel channel, long size) throws IOException {
            AutoCloseable arena;
            try {
                arena = (AutoCloseable) ofShared.invoke();
            } catch (Throwable e) {
                throw new IOException("cannot make an arena to map the file in", e);
            }
            try {
                Object segment = map.invoke(channel, FileChannel.MapMode.READ_WRITE, 0L, size, arena);
                return new FileMapping((ByteBuffer) asByteBuffer.invoke(segment), arena);
            } catch (IOException | RuntimeException | Error e) {
                closeQuietly(arena);
                throw e;
            } catch (Throwable e) {
                closeQuietly(arena);
                throw new IOException("cannot map the file", e);
            }
        }

        private static void closeQuietly(AutoCloseable arena) {
            try {
                arena.close();
            } catch (Exception ignored) {
                // nothing was mapped in it
            }
        }
    }

    /** {@code sun.misc.Unsafe.invokeCleaner}, before Java 22. */
    private static final class Cleaner {
        private final Object unsafe;
        private final Method invokeCleaner;

        private Cleaner(Object unsafe, Method invokeCleaner) {
            this.unsafe = unsafe;
            this.invokeCleaner = invokeCleaner;
        }

        static Cleaner find() {
            try {
                Class<?> type = Class.forName("sun.misc.Unsafe");
                Field field = type.getDeclaredField("theUnsafe");
                field.setAccessible(true);
                return new Cleaner(field.get(null), type.getMethod("invokeCleaner", ByteBuffer.class));
            } catch (ReflectiveOperationException | RuntimeException e) {
                return null; // left to the garbage collector where jdk.unsupported is absent
            }
        }

        boolean clean(ByteBuffer buffer) {
            try {
                invokeCleaner.invoke(unsafe, buffer);
                return true;
            } catch (ReflectiveOperationException | RuntimeException e) {
                return false;
            }
        }
    }
}
