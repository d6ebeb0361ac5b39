package io.github.lockfreelog.engine;

import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;

/**
 * Tells whether the calling thread is a virtual thread (Java 21 and later; always {@code false}
 * before). Virtual threads share a few carrier threads: one that spins or yields while it waits
 * keeps a carrier, and the drainer, from the CPU, and memory kept per thread grows with every
 * virtual thread that ever logged, since each task gets a new one.
 */
public final class VirtualThreads {

    private static final MethodHandle IS_VIRTUAL = isVirtualHandle();

    private VirtualThreads() {
    }

    private static MethodHandle isVirtualHandle() {
        try {
            return MethodHandles.publicLookup().findVirtual(Thread.class, "isVirtual", MethodType.methodType(boolean.class));
        } catch (ReflectiveOperationException | RuntimeException e) {
            return null; // before Java 21: there are no virtual threads
        }
    }

    /** Whether the calling thread is a virtual thread. */
    public static boolean isCurrent() {
        if (IS_VIRTUAL == null) {
            return false;
        }
        try {
            return (boolean) IS_VIRTUAL.invokeExact(Thread.currentThread());
        } catch (Throwable e) {
            return false;
        }
    }
}
