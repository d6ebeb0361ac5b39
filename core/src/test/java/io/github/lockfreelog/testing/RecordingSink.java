package io.github.lockfreelog.testing;

import io.github.lockfreelog.sink.LogSink;
import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;

/** A log sink that keeps in memory every byte written to it, in order: the model check's log file. */
public final class RecordingSink implements LogSink {
    private final ByteArrayOutputStream written = new ByteArrayOutputStream();

    @Override
    public int write(ByteBuffer src) {
        int n = src.remaining();
        byte[] bytes = new byte[n];
        src.get(bytes);
        written.write(bytes, 0, n);
        return n;
    }

    @Override
    public long size() {
        return written.size();
    }

    public byte[] bytes() {
        return written.toByteArray();
    }

    @Override
    public void close() {
    }
}
