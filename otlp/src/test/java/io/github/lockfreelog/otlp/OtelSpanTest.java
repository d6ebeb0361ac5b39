package io.github.lockfreelog.otlp;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.LoggerContext;
import com.google.protobuf.ByteString;
import io.github.lockfreelog.testsupport.TestLogback;
import io.opentelemetry.api.trace.Span;
import io.opentelemetry.api.trace.SpanContext;
import io.opentelemetry.api.trace.TraceFlags;
import io.opentelemetry.api.trace.TraceState;
import io.opentelemetry.context.Scope;
import java.io.File;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.function.BiConsumer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Trace context from the OpenTelemetry API's current span, when the MDC holds none; the MDC's ids when it does; and
 * without the API on the class path (it is an optional dependency) the appender runs and never loads it.
 */
class OtelSpanTest {

    private static final String TRACE = "4bf92f3577b34da6a3ce929d0e0e4736";
    private static final String SPAN = "00f067aa0ba902b7";

    @TempDir
    Path dir;

    private TestCollector collector;
    private LockFreeOtlpAppender appender;

    @AfterEach
    void stop() {
        if (appender != null) {
            appender.stop();
        }
        if (collector != null) {
            collector.close();
        }
    }

    @Test
    @SuppressWarnings("try") // the scope is only closed
    void theCurrentSpansIdsAndFlagsAreTheRecordsWhenTheMdcHasNone() throws Exception {
        collector = TestCollector.start();
        LoggerContext context = TestLogback.newContext();
        appender = LockFreeOtlpAppenderTest.appender(context, collector.endpoint(), dir.resolve("otlp.journal"),
                a -> { });
        appender.start();
        assertThat(appender.isStarted()).as(TestLogback.statuses(context)).isTrue();
        Logger logger = TestLogback.logger(context, "traced", appender);
        Span span = Span.wrap(SpanContext.create(TRACE, SPAN, TraceFlags.getSampled(), TraceState.getDefault()));
        try (Scope scope = span.makeCurrent()) {
            logger.info("in the span");
            context.getMDCAdapter().setContextMap(Map.of("traceId", "0af7651916cd43dd8448eb211c80319c",
                    "spanId", "b7ad6b7169203331"));
            logger.info("the MDC's ids");
            context.getMDCAdapter().clear();
        }
        logger.info("no span");
        await().atMost(20, TimeUnit.SECONDS).until(() -> collector.records.size() == 3);

        TestCollector.Received inSpan = collector.records.get(0);
        assertThat(inSpan.body()).isEqualTo("in the span");
        assertThat(inSpan.record().getTraceId()).isEqualTo(ByteString.fromHex(TRACE));
        assertThat(inSpan.record().getSpanId()).isEqualTo(ByteString.fromHex(SPAN));
        assertThat(inSpan.record().getFlags()).as("sampled").isEqualTo(1);
        TestCollector.Received mdc = collector.records.get(1);
        assertThat(mdc.record().getTraceId()).as("the MDC (Micrometer Tracing's) comes first")
                .isEqualTo(ByteString.fromHex("0af7651916cd43dd8448eb211c80319c"));
        assertThat(mdc.record().getSpanId()).isEqualTo(ByteString.fromHex("b7ad6b7169203331"));
        TestCollector.Received none = collector.records.get(2);
        assertThat(none.record().getTraceId()).isEmpty();
        assertThat(none.record().getSpanId()).isEmpty();
        assertThat(none.record().getFlags()).isZero();
    }

    /**
     * The appender in a class loader that holds everything of this test's class path but OpenTelemetry's jars: it
     * starts, sends an event without trace ids, and the API is never asked for.
     */
    @Test
    void withoutTheApiOnTheClassPathTheAppenderSendsWithoutTraceIds() throws Exception {
        collector = TestCollector.start();
        List<URL> urls = new ArrayList<>();
        for (String entry : System.getProperty("java.class.path").split(File.pathSeparator)) {
            if (!entry.contains("opentelemetry")) {
                urls.add(Path.of(entry).toUri().toURL());
            }
        }
        try (URLClassLoader loader = new URLClassLoader(urls.toArray(URL[]::new), ClassLoader.getPlatformClassLoader())) {
            assertThatThrownBy(() -> Class.forName("io.opentelemetry.api.trace.Span", false, loader))
                    .isInstanceOf(ClassNotFoundException.class);
            @SuppressWarnings("unchecked")
            BiConsumer<String, String> probe = (BiConsumer<String, String>) loader.loadClass(Probe.class.getName())
                    .getDeclaredConstructor().newInstance();
            probe.accept(collector.endpoint(), dir.resolve("absent.journal").toString());
            java.lang.reflect.Field found = loader.loadClass(LogRecordEnvelope.class.getName()).getDeclaredField("OTEL_API");
            found.setAccessible(true); // another class loader's package
            assertThat(found.getBoolean(null)).isFalse();
        }
        await().atMost(20, TimeUnit.SECONDS).until(() -> collector.records.size() == 1);
        assertThat(collector.records.get(0).body()).isEqualTo("no API");
        assertThat(collector.records.get(0).record().getTraceId()).isEmpty();
    }

    /** Run inside the class loader without OpenTelemetry: logs one event and stops (which sends it). */
    public static final class Probe implements BiConsumer<String, String> {
        @Override
        public void accept(String endpoint, String journal) {
            LoggerContext context = TestLogback.newContext();
            LockFreeOtlpAppender otlp = new LockFreeOtlpAppender();
            otlp.setContext(context);
            otlp.setName("OTLP");
            otlp.setEndpoint(endpoint);
            otlp.setJournal(journal);
            otlp.start();
            if (!otlp.isStarted()) {
                throw new IllegalStateException(TestLogback.statuses(context));
            }
            Logger logger = context.getLogger("absent");
            logger.addAppender(otlp);
            logger.info("no API");
            otlp.stop();
        }
    }
}
