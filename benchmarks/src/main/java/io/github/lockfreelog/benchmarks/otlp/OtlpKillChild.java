package io.github.lockfreelog.benchmarks.otlp;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.LoggerContext;
import ch.qos.logback.classic.encoder.PatternLayoutEncoder;
import ch.qos.logback.classic.util.LogbackMDCAdapter;
import ch.qos.logback.core.util.Duration;
import io.github.lockfreelog.benchmarks.kafka.KafkaKillChild;
import io.github.lockfreelog.benchmarks.peers.Peer;
import io.github.lockfreelog.otlp.LockFreeOtlpAppender;
import io.opentelemetry.instrumentation.logback.appender.v1_0.OpenTelemetryAppender;
import java.nio.file.Path;
import java.util.List;
import java.util.function.Consumer;

/**
 * The process the otlp-kill mode kills with SIGKILL: one OTLP peer, and {@link KafkaKillChild#logUntilKilled} (four
 * threads, numbered events, an ack file). Arguments: peer, endpoint (the receiver's logs URL), journal (the
 * lockfreelog peer's; {@code -} for the others), ack file, mode: {@code log}, or {@code recover} (the lockfreelog peer
 * only: start on the journal, as an application's restart would, log {@link KafkaKillChild#MARKER}, stop once all is
 * delivered, print {@code STOPPED} and the appender's counters).
 */
public final class OtlpKillChild {

    /** The peers, as {@code --peers} names them. */
    static final List<String> PEERS = List.of(Peer.LOCKFREELOG_OTLP.id(), Peer.OTEL_LOGBACK.id(),
            Peer.OTEL_LOGBACK_LARGE_QUEUE.id());

    private OtlpKillChild() {
    }

    public static void main(String[] args) throws Exception {
        String peer = args[0];
        String endpoint = args[1];
        String journal = args[2];
        Path ackFile = Path.of(args[3]);
        boolean recover = args[4].equals("recover");
        LoggerContext context = new LoggerContext();
        context.setName("otlp-kill");
        context.setMDCAdapter(new LogbackMDCAdapter()); // as SLF4J's provider gives each context: both peers read the MDC
        context.getLogger(org.slf4j.Logger.ROOT_LOGGER_NAME).setLevel(Level.WARN);
        // OkHttp's and the SDK's own logging go to the SLF4J default context (warnings), never to a peer
        ((LoggerContext) org.slf4j.LoggerFactory.getILoggerFactory()).getLogger(org.slf4j.Logger.ROOT_LOGGER_NAME)
                .setLevel(Level.WARN);
        ch.qos.logback.classic.Logger logger = context.getLogger("kill");
        logger.setAdditive(false);
        logger.setLevel(Level.INFO);
        Consumer<String> log = logger::info;
        if (peer.equals(Peer.LOCKFREELOG_OTLP.id())) {
            LockFreeOtlpAppender appender = new LockFreeOtlpAppender();
            appender.setContext(context);
            appender.setName("OTLP");
            appender.setEndpoint(endpoint);
            appender.setJournal(journal);
            appender.setMaxBlockTime(Duration.valueOf("120 seconds")); // a caller waits for room rather than drop
            appender.setStopTimeout(Duration.valueOf("300 seconds")); // the restart's stop delivers the backlog
            PatternLayoutEncoder encoder = new PatternLayoutEncoder();
            encoder.setContext(context);
            encoder.setPattern("%msg");
            encoder.start();
            appender.setEncoder(encoder);
            long started = System.nanoTime();
            appender.start();
            attach(context, logger, appender);
            if (recover) {
                System.out.println("RESTARTED start took " + (System.nanoTime() - started) / 1_000_000 + " ms");
                log.accept(KafkaKillChild.MARKER);
                appender.stop();
                var statistics = appender.getStatistics();
                System.out.println("STOPPED dropped " + statistics.dropped() + ", recovered "
                        + statistics.recoveredFrames() + ", skipped " + statistics.skippedFrames()
                        + " (unfinished frames), requests retried " + appender.getOtlpCounters().requestsRetried());
                System.out.flush();
                return;
            }
        } else if (PEERS.contains(peer)) {
            OpenTelemetryAppender appender = new OpenTelemetryAppender();
            appender.setContext(context);
            appender.setName("OTEL");
            appender.setOpenTelemetry(OtlpSink.sdk(endpoint,
                    peer.equals(Peer.OTEL_LOGBACK_LARGE_QUEUE.id()) ? OtlpSink.LARGE_QUEUE : 0));
            appender.start();
            attach(context, logger, appender);
        } else {
            throw new IllegalArgumentException("unknown peer " + peer + "; peers: " + PEERS);
        }
        KafkaKillChild.logUntilKilled(log, ackFile);
    }

    private static void attach(LoggerContext context, ch.qos.logback.classic.Logger logger,
            ch.qos.logback.core.Appender<ch.qos.logback.classic.spi.ILoggingEvent> appender) {
        KafkaKillChild.requireStarted(context, appender);
        logger.addAppender(appender);
    }
}
