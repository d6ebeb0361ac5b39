package io.github.lockfreelog.autoconfigure.actuate;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonUnwrapped;
import io.github.lockfreelog.diagnostics.AppenderStatistics;
import io.github.lockfreelog.logback.LockFreeAppenderBase;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.springframework.boot.actuate.endpoint.OperationResponseBody;
import org.springframework.boot.actuate.endpoint.annotation.Endpoint;
import org.springframework.boot.actuate.endpoint.annotation.ReadOperation;
import org.springframework.boot.actuate.endpoint.annotation.Selector;

/**
 * {@code /actuator/lockfreelog}: the counters of every lock-free appender attached to a Logback
 * logger, or, when there is none, why ({@code "logFile": "none"} and a {@code reason});
 * {@code /actuator/lockfreelog/{name}} for one (404 when there is no appender of that name).
 * Field names are part of the project's API (see README).
 */
@Endpoint(id = "lockfreelog")
public class LockFreeLogEndpoint {

    private final LockFreeLogAppenders appenders;

    public LockFreeLogEndpoint(LockFreeLogAppenders appenders) {
        this.appenders = appenders;
    }

    @ReadOperation
    public AppendersDescriptor appenders() {
        List<AppenderDescriptor> result = new ArrayList<>();
        appenders.attachments().forEach((appender, loggers) -> result.add(describe(appender, loggers)));
        if (result.isEmpty()) {
            return new AppendersDescriptor(result, AppendersDescriptor.NO_LOG_FILE, appenders.whyNone());
        }
        return new AppendersDescriptor(result, null, null);
    }

    @ReadOperation
    public AppenderDescriptor appender(@Selector String name) {
        for (Map.Entry<LockFreeAppenderBase, List<String>> entry : appenders.attachments().entrySet()) {
            if (name.equals(entry.getKey().getName())) {
                return describe(entry.getKey(), entry.getValue());
            }
        }
        return null;
    }

    private AppenderDescriptor describe(LockFreeAppenderBase appender, List<String> loggers) {
        return new AppenderDescriptor(appender.getName(), appenders.isAutoConfigured(appender), loggers,
                appender.getStatistics(), KafkaDetails.of(appender), OtlpDetails.of(appender));
    }

    /**
     * Every lock-free appender, sorted by name; when there is none, why.
     *
     * @param appenders the appenders
     * @param logFile {@value #NO_LOG_FILE} when there is no appender, else {@code null} (left out of the JSON)
     * @param reason why there is no appender ({@link LockFreeLogAppenders#absence()}), else {@code null}
     */
    public record AppendersDescriptor(List<AppenderDescriptor> appenders, String logFile, String reason)
            implements OperationResponseBody {

        /** {@link #logFile()} when no lock-free appender writes a log file. */
        public static final String NO_LOG_FILE = "none";
    }

    /**
     * One appender: where it is attached, and its statistics as core gives them, whose fields the JSON shows
     * beside {@code name}, {@code autoConfigured} and {@code loggers} (unwrapped, the statistics' own name left out).
     *
     * @param name appender name
     * @param autoConfigured whether the starter attached it ({@code false}: declared in the Logback configuration)
     * @param loggers loggers it is attached to
     * @param statistics its settings and counters, which run from its start
     * @param kafka for a Kafka appender ({@code "target": "kafka"}), its sink: {@code connected} (its latest exchange
     * with the cluster succeeded), {@code oldestUndeliveredMillis} (how long the events it is delivering have waited),
     * {@code eventsDelivered} (committed to the topic), {@code transactionsCommitted}, {@code transactionsAborted} and
     * {@code tooLarge} (events the broker refused as too large, left out), {@code refused} (events the broker refused
     * for what they are, set aside and never sent again, by reason: {@code too-large}, {@code invalid-record}) and
     * {@code commitsRetried} (commits asked again after a timeout); {@code null} (left out of the JSON) for the others. The
     * latest error is {@code lastError}; the events and bytes not yet delivered, {@code inFlight} and
     * {@code drainLagBytes}.
     * @param otlp for an OTLP appender ({@code "target": "otlp"}), its sink: {@code connected} (the collector answered
     * its latest request), {@code oldestUnacknowledgedMillis}, {@code requestsSent}, {@code requestsRetried},
     * {@code requestsRejected} (set aside after a 4xx), {@code recordsAcknowledged}, {@code recordsRejected} (those and
     * partial successes' rejections), {@code bytesSent} and {@code lastCollectorError}; {@code null} for the others
     */
    public record AppenderDescriptor(String name, boolean autoConfigured, List<String> loggers,
            @JsonUnwrapped @JsonIgnoreProperties("name") AppenderStatistics statistics,
            @JsonInclude(JsonInclude.Include.NON_NULL) Map<String, Object> kafka,
            @JsonInclude(JsonInclude.Include.NON_NULL) Map<String, Object> otlp) implements OperationResponseBody {
    }
}
