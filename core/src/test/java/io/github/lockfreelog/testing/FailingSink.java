package io.github.lockfreelog.testing;

import io.github.lockfreelog.sink.ForwardingLogSink;
import io.github.lockfreelog.sink.LogSink;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * A log sink whose writes fail like those to a full disk while {@code failing} is set; otherwise
 * it writes through. With {@code writesPart}, a failing write first writes part of what it was
 * given, as a channel does before the disk fills up.
 */
public final class FailingSink extends ForwardingLogSink {

    /** The message of the failure, as a full disk gives it. */
    public static final String MESSAGE = "No space left on device";

    private final AtomicBoolean failing;
    private final boolean writesPart;

    public FailingSink(LogSink delegate, AtomicBoolean failing, boolean writesPart) {
        super(delegate);
        this.failing = failing;
        this.writesPart = writesPart;
    }

    /** A sink that fails, writing part of each write first, until {@link #stopFailing}. */
    public static FailingSink fullDisk(LogSink delegate) {
        return new FailingSink(delegate, new AtomicBoolean(true), true);
    }

    /** Lets writes through from now on. */
    public void stopFailing() {
        failing.set(false);
    }

    @Override
    public int write(ByteBuffer src) throws IOException {
        if (failing.get()) {
            if (writesPart && src.hasRemaining()) {
                ByteBuffer half = src.duplicate();
                half.limit(half.position() + Math.max(1, half.remaining() / 2));
                int n = delegate.write(half);
                src.position(src.position() + n);
            }
            throw new IOException(MESSAGE);
        }
        return delegate.write(src);
    }
}
