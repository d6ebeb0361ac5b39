package io.github.lockfreelog.logback;

import io.github.lockfreelog.journal.LogSink;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/** A log sink whose writes wait until the test opens the gate: a deliberately slowed drainer. */
final class GatedSink implements LogSink {

    private final LogSink delegate;
    private final CountDownLatch gate = new CountDownLatch(1);
    final CountDownLatch firstWriteArrived = new CountDownLatch(1);

    GatedSink(LogSink delegate) {
        this.delegate = delegate;
    }

    void open() {
        gate.countDown();
    }

    @Override
    public long write(ByteBuffer[] srcs, int offset, int length) throws IOException {
        firstWriteArrived.countDown();
        try {
            if (!gate.await(60, TimeUnit.SECONDS)) {
                throw new IOException("gate never opened");
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException(e);
        }
        return delegate.write(srcs, offset, length);
    }

    @Override
    public long size() throws IOException {
        return delegate.size();
    }

    @Override
    public void close() throws IOException {
        delegate.close();
    }
}
