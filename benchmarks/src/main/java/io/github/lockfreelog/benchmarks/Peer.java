package io.github.lockfreelog.benchmarks;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.List;

/**
 * The appenders measured side by side. Each runs in its own JMH fork, so only one logging
 * framework is ever configured in a JVM. {@link #id()} is the value of the benchmark's
 * {@code peer} parameter and the label in tables and charts.
 */
public enum Peer {

    LOCKFREELOG("lockfreelog", Framework.LOGBACK,
            "lockfreelog LockFreeFileAppender, 8 MB buffers, backpressure BLOCK"),
    ENCODE_ONLY("encode-only", Framework.LOGBACK,
            "Logback PatternLayoutEncoder whose bytes are discarded (the ceiling; writes no file)"),
    LOGBACK_FILE_FLUSH("logback-file-flush", Framework.LOGBACK,
            "Logback FileAppender, immediateFlush=true (Logback's default)"),
    LOGBACK_FILE("logback-file", Framework.LOGBACK,
            "Logback FileAppender, immediateFlush=false"),
    LOGBACK_ASYNC("logback-async", Framework.LOGBACK,
            "Logback AsyncAppender (defaults: queueSize 256, discards <=INFO when 80% full) over FileAppender(immediateFlush=false)"),
    LOGSTASH_DISRUPTOR("logstash-disruptor", Framework.LOGBACK,
            "logstash-logback-encoder LoggingEventAsyncDisruptorAppender (defaults: ring 8192, appendTimeout 0 = drop when full) over FileAppender(immediateFlush=false)"),
    LOG4J2_FILE("log4j2-file", Framework.LOG4J2,
            "Log4j2 File appender, immediateFlush=false"),
    LOG4J2_RAF("log4j2-raf", Framework.LOG4J2,
            "Log4j2 RandomAccessFile appender, immediateFlush=false"),
    LOG4J2_MMAP("log4j2-mmap", Framework.LOG4J2,
            "Log4j2 MemoryMappedFile appender (defaults: 32 MB regions)"),
    LOG4J2_ASYNC("log4j2-async", Framework.LOG4J2,
            "Log4j2 async loggers (AsyncLoggerContextSelector, Disruptor 3.4.4) over RandomAccessFile(immediateFlush=false)");

    /** Which framework a peer configures in its fork. */
    public enum Framework {
        LOGBACK, LOG4J2
    }

    private final String id;
    private final Framework framework;
    private final String description;

    Peer(String id, Framework framework, String description) {
        this.id = id;
        this.framework = framework;
        this.description = description;
    }

    public String id() {
        return id;
    }

    public Framework framework() {
        return framework;
    }

    public String description() {
        return description;
    }

    /** Whether the peer writes a log file whose lines can be counted. */
    public boolean writesFile() {
        return this != ENCODE_ONLY;
    }

    public static Peer of(String id) {
        for (Peer peer : values()) {
            if (peer.id.equals(id)) {
                return peer;
            }
        }
        throw new IllegalArgumentException("unknown peer=" + id + ", known=" + ids());
    }

    public static List<String> ids() {
        return Arrays.stream(values()).map(Peer::id).toList();
    }

    /**
     * The peers named in {@code ids}, in the order of this enum, the encode-only reference last (it is
     * a yardstick, not one of them), unknown ids after them.
     */
    public static List<String> order(Collection<String> ids) {
        List<String> ordered = new ArrayList<>();
        for (Peer peer : values()) {
            if (peer != ENCODE_ONLY && ids.contains(peer.id)) {
                ordered.add(peer.id);
            }
        }
        if (ids.contains(ENCODE_ONLY.id)) {
            ordered.add(ENCODE_ONLY.id);
        }
        ids.stream().filter(id -> !ordered.contains(id)).distinct().forEach(ordered::add);
        return ordered;
    }
}
