package io.github.lockfreelog.autoconfigure.actuate;

import io.github.lockfreelog.sink.ForwardingLogSink;
import io.github.lockfreelog.sink.LogSink;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.concurrent.atomic.AtomicBoolean;

/** A log sink whose writes fail, as on a full disk, while {@code failing} is set; otherwise it writes through. */
final class FailingSink extends ForwardingLogSink {

    static final String MESSAGE = "disk full (test)";

    private final AtomicBoolean failing;

    FailingSink(LogSink delegate, AtomicBoolean failing) {
        super(delegate);
        this.failing = failing;
    }

    @Override
    public int write(ByteBuffer src) throws IOException {
        if (failing.get()) {
            throw new IOException(MESSAGE);
        }
        return super.write(src);
    }
}
