package io.github.lockfreelog.otlp;

import ch.qos.logback.classic.encoder.PatternLayoutEncoder;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.encoder.Encoder;
import ch.qos.logback.core.encoder.LayoutWrappingEncoder;
import ch.qos.logback.core.util.Duration;
import io.github.lockfreelog.diagnostics.StatusReporter;
import io.github.lockfreelog.engine.EngineConfig;
import io.github.lockfreelog.engine.JournalEngine;
import io.github.lockfreelog.engine.SettingProblem;
import io.github.lockfreelog.files.FileIdentity;
import io.github.lockfreelog.journal.JournalSlots;
import io.github.lockfreelog.logback.EventEnvelope;
import io.github.lockfreelog.logback.LockFreeAppenderBase;
import io.github.lockfreelog.logback.LogbackStatusReporter;
import io.github.lockfreelog.sink.LogTarget;
import io.github.lockfreelog.sink.RecordSink;
import java.io.IOException;
import java.net.URI;
import java.net.URISyntaxException;
import java.nio.charset.Charset;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * A Logback appender that sends every event to an OpenTelemetry collector over OTLP/HTTP, at least once whatever
 * crashes and outages: the caller's path is the file appender's (encode the event as OTLP's {@code LogRecord},
 * reserve with one atomic operation, copy into its own memory-mapped journal, return: no lock, no network), and the
 * drainer thread sends the journal's records in requests built by copying frames ({@link OtlpRecordSink}); the
 * journal's position moves only once the collector answered.
 *
 * <pre>{@code
 * <appender name="OTLP" class="io.github.lockfreelog.otlp.LockFreeOtlpAppender">
 *   <endpoint>http://localhost:4318</endpoint>
 *   <serviceName>orders</serviceName>
 *   <compression>gzip</compression>
 * </appender>
 * }</pre>
 *
 * <p>The body is the encoded event: unset, the encoder is {@code %m%nopex} (the message; an exception goes to the
 * {@code exception.*} attributes). The journal, unset, is
 * {@code <java.io.tmpdir>/.lockfreelog-<application>-<user>/<appender name>.journal}, as for the Kafka appender.
 */
public class LockFreeOtlpAppender extends LockFreeAppenderBase {

    /** The body's pattern when no encoder is given: the message alone. */
    public static final String DEFAULT_PATTERN = "%m%nopex";
    static final String LOGS_PATH = "/v1/logs";
    /** Loggers of the JDK's HTTP client, which the drainer uses: their events would feed on themselves. */
    private static final String[] OWN_LOGGERS = {"jdk.internal.httpclient", "java.net.http"};

    private String endpoint;
    private final Map<String, String> headers = new LinkedHashMap<>();
    private String compression = "none";
    private Duration timeout = Duration.buildBySeconds(10);
    private String serviceName;
    private final Map<String, String> resourceAttributes = new LinkedHashMap<>();
    private String application;
    private final OtlpCounters counters = new OtlpCounters();

    /** Checks the settings, once the body's encoder is there: {@link #DEFAULT_PATTERN} unless one was given. */
    @Override
    public List<SettingProblem> checkSettings() {
        if (getEncoder() == null) {
            PatternLayoutEncoder body = new PatternLayoutEncoder();
            body.setContext(getContext());
            body.setPattern(DEFAULT_PATTERN);
            body.setCharset(StandardCharsets.UTF_8);
            body.start();
            setEncoder(body);
        }
        List<SettingProblem> problems = new ArrayList<>();
        if (logsUri(endpoint) == null) {
            problems.add(new SettingProblem("endpoint", endpoint,
                    "an http or https URL of an OTLP/HTTP receiver, e.g. http://localhost:4318 (/v1/logs is added)"));
        }
        if (!compression.trim().equalsIgnoreCase("none") && !compression.trim().equalsIgnoreCase("gzip")) {
            problems.add(new SettingProblem("compression", compression, "none or gzip"));
        }
        if (timeout == null || timeout.getMilliseconds() <= 0) {
            problems.add(new SettingProblem("timeout", String.valueOf(timeout), "a positive duration, e.g. 10 seconds"));
        }
        Encoder<ILoggingEvent> encoder = getEncoder();
        if (encoder instanceof LayoutWrappingEncoder<ILoggingEvent> wrapping && wrapping.getCharset() != null
                && !wrapping.getCharset().equals(StandardCharsets.UTF_8)) {
            Charset charset = wrapping.getCharset();
            problems.add(new SettingProblem("encoder", "charset " + charset.name(),
                    "UTF-8, or no charset: OTLP's body is a protobuf string, UTF-8"));
        }
        addSharedProblems(problems);
        return problems;
    }

    /** {@code <endpoint>/v1/logs} (or the endpoint as given, when it ends so), or {@code null} when it is not a URL. */
    static URI logsUri(String endpoint) {
        if (endpoint == null || endpoint.isBlank()) {
            return null;
        }
        try {
            URI uri = new URI(endpoint.trim());
            String scheme = uri.getScheme() == null ? "" : uri.getScheme().toLowerCase(Locale.ROOT);
            if (!(scheme.equals("http") || scheme.equals("https")) || uri.getHost() == null) {
                return null;
            }
            String path = uri.getRawPath() == null ? "" : uri.getRawPath();
            if (path.endsWith(LOGS_PATH)) {
                return uri;
            }
            path = (path.endsWith("/") ? path.substring(0, path.length() - 1) : path) + LOGS_PATH;
            return new URI(uri.getScheme(), uri.getRawUserInfo(), uri.getHost(), uri.getPort(), path, null, null);
        } catch (URISyntaxException e) {
            return null;
        }
    }

    @Override
    protected JournalEngine startEngine(String suffix) {
        Path journalFile;
        try {
            journalFile = isJournalSet() ? FileIdentity.canonical(Paths.get(getJournal().trim()))
                    : journalInTmp(applicationName(application), ".journal");
        } catch (RuntimeException e) {
            addError("Cannot use the journal " + getJournal() + suffix + ": " + e);
            return null;
        }
        journalFile = claimJournal(journalFile, isJournalSet(), suffix);
        if (journalFile == null) {
            return null;
        }
        int slots = isJournalSet() ? 1 : JournalSlots.DEFAULT_SLOTS;
        URI uri = logsUri(endpoint);
        Map<String, String> resource = new LinkedHashMap<>();
        resource.put("service.name", serviceName != null && !serviceName.isBlank() ? serviceName.trim()
                : applicationName(application));
        resource.putAll(resourceAttributes);
        OtlpSettings settings = new OtlpSettings(uri, Map.copyOf(headers), compression.trim().equalsIgnoreCase("gzip"),
                java.time.Duration.ofMillis(timeout.getMilliseconds()), resource);
        EngineConfig config = engineConfig().logFile(Paths.get(uri.getHost() + "_" + uri.getPort()))
                .journalFile(journalFile).journalSlots(slots).target(LogTarget.OTLP).build();
        StatusReporter status = new LogbackStatusReporter(this, suffix);
        RecordSink.Factory sinks = slot -> new OtlpRecordSink(settings, counters, status);
        try {
            return JournalEngine.startRecords(config, status, sinks);
        } catch (IOException | RuntimeException e) {
            releaseClaims();
            addError("Could not start" + suffix + " with journal " + journalFile + " and endpoint " + uri + ": " + e, e);
            return null;
        }
    }

    @Override
    protected void append(ILoggingEvent event) {
        String logger = event.getLoggerName();
        if (logger != null) {
            for (String own : OWN_LOGGERS) {
                if (logger.startsWith(own)) {
                    return; // the HTTP client's own logging: sending it would have the sink log into itself
                }
            }
        }
        super.append(event);
    }

    @Override
    protected EventEnvelope envelope() {
        return new LogRecordEnvelope.Writer();
    }

    @Override
    protected LogTarget target() {
        return LogTarget.OTLP;
    }

    @Override
    protected String targetName() {
        URI uri = logsUri(endpoint);
        return uri == null ? String.valueOf(endpoint) : uri.toString();
    }

    /** What this appender's OTLP sink did: requests sent, retried and rejected, records acknowledged and rejected. */
    public OtlpCounters getOtlpCounters() {
        return counters;
    }

    // ---- settings ---------------------------------------------------------------------------

    public String getEndpoint() {
        return endpoint;
    }

    /**
     * URL of the OTLP/HTTP receiver (required): {@code http://host:4318}, to which {@code /v1/logs} is added, or the
     * full URL of its logs path (ending in {@code /v1/logs}).
     */
    public void setEndpoint(String endpoint) {
        this.endpoint = endpoint;
    }

    /** One header of each request as {@code name=value} ({@code <header>} may be given many times). */
    public void addHeader(String nameValue) {
        putNameValue("header", nameValue, headers);
    }

    /** Headers of each request (an authorization, say); before start. */
    public void setHeaders(Map<String, String> more) {
        headers.putAll(more);
    }

    public Map<String, String> getHeaders() {
        return Map.copyOf(headers);
    }

    public String getCompression() {
        return compression;
    }

    /** Compression of each request's body: {@code none} (the default) or {@code gzip}. */
    public void setCompression(String compression) {
        this.compression = compression == null ? "none" : compression;
    }

    public Duration getTimeout() {
        return timeout;
    }

    /** How long one request may take, its answer included, before it is tried again; 10 seconds unless set. */
    public void setTimeout(Duration timeout) {
        this.timeout = timeout;
    }

    public String getServiceName() {
        return serviceName;
    }

    /** The resource's {@code service.name}; unset, the application's name (as for the journal's folder). */
    public void setServiceName(String serviceName) {
        this.serviceName = serviceName;
    }

    /** One resource attribute as {@code name=value} ({@code <resourceAttribute>} may be given many times). */
    public void addResourceAttribute(String nameValue) {
        putNameValue("resourceAttribute", nameValue, resourceAttributes);
    }

    /** Resource attributes beside {@code service.name}; before start. */
    public void setResourceAttributes(Map<String, String> attributes) {
        resourceAttributes.putAll(attributes);
    }

    public Map<String, String> getResourceAttributes() {
        return Map.copyOf(resourceAttributes);
    }

    public String getApplication() {
        return application;
    }

    /** Names the default journal's folder and, unset {@code serviceName}, the service. */
    public void setApplication(String application) {
        this.application = application;
    }
}
