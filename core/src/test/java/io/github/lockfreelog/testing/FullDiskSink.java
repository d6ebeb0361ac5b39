package io.github.lockfreelog.testing;

import io.github.lockfreelog.sink.ForwardingLogSink;
import io.github.lockfreelog.sink.LogSink;
import java.io.IOException;
import java.nio.ByteBuffer;

/** A sink that, while {@link #full} is set, writes part of what it is given and then fails like a full disk. */
public final class FullDiskSink extends ForwardingLogSink {

    public volatile boolean full = true;

    public FullDiskSink(LogSink delegate) {
        super(delegate);
    }

    @Override
    public int write(ByteBuffer src) throws IOException {
        if (full) {
            if (src.hasRemaining()) { // like a channel: some bytes go out, then the disk is full
                ByteBuffer half = src.duplicate();
                half.limit(half.position() + Math.max(1, half.remaining() / 2));
                int n = delegate.write(half);
                src.position(src.position() + n);
            }
            throw new IOException("No space left on device");
        }
        return delegate.write(src);
    }
}
