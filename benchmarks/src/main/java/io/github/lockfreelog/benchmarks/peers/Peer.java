package io.github.lockfreelog.benchmarks.peers;

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
    /** Logback's front end alone: the floor under every Logback peer in the cost mode. */
    LOGBACK_NOP("logback-nop", Framework.LOGBACK,
            "Logback with an appender whose append does nothing (the front end alone; writes no file; cost mode only)",
            Use.COST),
    /** lockfreelog with buffers so small that callers wait for the drainer: the virtual mode's waits. */
    LOCKFREELOG_2X64K("lockfreelog-2x64k", Framework.LOGBACK,
            "lockfreelog LockFreeFileAppender, 2 buffers of 64 KB, backpressure BLOCK (virtual mode only)", Use.VIRTUAL),
    /**
     * The rolling pair, run only when named: rolling as Spring Boot sets it up (daily and by size, gzip),
     * with a size limit no run reaches, so that what they measure is the cost of watching for a roll.
     */
    LOCKFREELOG_ROLLING("lockfreelog-rolling", Framework.LOGBACK,
            "lockfreelog LockFreeFileAppender as lockfreelog, rolling as the starter sets it up (fileNamePattern"
                    + " %d{yyyy-MM-dd}.%i.gz, maxHistory 7) with maxFileSize 100 GB: no roll in a run (only when named)",
            Use.NAMED),
    LOGBACK_ROLLING("logback-rolling", Framework.LOGBACK,
            "Logback RollingFileAppender, immediateFlush=false, SizeAndTimeBasedRollingPolicy as Spring Boot sets it up"
                    + " (%d{yyyy-MM-dd}.%i.gz, maxHistory 7) with maxFileSize 100 GB: no roll in a run (only when named)",
            Use.NAMED),
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
            "Log4j2 async loggers (AsyncLoggerContextSelector, Disruptor 3.4.4) over RandomAccessFile(immediateFlush=false)"),

    // The console set: each writes a pipe (ConsolePipe), as a container's standard output is one, and
    // the lines counted are those the pipe's reader received. Run by the console mode, or named with --peers.
    LOCKFREELOG_CONSOLE("lockfreelog-console", Framework.LOGBACK,
            "lockfreelog LockFreeConsoleAppender writing the pipe's descriptor (setStream), 8 MB buffers, backpressure"
                    + " BLOCK, journal in the trial's folder (console set)", Use.CONSOLE),
    LOGBACK_CONSOLE("logback-console", Framework.LOGBACK,
            "Logback ConsoleAppender (immediateFlush=true, its default) on System.out, replaced by a JDK-style PrintStream"
                    + " over the pipe (console set)", Use.CONSOLE),
    LOGBACK_ASYNC_CONSOLE("logback-async-console", Framework.LOGBACK,
            "Logback AsyncAppender (defaults: queueSize 256, discards <=INFO when 80% full, neverBlock=false) over"
                    + " ConsoleAppender, as logback-console (console set)", Use.CONSOLE),
    LOG4J2_CONSOLE("log4j2-console", Framework.LOG4J2,
            "Log4j2 Console appender, target SYSTEM_OUT, follow=true (as Spring Boot's log4j2.xml), immediateFlush=true"
                    + " (its default), System.out replaced as for logback-console (console set)", Use.CONSOLE),
    LOG4J2_ASYNC_CONSOLE("log4j2-async-console", Framework.LOG4J2,
            "Log4j2 async loggers (AsyncLoggerContextSelector, Disruptor 3.4.4, ring buffer 256 Ki, blocks when full) over"
                    + " Console, as log4j2-console (console set)", Use.CONSOLE),

    // The OTLP set: each sends to the run's one OTLP/HTTP receiver (OtlpReceiver), and the lines counted are the records
    // it received. Run only when named with --peers (quick, cost, latency modes), beside any other peer.
    LOCKFREELOG_OTLP("lockfreelog-otlp", Framework.LOGBACK,
            "lockfreelog-otlp LockFreeOtlpAppender, defaults (8 MB x 3 buffers, backpressure BLOCK, body %m), journal in the"
                    + " trial's folder (OTLP set)", Use.OTLP),
    OTEL_LOGBACK("otel-logback", Framework.LOGBACK,
            "OpenTelemetry Logback appender 2.21.0-alpha over the OpenTelemetry SDK 1.55.0 (Spring Boot's): BatchLogRecordProcessor"
                    + " defaults (queue 2,048, dropped when full; batches of 512, every 1 s), OtlpHttpLogRecordExporter"
                    + " defaults (protobuf, OkHttp) (OTLP set)", Use.OTLP),
    OTEL_LOGBACK_LARGE_QUEUE("otel-logback-large-queue", Framework.LOGBACK,
            "otel-logback with a BatchLogRecordProcessor queue of 1,048,576 (512 x its default), else the same (OTLP set)",
            Use.OTLP),

    // Spring Boot's own appenders, as Boot's LogbackLoggingSystem configures them (BootLogging): boot-* workloads only.
    SPRING_BOOT_FILE("spring-boot-file", Framework.LOGBACK,
            "Spring Boot's FILE appender as Boot builds it: RollingFileAppender (immediateFlush=true, its default),"
                    + " SizeAndTimeBasedRollingPolicy (LOG_FILE.%d{yyyy-MM-dd}.%i.gz, maxHistory 7) with max-file-size"
                    + " 100GB: no roll in a run, threshold filter (boot-* workloads)", Use.BOOT_FILE),
    SPRING_BOOT_CONSOLE("spring-boot-console", Framework.LOGBACK,
            "Spring Boot's CONSOLE appender as Boot builds it: ConsoleAppender (System.out, immediateFlush=true),"
                    + " threshold filter, System.out replaced as for logback-console (boot-* workloads)", Use.BOOT_CONSOLE);

    /** System property of the forks: the run's OTLP receiver's base URL ({@code http://127.0.0.1:PORT}). */
    public static final String OTLP_RECEIVER_PROPERTY = "lockfreelog.bench.otlp";
    /** The kafka mode's lockfreelog peer (the kafka package's {@code KafkaPeer} has it): the lead of that mode's tables. */
    public static final String KAFKA_LEAD = "lockfreelog-kafka";
    /** The kafka mode's reference: the same engine writing a file, not a Kafka peer. */
    public static final String KAFKA_FILE_REFERENCE = "lockfreelog-file";

    /** Which framework a peer configures in its fork. */
    public enum Framework {
        LOGBACK, LOG4J2
    }

    /** Which modes run a peer when {@code --peers} does not name it: every mode, or one only. */
    enum Use {
        EVERY_MODE, COST, VIRTUAL,
        /** Run only when {@code --peers} names it. */
        NAMED,
        /** The console set: the console mode's peers, and no other mode's unless named. */
        CONSOLE,
        /** Spring Boot's own appenders: only in a {@code boot-*} workload, whose peers they are. */
        BOOT_FILE, BOOT_CONSOLE,
        /** The OTLP set: run only when {@code --peers} names them. */
        OTLP
    }

    private final String id;
    private final Framework framework;
    private final String description;
    private final Use use;

    Peer(String id, Framework framework, String description) {
        this(id, framework, description, Use.EVERY_MODE);
    }

    Peer(String id, Framework framework, String description, Use use) {
        this.id = id;
        this.framework = framework;
        this.description = description;
        this.use = use;
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

    /** Whether the peer writes a log whose lines can be counted: a file, or for the console set a pipe. */
    public boolean writesFile() {
        return !isReference();
    }

    /** Whether the peer writes a pipe ({@link ConsolePipe}) instead of a file: the console set. */
    public boolean writesPipe() {
        return use == Use.CONSOLE || use == Use.BOOT_CONSOLE;
    }

    /** Whether the peer sends OTLP to the run's receiver (the {@code otlp} package's {@code OtlpSink}): the OTLP set. */
    public boolean sendsOtlp() {
        return use == Use.OTLP;
    }

    /**
     * The class of the {@link RunnerService} the peer needs in the runner's JVM (the OTLP set's receiver, named to
     * the forks by {@value #OTLP_RECEIVER_PROPERTY}), or null when it needs none.
     */
    public String runnerService() {
        return sendsOtlp() ? "io.github.lockfreelog.benchmarks.otlp.OtlpReceiver$Service" : null;
    }

    /** Whether the peer is one of Spring Boot's own appenders, which only a {@code boot-*} workload has. */
    public boolean isSpringBoot() {
        return use == Use.BOOT_FILE || use == Use.BOOT_CONSOLE;
    }

    /**
     * Why {@code workload} cannot run this peer, or null when it can: Spring Boot's appenders need a {@code boot-*}
     * workload; Log4j2 has no faithful form of Boot's Logback formats ({@code %clr}, {@code %esb},
     * {@code %applicationName}, {@code %correlationId}, {@code %wEx}, Boot's {@code StructuredLogEncoder}).
     */
    public String refusal(Workload.Kind workload) {
        if (isSpringBoot() && !workload.isBoot()) {
            return "peer=" + id + " is Spring Boot's own appender: it needs a boot-* workload (--workload "
                    + String.join("|", Workload.Kind.ids().subList(1, Workload.Kind.ids().size())) + ")";
        }
        if (framework == Framework.LOG4J2 && workload.isBoot()) {
            return "peer=" + id + " is a Log4j2 peer: workload=" + workload.id() + " is Spring Boot's Logback format,"
                    + " which Log4j2 has no faithful equivalent of; run it with --workload classic";
        }
        return null;
    }

    /** Whether {@code id} is lockfreelog's peer of its set: {@code lockfreelog}, or {@code lockfreelog-console}. */
    public static boolean isLockfreelog(String id) {
        return LOCKFREELOG.id.equals(id) || LOCKFREELOG_CONSOLE.id.equals(id) || LOCKFREELOG_OTLP.id.equals(id)
                || KAFKA_LEAD.equals(id);
    }

    /**
     * The lockfreelog peer that the others among {@code ids} are compared with: {@code lockfreelog}, else
     * {@code lockfreelog-console} (the console set), else {@code lockfreelog-otlp} (the OTLP set), else
     * {@code lockfreelog-kafka} (the kafka mode).
     */
    public static String lead(Collection<String> ids) {
        if (ids.contains(LOCKFREELOG.id)) {
            return LOCKFREELOG.id;
        }
        if (ids.contains(LOCKFREELOG_CONSOLE.id)) {
            return LOCKFREELOG_CONSOLE.id;
        }
        if (ids.contains(LOCKFREELOG_OTLP.id)) {
            return LOCKFREELOG_OTLP.id;
        }
        return ids.contains(KAFKA_LEAD) ? KAFKA_LEAD : LOCKFREELOG.id;
    }

    /** Whether the peer is a yardstick rather than a peer: it writes nothing (encode-only, logback-nop). */
    public boolean isReference() {
        return this == ENCODE_ONLY || this == LOGBACK_NOP;
    }

    /** Whether {@code id} names a reference ({@link #isReference()}); false for an unknown id. */
    public static boolean isReference(String id) {
        return Arrays.stream(values()).anyMatch(p -> p.id.equals(id) && p.isReference());
    }

    public static Peer of(String id) {
        for (Peer peer : values()) {
            if (peer.id.equals(id)) {
                return peer;
            }
        }
        throw new IllegalArgumentException("unknown peer=" + id + ", known=" + ids());
    }

    /** Every peer, those of one mode only included. */
    public static List<String> ids() {
        return Arrays.stream(values()).map(Peer::id).toList();
    }

    /**
     * The peers a mode runs when {@code --peers} names none: those of every mode, and the mode's own; the
     * console mode runs the console set alone.
     */
    public static List<String> defaultIds(String command) {
        return defaultIds(command, Workload.Kind.CLASSIC);
    }

    /**
     * The peers a mode runs for a workload when {@code --peers} names none. The classic workload: as
     * {@link #defaultIds(String)}. {@code boot-file}: Spring Boot's FILE, lockfreelog (set up as the starter
     * sets it up), Logback's plain file appender and the references; {@code boot-console}: Spring Boot's
     * CONSOLE, lockfreelog's console and the references; {@code boot-ecs}: both pairs and the references. The
     * cost mode adds {@code logback-nop} (Logback's front end alone, the floor of the caller's allocation too).
     */
    public static List<String> defaultIds(String command, Workload.Kind workload) {
        if (!workload.isBoot()) {
            Use own = switch (command) {
                case "cost" -> Use.COST;
                case "virtual" -> Use.VIRTUAL;
                case "console" -> Use.CONSOLE;
                default -> Use.EVERY_MODE;
            };
            return Arrays.stream(values()).filter(p -> p.use == own || (p.use == Use.EVERY_MODE && own != Use.CONSOLE))
                    .map(Peer::id).toList();
        }
        List<Peer> peers = new ArrayList<>();
        if (workload != Workload.Kind.BOOT_CONSOLE) {
            peers.addAll(List.of(SPRING_BOOT_FILE, LOCKFREELOG));
        }
        if (workload == Workload.Kind.BOOT_FILE) {
            peers.add(LOGBACK_FILE);
        }
        if (workload != Workload.Kind.BOOT_FILE) {
            peers.addAll(List.of(SPRING_BOOT_CONSOLE, LOCKFREELOG_CONSOLE));
        }
        peers.add(ENCODE_ONLY);
        if (command.equals("cost")) {
            peers.add(LOGBACK_NOP);
        }
        return order(peers.stream().map(Peer::id).toList());
    }

    /**
     * The peers named in {@code ids}, in the order of this enum, the references last (encode-only, then
     * logback-nop: yardsticks, not peers), unknown ids after them.
     */
    public static List<String> order(Collection<String> ids) {
        List<String> ordered = new ArrayList<>();
        for (Peer peer : values()) {
            if (!peer.isReference() && ids.contains(peer.id)) {
                ordered.add(peer.id);
            }
        }
        for (Peer reference : List.of(ENCODE_ONLY, LOGBACK_NOP)) {
            if (ids.contains(reference.id)) {
                ordered.add(reference.id);
            }
        }
        ids.stream().filter(id -> !ordered.contains(id)).distinct().forEach(ordered::add);
        return ordered;
    }
}
