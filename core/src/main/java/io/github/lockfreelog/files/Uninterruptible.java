package io.github.lockfreelog.files;

import java.io.IOException;
import java.nio.channels.ClosedByInterruptException;

/**
 * File work that an interrupt of the calling thread must not break. The JDK closes a channel for
 * good when the thread using it is interrupted ({@link ClosedByInterruptException}); the work is then
 * run again from its start (it opens its own channels), at most {@link #ATTEMPTS} times, with the
 * interrupt held back meanwhile and set again on return, so that it still reaches its owner.
 */
public final class Uninterruptible {

    /** Runs of one piece of work before an interrupt that keeps coming is let through. */
    public static final int ATTEMPTS = 3;

    /** Work on files that opens the channels it uses. */
    @FunctionalInterface
    public interface Work<T> {
        T run() throws IOException;
    }

    private Uninterruptible() {
    }

    /** Runs {@code work}, again when an interrupt closed a channel under it; see the class comment. */
    public static <T> T call(Work<T> work) throws IOException {
        boolean interrupted = Thread.interrupted();
        try {
            for (int attempt = 1;; attempt++) {
                try {
                    return work.run();
                } catch (ClosedByInterruptException e) {
                    interrupted |= Thread.interrupted();
                    if (attempt == ATTEMPTS) {
                        throw e;
                    }
                }
            }
        } finally {
            if (interrupted) {
                Thread.currentThread().interrupt();
            }
        }
    }
}
