package io.github.lockfreelog.autoconfigure.actuate;

import io.github.lockfreelog.diagnostics.AppenderStatistics;
import io.github.lockfreelog.diagnostics.DropReason;
import io.github.lockfreelog.diagnostics.ProcStat;
import io.github.lockfreelog.logback.LockFreeAppenderBase;
import io.github.lockfreelog.sink.LogTarget;
import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.FunctionTimer;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.TimeGauge;
import io.micrometer.core.instrument.binder.BaseUnits;
import io.micrometer.core.instrument.binder.MeterBinder;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;
import java.util.function.ToDoubleFunction;
import java.util.function.ToLongFunction;

/**
 * Micrometer meters carrying the same numbers as the {@code lockfreelog} endpoint, one set per
 * appender name (tag {@code appender}); drops are tagged by {@code reason}, page faults by
 * {@code type}. Page faults of the whole process are one pair of meters, whatever the number of
 * appenders.
 *
 * <p>Meters are bound for the appenders attached when the registry is bound, and for the
 * starter's own ({@link LockFreeLogAppenders#STARTER_APPENDER_NAME}) when the starter says it runs
 * one, attached then or not. Each meter looks its appender up by name when it is read, through
 * {@link LockFreeLogAppenders}, and holds no appender: a stopped and detached appender can be
 * collected, and one attached again, or replaced by another of the same name, is read from then on.
 * While no appender of that name is attached, gauges read {@code NaN}, and counters keep the last
 * value they read (0 if none), so they never go back: the starter keeps the same appender, with its
 * counters, across Logback resets. Counters start again from 0 only when another appender of that
 * name replaces it (or it is stopped and started again), which a monitoring system takes as a
 * counter reset.
 *
 * <p>An appender's meters share one snapshot of its statistics, taken again once older than
 * {@link #SNAPSHOT_MAX_AGE_NANOS} (a snapshot reads {@code /proc}), so the meters of one
 * publication agree with one another and look the appender up once.
 *
 * <p>Names are chosen so that Prometheus shows each with one unit suffix and one {@code _total}: a
 * counter of bytes is {@code lockfreelog.written} with base unit bytes, scraped as
 * {@code lockfreelog_written_bytes_total}.
 */
public class LockFreeLogMetrics implements MeterBinder {

    /** How long one statistics snapshot serves the meters of an appender: about one publication. */
    static final long SNAPSHOT_MAX_AGE_NANOS = TimeUnit.MILLISECONDS.toNanos(100);

    private final LockFreeLogAppenders appenders;

    /** Page faults of the process; the meters read it through this binder, which the context keeps alive. */
    private final Snapshot<long[]> processFaults = new Snapshot<>(ProcStat::processFaults);

    /** What the meters of each appender name read; held here, as the meters hold their state weakly. */
    private final Map<String, Reading> readings = new ConcurrentHashMap<>();

    public LockFreeLogMetrics(LockFreeLogAppenders appenders) {
        this.appenders = appenders;
    }

    @Override
    public void bindTo(MeterRegistry registry) {
        Map<String, String> targets = new TreeMap<>(); // appender name to its target, file or console
        for (LockFreeAppenderBase appender : appenders.all()) {
            if (appender.getName() != null) {
                targets.put(appender.getName(), appender.getStatistics().target());
            }
        }
        if (appenders.starterRunsAppender()) {
            targets.putIfAbsent(LockFreeLogAppenders.STARTER_APPENDER_NAME, LogTarget.FILE.id());
        }
        boolean procAvailable = processFaults.get() != null;
        targets.forEach((name, target) -> {
            Tags tags = Tags.of("appender", name, "target", target);
            Reading reading = readings.computeIfAbsent(name, n -> new Reading(appenders, n));
            bind(registry, tags, reading, procAvailable);
            if (LogTarget.KAFKA.id().equals(target)) {
                bindKafka(registry, tags, reading);
            } else if (LogTarget.OTLP.id().equals(target)) {
                bindOtlp(registry, tags, reading);
            }
        });
        bindProcessPageFaults(registry, procAvailable);
    }

    private static void bind(MeterRegistry registry, Tags tags, Reading reading, boolean procAvailable) {
        counter(registry, reading, tags, "lockfreelog.events.appended", null, "Events handed to the appender",
                AppenderStatistics::appended);
        counter(registry, reading, tags, "lockfreelog.events.written", null, "Events written to the log file",
                AppenderStatistics::eventsWritten);
        for (DropReason reason : DropReason.values()) {
            counter(registry, reading, tags.and("reason", reason.id()), "lockfreelog.events.dropped", null,
                    "Events dropped, by reason", s -> s.drops().getOrDefault(reason.id(), 0L));
        }
        counter(registry, reading, tags, "lockfreelog.events.truncated", null, "Events cut to the maximum event size",
                AppenderStatistics::truncated);
        gauge(registry, reading, tags, "lockfreelog.events.in.flight", null,
                "Events in the journal, not yet in the log file", AppenderStatistics::inFlight);
        counter(registry, reading, tags, "lockfreelog.written", BaseUnits.BYTES, "Bytes written to the log file",
                AppenderStatistics::bytesWritten);
        counter(registry, reading, tags, "lockfreelog.buffer.swaps", null, "Buffer swaps", AppenderStatistics::swaps);
        FunctionTimer.builder("lockfreelog.buffer.waits", reading, r -> (long) r.count(AppenderStatistics::waits),
                        r -> r.count(AppenderStatistics::waitTotalNanos), TimeUnit.NANOSECONDS)
                .tags(tags).description("Appends that waited for a drained buffer").register(registry);
        TimeGauge.builder("lockfreelog.buffer.wait.max", reading, TimeUnit.NANOSECONDS,
                        r -> r.gauge(AppenderStatistics::waitMaxNanos))
                .tags(tags).description("Longest wait for a drained buffer since start").register(registry);
        gauge(registry, reading, tags, "lockfreelog.buffer.active.fill", BaseUnits.BYTES,
                "Bytes reserved in the active buffer", AppenderStatistics::activeBufferFill);
        gauge(registry, reading, tags, "lockfreelog.buffer.size", BaseUnits.BYTES, "Bytes per buffer",
                AppenderStatistics::bufferSize);
        gauge(registry, reading, tags, "lockfreelog.buffers", null, "Buffers in the journal",
                AppenderStatistics::bufferCount);
        gauge(registry, reading, tags, "lockfreelog.drain.lag", BaseUnits.BYTES,
                "Bytes in the journal not yet in the log file", AppenderStatistics::drainLagBytes);
        counter(registry, reading, tags, "lockfreelog.drainer.errors", null, "Errors met by the background thread",
                AppenderStatistics::drainerErrors);
        counter(registry, reading, tags, "lockfreelog.frames.recovered", null,
                "Events recovered from the journal at start", AppenderStatistics::recoveredFrames);
        counter(registry, reading, tags, "lockfreelog.frames.skipped", null,
                "Damaged or unfinished frames skipped", AppenderStatistics::skippedFrames);
        gauge(registry, reading, tags, "lockfreelog.started", null,
                "1 while the appender runs, 0 while it is stopped, NaN while none of this name is attached",
                s -> s.started() ? 1 : 0);
        if (procAvailable) {
            String description = "Page faults of the appender's background thread since the appender started";
            counter(registry, reading, tags.and("type", "minor"), "lockfreelog.drainer.page.faults", null,
                    description, s -> s.pageFaults().drainerMinor());
            counter(registry, reading, tags.and("type", "major"), "lockfreelog.drainer.page.faults", null,
                    description, s -> s.pageFaults().drainerMajor());
        }
    }

    /**
     * What a Kafka appender's sink did ({@link KafkaDetails}): connected, the wait of the events it is delivering,
     * events delivered, transactions, events too large.
     */
    private static void bindKafka(MeterRegistry registry, Tags tags, Reading reading) {
        Gauge.builder("lockfreelog.kafka.connected", reading, r -> r.sinkGauge(KafkaDetails.CONNECTED)).tags(tags)
                .description("1 while the sink's latest exchange with the cluster succeeded, else 0; NaN while no Kafka"
                        + " appender of this name is attached")
                .register(registry);
        TimeGauge.builder("lockfreelog.kafka.oldest.undelivered", reading, TimeUnit.MILLISECONDS,
                r -> r.sinkGauge(KafkaDetails.OLDEST_UNDELIVERED_MILLIS)).tags(tags)
                .description("How long the events the sink is delivering have waited; 0 while it holds none")
                .register(registry);
        sinkCounter(registry, reading, tags, "lockfreelog.kafka.events.delivered", "Events committed to the topic",
                KafkaDetails.EVENTS_DELIVERED);
        sinkCounter(registry, reading, tags.and("outcome", "committed"), "lockfreelog.kafka.transactions",
                "Transactions of the Kafka sink, by outcome", KafkaDetails.TRANSACTIONS_COMMITTED);
        sinkCounter(registry, reading, tags.and("outcome", "aborted"), "lockfreelog.kafka.transactions",
                "Transactions of the Kafka sink, by outcome", KafkaDetails.TRANSACTIONS_ABORTED);
        sinkCounter(registry, reading, tags, "lockfreelog.kafka.events.too.large",
                "Events the broker refused as too large, left out", KafkaDetails.TOO_LARGE);
    }

    /**
     * What an OTLP appender's sink did ({@link OtlpDetails}): whether the collector answered, the oldest record's wait,
     * requests by outcome, records by outcome, bytes sent.
     */
    private static void bindOtlp(MeterRegistry registry, Tags tags, Reading reading) {
        Gauge.builder("lockfreelog.otlp.connected", reading, r -> r.sinkGauge(OtlpDetails.CONNECTED)).tags(tags)
                .description("1 while the collector answered the sink's latest request, else 0; NaN while no OTLP"
                        + " appender of this name is attached").register(registry);
        TimeGauge.builder("lockfreelog.otlp.oldest.unacknowledged", reading, TimeUnit.MILLISECONDS,
                r -> r.sinkGauge(OtlpDetails.OLDEST_UNACKNOWLEDGED_MILLIS)).tags(tags)
                .description("How long the oldest record the sink is sending has waited for its acknowledgement")
                .register(registry);
        sinkCounter(registry, reading, tags.and("outcome", "sent"), "lockfreelog.otlp.requests",
                "Requests of the OTLP sink, by outcome", OtlpDetails.REQUESTS_SENT);
        sinkCounter(registry, reading, tags.and("outcome", "retried"), "lockfreelog.otlp.requests",
                "Requests of the OTLP sink, by outcome", OtlpDetails.REQUESTS_RETRIED);
        sinkCounter(registry, reading, tags.and("outcome", "rejected"), "lockfreelog.otlp.requests",
                "Requests of the OTLP sink, by outcome", OtlpDetails.REQUESTS_REJECTED);
        sinkCounter(registry, reading, tags.and("outcome", "acknowledged"), "lockfreelog.otlp.records",
                "Records of the OTLP sink, by the collector's answer", OtlpDetails.RECORDS_ACKNOWLEDGED);
        sinkCounter(registry, reading, tags.and("outcome", "rejected"), "lockfreelog.otlp.records",
                "Records of the OTLP sink, by the collector's answer", OtlpDetails.RECORDS_REJECTED);
        sinkCounter(registry, reading, tags, "lockfreelog.otlp.bytes.sent", "Bytes of requests sent, as sent",
                OtlpDetails.BYTES_SENT);
    }

    private static void sinkCounter(MeterRegistry registry, Reading reading, Tags tags, String name,
            String description, String counter) {
        FunctionCounter.builder(name, reading, r -> r.sinkCount(counter)).tags(tags).description(description)
                .register(registry);
    }

    /** Page faults of the whole process since it started, once per registry (where {@code /proc} is present). */
    private void bindProcessPageFaults(MeterRegistry registry, boolean procAvailable) {
        if (!procAvailable) {
            return;
        }
        String description = "Page faults of the whole process since it started";
        FunctionCounter.builder("lockfreelog.process.page.faults", this, m -> count(m.processFaults.get(), 0))
                .tags("type", "minor").description(description).register(registry);
        FunctionCounter.builder("lockfreelog.process.page.faults", this, m -> count(m.processFaults.get(), 1))
                .tags("type", "major").description(description).register(registry);
    }

    private static double count(long[] minorAndMajor, int index) {
        return (minorAndMajor != null) ? minorAndMajor[index] : Double.NaN;
    }

    private static void counter(MeterRegistry registry, Reading reading, Tags tags, String name, String baseUnit,
            String description, ToLongFunction<AppenderStatistics> value) {
        FunctionCounter.builder(name, reading, r -> r.count(value))
                .tags(tags).baseUnit(baseUnit).description(description).register(registry);
    }

    private static void gauge(MeterRegistry registry, Reading reading, Tags tags, String name, String baseUnit,
            String description, ToDoubleFunction<AppenderStatistics> value) {
        Gauge.builder(name, reading, r -> r.gauge(value))
                .tags(tags).baseUnit(baseUnit).description(description).strongReference(true).register(registry);
    }

    /**
     * What the meters of one appender name read: the statistics of the appender of that name attached
     * now, looked up at most once per snapshot, and the last statistics read, for counters. Holds
     * statistics, never the appender.
     */
    static final class Reading {

        private final Snapshot<AppenderStatistics> current;

        /** The record sink's counters (Kafka's or OTLP's) of the appender of this name, or {@code null} (not attached, or neither). */
        private final Snapshot<Map<String, Object>> sink;

        /** The latest statistics read while an appender of this name was attached; {@code null} before. */
        private volatile AppenderStatistics last;

        /** The latest record sink values read; {@code null} before. */
        private volatile Map<String, Object> lastSink;

        Reading(LockFreeLogAppenders appenders, String name) {
            this.current = new Snapshot<>(() -> {
                LockFreeAppenderBase appender = appenders.get(name);
                return (appender != null) ? appender.getStatistics() : null;
            });
            this.sink = new Snapshot<>(() -> {
                LockFreeAppenderBase appender = appenders.get(name);
                Map<String, Object> kafka = KafkaDetails.of(appender);
                return (kafka != null) ? kafka : OtlpDetails.of(appender); // a record sink's own values
            });
        }

        /** A record sink's counter value, kept as {@link #count} keeps others while no such appender is attached. */
        double sinkCount(String counter) {
            Map<String, Object> now = sink.get();
            if (now != null) {
                lastSink = now;
            } else {
                now = lastSink;
            }
            return (now != null && now.get(counter) instanceof Number n) ? n.doubleValue() : 0;
        }

        /** A record sink's gauge value ({@code true} 1, {@code false} 0): {@code NaN} while no Kafka appender of this name is attached. */
        double sinkGauge(String value) {
            Map<String, Object> now = sink.get();
            Object v = (now != null) ? now.get(value) : null;
            if (v instanceof Boolean b) {
                return b ? 1 : 0;
            }
            return (v instanceof Number n) ? n.doubleValue() : Double.NaN;
        }

        /** A gauge's value: {@code NaN} while no appender of this name is attached. */
        double gauge(ToDoubleFunction<AppenderStatistics> value) {
            AppenderStatistics now = current.get();
            return (now != null) ? value.applyAsDouble(now) : Double.NaN;
        }

        /** A counter's value: the last one read while no appender of this name is attached (0 before any). */
        double count(ToLongFunction<AppenderStatistics> value) {
            AppenderStatistics now = current.get();
            if (now != null) {
                last = now;
            } else {
                now = last;
            }
            return (now != null) ? value.applyAsLong(now) : 0;
        }
    }

    /**
     * A reading (an appender's statistics, the process's page faults), taken again once older than
     * {@link #SNAPSHOT_MAX_AGE_NANOS}; a {@code null} reading is kept as long as any other.
     */
    static final class Snapshot<T> {

        private final Supplier<T> reader;
        private boolean taken;
        private T value;
        private long takenAt;

        Snapshot(Supplier<T> reader) {
            this.reader = reader;
        }

        synchronized T get() {
            long now = System.nanoTime();
            if (!taken || now - takenAt > SNAPSHOT_MAX_AGE_NANOS) {
                value = reader.get();
                takenAt = now;
                taken = true;
            }
            return value;
        }
    }
}
