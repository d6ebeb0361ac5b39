package io.github.lockfreelog.logback.encoding;

import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicReferenceArray;

/**
 * Lends the fast path's working memory to virtual threads: a fixed number of
 * {@link EncodingScratch}es, so that memory does not grow with the number of threads that
 * ever logged (each task of a virtual-thread executor is a new thread), and a new thread's first
 * event costs what a later one costs. A thread takes one with a compare-and-set and gives it back
 * with a release store; when all are lent, the event is encoded the ordinary way.
 */
final class ScratchPool {

    /**
     * Entries this many references apart: 128 bytes with compressed references, so that no two share a cache
     * line, nor a pair of lines that the processor's adjacent-line prefetch fetches together.
     */
    private static final int SPREAD = 32;

    private final AtomicReferenceArray<EncodingScratch> entries;
    private final int size;

    ScratchPool(int size) {
        this.size = size;
        this.entries = new AtomicReferenceArray<>(size * SPREAD);
        for (int i = 0; i < size; i++) {
            entries.set(i * SPREAD, new EncodingScratch(i * SPREAD));
        }
    }

    /** A pool for this machine: four entries per CPU, at least 16 (a virtual thread may park holding one). */
    static ScratchPool forThisMachine() {
        return new ScratchPool(Math.max(16, 4 * Runtime.getRuntime().availableProcessors()));
    }

    /** How many scratches the pool holds. */
    int size() {
        return size;
    }

    /** Takes a scratch, or returns {@code null} when every one is lent. */
    EncodingScratch take() {
        int start = ThreadLocalRandom.current().nextInt(size);
        for (int i = 0; i < size; i++) {
            int at = ((start + i) % size) * SPREAD;
            EncodingScratch s = entries.get(at);
            if (s != null && entries.compareAndSet(at, s, null)) {
                return s;
            }
        }
        return null;
    }

    /** Gives back {@code s}, taken from this pool. */
    void give(EncodingScratch s) {
        entries.setRelease(s.home, s);
    }
}
