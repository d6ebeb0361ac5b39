package io.github.lockfreelog.benchmarks.otlp;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.LoggerContext;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.Appender;
import ch.qos.logback.core.status.Status;
import ch.qos.logback.core.util.Duration;
import io.github.lockfreelog.benchmarks.peers.LineCounter;
import io.github.lockfreelog.benchmarks.peers.Peer;
import io.github.lockfreelog.benchmarks.peers.Sink;
import io.github.lockfreelog.benchmarks.peers.Workload;
import io.github.lockfreelog.diagnostics.AppenderStatistics;
import io.github.lockfreelog.otlp.LockFreeOtlpAppender;
import io.github.lockfreelog.otlp.OtlpCounters;
import io.opentelemetry.api.common.AttributeKey;
import io.opentelemetry.api.common.Attributes;
import io.opentelemetry.exporter.otlp.http.logs.OtlpHttpLogRecordExporter;
import io.opentelemetry.instrumentation.logback.appender.v1_0.OpenTelemetryAppender;
import io.opentelemetry.sdk.OpenTelemetrySdk;
import io.opentelemetry.sdk.logs.SdkLoggerProvider;
import io.opentelemetry.sdk.logs.export.BatchLogRecordProcessor;
import io.opentelemetry.sdk.resources.Resource;
import java.io.IOException;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * An OTLP peer ({@link Peer#sendsOtlp()}): lockfreelog-otlp, or the OpenTelemetry Logback appender over the
 * OpenTelemetry SDK, each sending to the run's one {@link OtlpReceiver} on a path of the trial's own; what it delivered
 * is what the receiver counted for that path. Without {@value OtlpReceiver#PROPERTY} (a fork run by JMH's own command
 * line, a unit test) the sink starts a receiver of its own in this JVM.
 */
final class OtlpSink implements Sink {

    /** The SDK's default queue (2,048) times 512: room for a few seconds of a paced run, and for a burst of calls. */
    static final int LARGE_QUEUE = 2048 * 512;
    /** How long a stop may take to deliver what the peer still holds (lockfreelog's journal, the SDK's queue). */
    static final long STOP_SECONDS = 60;

    private final LoggerContext context;
    private final Logger logger;
    private final Appender<ILoggingEvent> appender;
    private final OpenTelemetrySdk sdk;
    private final String baseUrl;
    private final String trial;
    private final OtlpReceiver own;

    private OtlpSink(LoggerContext context, Appender<ILoggingEvent> appender, OpenTelemetrySdk sdk, String baseUrl,
            String trial, OtlpReceiver own) {
        this.context = context;
        this.logger = LoggerFactory.getLogger(Workload.LOGGER_NAME);
        this.appender = appender;
        this.sdk = sdk;
        this.baseUrl = baseUrl;
        this.trial = trial;
        this.own = own;
    }

    /** Opens an OTLP peer's sink for {@link Sink#open}, which finds it by name. */
    public static final class Factory implements Sink.Factory {

        @Override
        public Sink open(Peer peer, Path directory) throws IOException {
            return OtlpSink.open(peer, directory);
        }
    }

    static OtlpSink open(Peer peer, Path directory) throws IOException {
        String baseUrl = System.getProperty(OtlpReceiver.PROPERTY);
        OtlpReceiver own = baseUrl == null ? OtlpReceiver.start(false) : null;
        if (own != null) {
            baseUrl = own.baseUrl();
        }
        String trial = directory.getFileName().toString();
        String endpoint = OtlpReceiver.endpoint(baseUrl, trial);
        LoggerContext context = (LoggerContext) LoggerFactory.getILoggerFactory();
        context.reset();
        if (!context.isStarted()) {
            context.start();
        }
        // the HTTP clients' own logging (OkHttp's, the JDK's) never reaches a peer: it would be sent and counted
        context.getLogger("okhttp3").setLevel(Level.OFF);
        context.getLogger("io.opentelemetry").setLevel(Level.WARN);
        OpenTelemetrySdk sdk = null;
        Appender<ILoggingEvent> appender;
        switch (peer) {
            case LOCKFREELOG_OTLP -> appender = lockfreelog(context, endpoint, directory);
            case OTEL_LOGBACK, OTEL_LOGBACK_LARGE_QUEUE -> {
                sdk = sdk(endpoint, peer == Peer.OTEL_LOGBACK_LARGE_QUEUE ? LARGE_QUEUE : 0);
                OpenTelemetryAppender otel = new OpenTelemetryAppender();
                otel.setContext(context);
                otel.setName(peer.id());
                otel.setOpenTelemetry(sdk);
                otel.start();
                appender = otel;
            }
            default -> throw new IllegalArgumentException("not an OTLP peer: " + peer.id());
        }
        if (!appender.isStarted()) {
            if (own != null) {
                own.close();
            }
            throw new IllegalStateException("appender " + peer.id() + " did not start: " + errors(context));
        }
        ch.qos.logback.classic.Logger root = context.getLogger(org.slf4j.Logger.ROOT_LOGGER_NAME);
        root.setLevel(Level.INFO);
        root.addAppender(appender);
        return new OtlpSink(context, appender, sdk, baseUrl, trial, own);
    }

    /** lockfreelog-otlp with its defaults (8 MB x 3 buffers, BLOCK, the message as body), its journal in the trial's folder. */
    private static Appender<ILoggingEvent> lockfreelog(LoggerContext context, String endpoint, Path directory) {
        LockFreeOtlpAppender appender = new LockFreeOtlpAppender();
        appender.setContext(context);
        appender.setName("lockfreelog-otlp");
        appender.setEndpoint(endpoint);
        appender.setServiceName("lockfreelog-benchmark");
        appender.setJournal(directory.resolve(".lockfreelog").resolve("otlp.journal").toString());
        appender.setStopTimeout(Duration.buildBySeconds(STOP_SECONDS));
        appender.start();
        return appender;
    }

    /**
     * The OpenTelemetry SDK as a user sets it up for its Logback appender: an {@link OtlpHttpLogRecordExporter} (its
     * defaults: protobuf, no compression, 10 s timeout, its default sender) behind a {@link BatchLogRecordProcessor}
     * with its defaults (queue 2,048, batches of 512, every 1 s) or, {@code queue > 0}, a larger queue.
     */
    static OpenTelemetrySdk sdk(String endpoint, int queue) {
        OtlpHttpLogRecordExporter exporter = OtlpHttpLogRecordExporter.builder().setEndpoint(endpoint).build();
        var processor = BatchLogRecordProcessor.builder(exporter);
        if (queue > 0) {
            processor.setMaxQueueSize(queue);
        }
        SdkLoggerProvider provider = SdkLoggerProvider.builder()
                .setResource(Resource.getDefault().merge(Resource.create(Attributes.of(AttributeKey.stringKey(
                        "service.name"), "lockfreelog-benchmark"))))
                .addLogRecordProcessor(processor.build()).build();
        return OpenTelemetrySdk.builder().setLoggerProvider(provider).build();
    }

    @Override
    public void log(String message) {
        logger.info(message);
    }

    /**
     * Stops Logback (lockfreelog's stop delivers its journal), then the SDK (its shutdown exports what its queue
     * holds); each within {@value #STOP_SECONDS} s.
     */
    @Override
    public void stop() {
        context.stop();
        if (sdk != null) {
            sdk.shutdown().join(STOP_SECONDS, TimeUnit.SECONDS);
        }
    }

    @Override
    public Path logFile() {
        return null;
    }

    /** The records and body bytes the receiver counted for this trial. */
    @Override
    public LineCounter.Count count() throws IOException {
        try {
            return OtlpReceiver.count(baseUrl, trial);
        } finally {
            if (own != null) {
                own.close();
            }
        }
    }

    @Override
    public String details() {
        if (appender instanceof LockFreeOtlpAppender otlp) {
            AppenderStatistics statistics = otlp.getStatistics();
            OtlpCounters counters = otlp.getOtlpCounters();
            return "appended=" + statistics.appended() + " dropped=" + statistics.dropped() + " waits="
                    + statistics.waits() + " requestsSent=" + counters.requestsSent() + " requestsRetried="
                    + counters.requestsRetried() + " recordsAcknowledged=" + counters.recordsAcknowledged();
        }
        return "";
    }

    private static String errors(LoggerContext context) {
        StringBuilder errors = new StringBuilder();
        for (Status status : context.getStatusManager().getCopyOfStatusList()) {
            if (status.getLevel() >= Status.WARN) {
                errors.append(status.getMessage()).append(" | ");
            }
        }
        return errors.toString();
    }
}
