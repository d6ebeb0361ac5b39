package io.github.lockfreelog.testing;

import io.github.lockfreelog.sink.ForwardingLogSink;
import io.github.lockfreelog.sink.LogSink;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/** A log sink whose writes wait until the test opens the gate: a deliberately slowed drainer. */
public final class GatedSink extends ForwardingLogSink {

    private final CountDownLatch gate = new CountDownLatch(1);
    public final CountDownLatch firstWriteArrived = new CountDownLatch(1);

    public GatedSink(LogSink delegate) {
        super(delegate);
    }

    public void open() {
        gate.countDown();
    }

    @Override
    public int write(ByteBuffer src) throws IOException {
        firstWriteArrived.countDown();
        try {
            if (!gate.await(60, TimeUnit.SECONDS)) {
                throw new IOException("gate never opened");
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException(e);
        }
        return super.write(src);
    }
}
