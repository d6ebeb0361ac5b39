package io.github.lockfreelog.journal;

import java.io.IOException;
import java.nio.ByteBuffer;

/** Where drained bytes go: the log file. Only the drainer thread calls it. */
public interface LogSink extends AutoCloseable {

    /** Writes some of the bytes of {@code srcs[offset..offset+length)}, like a gathering channel write. */
    long write(ByteBuffer[] srcs, int offset, int length) throws IOException;

    /** Current size of the log file in bytes. */
    long size() throws IOException;

    @Override
    void close() throws IOException;
}
