package io.github.lockfreelog.autoconfigure.actuate;

import io.github.lockfreelog.journal.DropReason;
import io.github.lockfreelog.journal.ProcStat;
import io.github.lockfreelog.journal.AppenderStatistics;
import io.github.lockfreelog.logback.LockFreeFileAppender;
import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.FunctionTimer;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.TimeGauge;
import io.micrometer.core.instrument.binder.BaseUnits;
import io.micrometer.core.instrument.binder.MeterBinder;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;
import java.util.function.ToDoubleFunction;
import java.util.function.ToLongFunction;

/**
 * Micrometer meters carrying the same numbers as the {@code lockfreelog} endpoint, one set per
 * appender (tag {@code appender}); drops are tagged by {@code reason}, page faults by
 * {@code type}. Page faults of the whole process are one pair of meters, whatever the number of
 * appenders. Meters read {@link LockFreeFileAppender#getStatistics()} when they are published,
 * through one snapshot per appender that is reused for {@link #SNAPSHOT_MAX_AGE_NANOS} (a snapshot
 * reads {@code /proc}), so the meters of one publication agree with one another; nothing is counted twice.
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

    public LockFreeLogMetrics(LockFreeLogAppenders appenders) {
        this.appenders = appenders;
    }

    @Override
    public void bindTo(MeterRegistry registry) {
        for (LockFreeFileAppender appender : appenders.all()) {
            bind(registry, appender);
        }
        bindProcessPageFaults(registry);
    }

    private static void bind(MeterRegistry registry, LockFreeFileAppender appender) {
        Snapshot<AppenderStatistics> snapshot = new Snapshot<>(appender::getStatistics);
        Tags tags = Tags.of("appender", String.valueOf(appender.getName()));
        counter(registry, appender, snapshot, tags, "lockfreelog.events.appended", null, "Events handed to the appender",
                AppenderStatistics::appended);
        counter(registry, appender, snapshot, tags, "lockfreelog.events.written", null, "Events written to the log file",
                AppenderStatistics::eventsWritten);
        for (DropReason reason : DropReason.values()) {
            counter(registry, appender, snapshot, tags.and("reason", reason.id()), "lockfreelog.events.dropped", null,
                    "Events dropped, by reason", s -> s.drops().getOrDefault(reason.id(), 0L));
        }
        counter(registry, appender, snapshot, tags, "lockfreelog.events.truncated", null, "Events cut to the maximum event size",
                AppenderStatistics::truncated);
        gauge(registry, appender, snapshot, tags, "lockfreelog.events.in.flight", null,
                "Events in the journal, not yet in the log file", AppenderStatistics::inFlight);
        counter(registry, appender, snapshot, tags, "lockfreelog.written", BaseUnits.BYTES, "Bytes written to the log file",
                AppenderStatistics::bytesWritten);
        counter(registry, appender, snapshot, tags, "lockfreelog.buffer.swaps", null, "Buffer swaps", AppenderStatistics::swaps);
        FunctionTimer.builder("lockfreelog.buffer.waits", appender, a -> snapshot.get().waits(),
                        a -> snapshot.get().waitTotalNanos(), TimeUnit.NANOSECONDS)
                .tags(tags).description("Appends that waited for a drained buffer").register(registry);
        TimeGauge.builder("lockfreelog.buffer.wait.max", appender, TimeUnit.NANOSECONDS,
                        a -> snapshot.get().waitMaxNanos())
                .tags(tags).description("Longest wait for a drained buffer since start").register(registry);
        gauge(registry, appender, snapshot, tags, "lockfreelog.buffer.active.fill", BaseUnits.BYTES,
                "Bytes reserved in the active buffer", AppenderStatistics::activeBufferFill);
        gauge(registry, appender, snapshot, tags, "lockfreelog.buffer.size", BaseUnits.BYTES, "Bytes per buffer",
                AppenderStatistics::bufferSize);
        gauge(registry, appender, snapshot, tags, "lockfreelog.buffers", null, "Buffers in the journal",
                AppenderStatistics::bufferCount);
        gauge(registry, appender, snapshot, tags, "lockfreelog.drain.lag", BaseUnits.BYTES,
                "Bytes in the journal not yet in the log file", AppenderStatistics::drainLagBytes);
        counter(registry, appender, snapshot, tags, "lockfreelog.drainer.errors", null, "Errors met by the background thread",
                AppenderStatistics::drainerErrors);
        counter(registry, appender, snapshot, tags, "lockfreelog.frames.recovered", null,
                "Events recovered from the journal at start", AppenderStatistics::recoveredFrames);
        counter(registry, appender, snapshot, tags, "lockfreelog.frames.skipped", null,
                "Damaged or unfinished frames skipped", AppenderStatistics::skippedFrames);
        gauge(registry, appender, snapshot, tags, "lockfreelog.started", null, "1 while the appender runs, else 0",
                s -> s.started() ? 1 : 0);
        if (appender.getStatistics().pageFaults().available()) {
            String description = "Page faults of the appender's background thread since the appender started";
            counter(registry, appender, snapshot, tags.and("type", "minor"), "lockfreelog.drainer.page.faults", null,
                    description, s -> s.pageFaults().drainerMinor());
            counter(registry, appender, snapshot, tags.and("type", "major"), "lockfreelog.drainer.page.faults", null,
                    description, s -> s.pageFaults().drainerMajor());
        }
    }

    /** Page faults of the whole process since it started, once per registry (where {@code /proc} is present). */
    private void bindProcessPageFaults(MeterRegistry registry) {
        if (processFaults.get() == null) {
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

    private static void counter(MeterRegistry registry, LockFreeFileAppender appender, Snapshot<AppenderStatistics> snapshot,
            Tags tags, String name, String baseUnit, String description, ToLongFunction<AppenderStatistics> value) {
        FunctionCounter.builder(name, appender, a -> value.applyAsLong(snapshot.get()))
                .tags(tags).baseUnit(baseUnit).description(description).register(registry);
    }

    private static void gauge(MeterRegistry registry, LockFreeFileAppender appender, Snapshot<AppenderStatistics> snapshot,
            Tags tags, String name, String baseUnit, String description, ToDoubleFunction<AppenderStatistics> value) {
        Gauge.builder(name, appender, a -> value.applyAsDouble(snapshot.get()))
                .tags(tags).baseUnit(baseUnit).description(description).strongReference(true).register(registry);
    }

    /** A reading (an appender's statistics, the process's page faults), taken again once older than {@link #SNAPSHOT_MAX_AGE_NANOS}. */
    static final class Snapshot<T> {

        private final Supplier<T> reader;
        private T value;
        private long takenAt;

        Snapshot(Supplier<T> reader) {
            this.reader = reader;
        }

        synchronized T get() {
            long now = System.nanoTime();
            if (value == null || now - takenAt > SNAPSHOT_MAX_AGE_NANOS) {
                value = reader.get();
                takenAt = now;
            }
            return value;
        }
    }
}
