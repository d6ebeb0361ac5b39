package io.github.lockfreelog.sink;

import java.io.IOException;
import java.nio.ByteBuffer;

/**
 * A sink that passes every call to another one; decorators given to
 * {@code LockFreeFileAppender.setSinkDecorator} override only what they change.
 */
public class ForwardingLogSink implements LogSink {

    protected final LogSink delegate;

    public ForwardingLogSink(LogSink delegate) {
        this.delegate = delegate;
    }

    @Override
    public int write(ByteBuffer src) throws IOException {
        return delegate.write(src);
    }

    @Override
    public int landed(long from, long until, ByteBuffer expected) throws IOException {
        return delegate.landed(from, until, expected);
    }

    @Override
    public boolean follow() throws IOException {
        return delegate.follow();
    }

    @Override
    public boolean endsMidLine() throws IOException {
        return delegate.endsMidLine();
    }

    @Override
    public long size() throws IOException {
        return delegate.size();
    }

    @Override
    public boolean shouldRoll(long pendingBytes, int nextBytes) {
        return delegate.shouldRoll(pendingBytes, nextBytes);
    }

    @Override
    public void roll() throws IOException {
        delegate.roll();
    }

    @Override
    public void close() throws IOException {
        delegate.close();
    }

    @Override
    public void close(long timeoutNanos) throws IOException {
        delegate.close(timeoutNanos);
    }
}
