package io.github.lockfreelog.files;

import java.io.IOException;
import java.lang.reflect.Field;
import java.lang.reflect.Method;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;

/** Releases a mapping now rather than when the garbage collector gets to it. */
public final class Unmapper {
    private static final Object UNSAFE;
    private static final Method INVOKE_CLEANER;

    static {
        Object unsafe = null;
        Method invokeCleaner = null;
        try {
            Class<?> type = Class.forName("sun.misc.Unsafe");
            Field field = type.getDeclaredField("theUnsafe");
            field.setAccessible(true);
            unsafe = field.get(null);
            invokeCleaner = type.getMethod("invokeCleaner", ByteBuffer.class);
        } catch (ReflectiveOperationException | RuntimeException e) {
            // left to the garbage collector where jdk.unsupported is absent
        }
        UNSAFE = unsafe;
        INVOKE_CLEANER = invokeCleaner;
    }

    private Unmapper() {
    }

    /** Closes {@code channel} (if not {@code null}), then unmaps {@code mapping}, even when the close fails. */
    public static void closeAndUnmap(FileChannel channel, ByteBuffer mapping) throws IOException {
        try {
            if (channel != null) {
                channel.close();
            }
        } finally {
            unmap(mapping);
        }
    }

    public static boolean unmap(ByteBuffer buffer) {
        if (INVOKE_CLEANER == null) {
            return false;
        }
        try {
            INVOKE_CLEANER.invoke(UNSAFE, buffer);
            return true;
        } catch (ReflectiveOperationException | RuntimeException e) {
            return false;
        }
    }
}
