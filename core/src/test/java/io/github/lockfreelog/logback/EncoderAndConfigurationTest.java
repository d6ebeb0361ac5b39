package io.github.lockfreelog.logback;

import static org.assertj.core.api.Assertions.assertThat;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.LoggerContext;
import ch.qos.logback.classic.encoder.JsonEncoder;
import ch.qos.logback.classic.encoder.PatternLayoutEncoder;
import ch.qos.logback.classic.joran.JoranConfigurator;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.encoder.EncoderBase;
import ch.qos.logback.core.status.Status;
import ch.qos.logback.core.util.Duration;
import ch.qos.logback.core.util.FileSize;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.github.lockfreelog.diagnostics.AppenderStatistics;
import io.github.lockfreelog.engine.Backpressure;
import io.github.lockfreelog.testing.TestAppenders;
import io.github.lockfreelog.testsupport.TestLogback;
import java.io.ByteArrayInputStream;
import java.nio.charset.Charset;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.slf4j.Logger;

class EncoderAndConfigurationTest {

    @TempDir
    Path dir;

    final LoggerContext context = TestLogback.newContext();

    private static void runThreads(int threads, int perThread, Consumer<int[]> body) throws InterruptedException {
        List<Thread> list = new ArrayList<>();
        for (int t = 0; t < threads; t++) {
            int id = t;
            Thread thread = new Thread(() -> {
                for (int i = 0; i < perThread; i++) {
                    body.accept(new int[] {id, i});
                }
            }, "writer-" + t);
            list.add(thread);
            thread.start();
        }
        for (Thread thread : list) {
            thread.join();
        }
    }

    @Test
    void aNameValueSettingIsSplitAtItsFirstEqualsAndOneWithoutAnIsReportedNamingTheSetting() {
        LoggerContext context = TestLogback.newContext();
        LockFreeFileAppender appender = new LockFreeFileAppender();
        appender.setContext(context);
        appender.setName("NV");
        java.util.Map<String, Object> into = new java.util.LinkedHashMap<>();
        appender.putNameValue("producerConfig", " linger.ms = 5 ", into);
        appender.putNameValue("producerConfig", "a=b=c", into);
        appender.putNameValue("producerConfig", "=5", into);
        appender.putNameValue("producerConfig", "no-equals", into);
        assertThat(into).containsExactly(java.util.Map.entry("linger.ms", "5"), java.util.Map.entry("a", "b=c"));
        assertThat(TestLogback.statusMessages(context, Status.ERROR)).containsExactly(
                "producerConfig \"=5\" is not name=value for the appender named \"NV\"",
                "producerConfig \"no-equals\" is not name=value for the appender named \"NV\"");
    }

    @Test
    void logbackXmlConfiguresEverySettingWithLogbackSyntax() throws Exception {
        Path log = dir.resolve("xml/app.log");
        Path journal = dir.resolve("elsewhere/app.journal");
        String xml = """
                <configuration>
                  <appender name="FILE" class="io.github.lockfreelog.logback.LockFreeFileAppender">
                    <file>%s</file>
                    <journal>%s</journal>
                    <encoder><pattern>%%5p [%%t] %%c - %%m%%n</pattern></encoder>
                    <bufferSize>128KB</bufferSize>
                    <bufferCount>4</bufferCount>
                    <backpressure>DROP</backpressure>
                    <maxBlockTime>250 milliseconds</maxBlockTime>
                    <maxEventSize>2KB</maxEventSize>
                    <flushInterval>50 milliseconds</flushInterval>
                    <dropBelowLevel>WARN</dropBelowLevel>
                  </appender>
                  <root level="INFO"><appender-ref ref="FILE"/></root>
                </configuration>
                """.formatted(log, journal);
        JoranConfigurator configurator = new JoranConfigurator();
        configurator.setContext(context);
        configurator.doConfigure(new ByteArrayInputStream(xml.getBytes(StandardCharsets.UTF_8)));
        LockFreeFileAppender appender = (LockFreeFileAppender) context.getLogger(Logger.ROOT_LOGGER_NAME)
                .getAppender("FILE");
        assertThat(appender.isStarted()).as(TestLogback.statuses(context)).isTrue();
        assertThat(appender.getBufferSize().getSize()).isEqualTo(128 * 1024);
        assertThat(appender.getBufferCount()).isEqualTo(4);
        assertThat(appender.getBackpressure()).isEqualTo(Backpressure.DROP);
        assertThat(appender.getMaxBlockTime().getMilliseconds()).isEqualTo(250);
        assertThat(appender.getMaxEventSize().getSize()).isEqualTo(2048);
        assertThat(appender.getFlushInterval().getMilliseconds()).isEqualTo(50);
        assertThat(appender.getDropBelowLevel()).isEqualTo("WARN");

        context.getLogger("com.example.Demo").info("configured from XML");
        AppenderStatistics stats = appender.getStatistics();
        assertThat(stats.journal()).isEqualTo(journal.toString());
        assertThat(Files.size(journal)).isEqualTo(4096 + 4 * 128 * 1024);
        context.stop();
        assertThat(TestLogback.lines(log)).containsExactly(" INFO [main] com.example.Demo - configured from XML");
    }

    @Test
    void defaultJournalIsInAHiddenFolderBesideTheLog() {
        Path log = dir.resolve("logs/app.log");
        LockFreeFileAppender appender = TestAppenders.start(context, log, a -> { });
        try {
            assertThat(appender.getStatistics().journal())
                    .isEqualTo(dir.resolve("logs/.lockfreelog/app.log.journal").toString());
        } finally {
            appender.stop();
        }
    }

    @Test
    void patternEncoderFromManyThreadsGivesWholeCorrectLines() throws Exception {
        Path log = dir.resolve("pattern.log");
        ch.qos.logback.classic.encoder.PatternLayoutEncoder encoder = new ch.qos.logback.classic.encoder.PatternLayoutEncoder();
        encoder.setContext(context);
        encoder.setPattern("%-5level [%thread] %logger - %msg%n");
        encoder.start();
        LockFreeFileAppender appender = TestAppenders.start(context, log, a -> a.setEncoder(encoder));
        ch.qos.logback.classic.Logger logger = context.getLogger("pattern.Test");
        logger.setAdditive(false);
        logger.addAppender(appender);
        runThreads(4, 5000, ti -> logger.info("thread {} event {}", ti[0], ti[1]));
        appender.stop();
        List<String> lines = TestLogback.lines(log);
        assertThat(lines).hasSize(20_000);
        int[] next = new int[4];
        for (String line : lines) {
            assertThat(line).matches("INFO  \\[writer-(\\d)] pattern\\.Test - thread \\1 event \\d+");
            int thread = line.charAt(line.indexOf("writer-") + 7) - '0';
            int seq = Integer.parseInt(line.substring(line.lastIndexOf(' ') + 1));
            assertThat(seq).isEqualTo(next[thread]++);
        }
        assertThat(TestLogback.statusMessages(context, Status.WARN)).noneMatch(m -> m.contains("not known to be safe"));
    }

    @Test
    void jsonEncoderFromManyThreadsGivesOneParsableDocumentPerLine() throws Exception {
        Path log = dir.resolve("json.log");
        JsonEncoder encoder = new JsonEncoder();
        encoder.setContext(context);
        encoder.setWithFormattedMessage(true);
        encoder.start();
        LockFreeFileAppender appender = TestAppenders.start(context, log, a -> a.setEncoder(encoder));
        ch.qos.logback.classic.Logger logger = context.getLogger("json.Test");
        logger.setAdditive(false);
        logger.addAppender(appender);
        runThreads(4, 2000, ti -> logger.warn("json \"quoted\" thread {} event {}", ti[0], ti[1]));
        appender.stop();
        ObjectMapper mapper = new ObjectMapper();
        List<String> lines = TestLogback.lines(log);
        assertThat(lines).as(TestLogback.statuses(context)).hasSize(8000);
        int[] next = new int[4];
        for (String line : lines) {
            JsonNode node = mapper.readTree(line);
            assertThat(node.get("level").asText()).isEqualTo("WARN");
            String thread = node.get("threadName").asText();
            int id = thread.charAt(thread.length() - 1) - '0';
            assertThat(node.get("formattedMessage").asText()).isEqualTo("json \"quoted\" thread " + id + " event " + next[id]);
            next[id]++;
        }
    }

    /** An encoder with shared mutable state: unsafe if two threads call it at once. */
    static final class StatefulEncoder extends EncoderBase<ILoggingEvent> {
        private final StringBuilder shared = new StringBuilder();

        @Override
        public byte[] headerBytes() {
            return null;
        }

        @Override
        public byte[] encode(ILoggingEvent event) {
            shared.setLength(0);
            shared.append(event.getFormattedMessage());
            for (int i = 0; i < 20; i++) {
                shared.append('.');
            }
            shared.append('\n');
            return shared.toString().getBytes(StandardCharsets.UTF_8);
        }

        @Override
        public byte[] footerBytes() {
            return null;
        }
    }

    @Test
    void unknownEncoderIsNotSharedUnguardedAndAWarningSaysSo() throws Exception {
        Path log = dir.resolve("stateful.log");
        StatefulEncoder encoder = new StatefulEncoder();
        encoder.setContext(context);
        encoder.start();
        LockFreeFileAppender appender = TestAppenders.start(context, log, a -> a.setEncoder(encoder));
        assertThat(TestLogback.statusMessages(context, Status.WARN))
                .anyMatch(m -> m.contains(StatefulEncoder.class.getName()) && m.contains("encoded one at a time")
                        && m.contains("\"TEST\""));
        ch.qos.logback.classic.Logger logger = context.getLogger("stateful");
        logger.setAdditive(false);
        logger.addAppender(appender);
        runThreads(4, 5000, ti -> logger.info("t{} e{}", ti[0], ti[1]));
        appender.stop();
        List<String> lines = TestLogback.lines(log);
        assertThat(lines).hasSize(20_000).allMatch(l -> l.matches("t\\d e\\d+\\.{20}"));
        assertThat(lines.stream().distinct().count()).isEqualTo(20_000);
    }

    @Test
    void misconfigurationIsAStatusErrorNamingTheSettingAndTheAppenderDoesNotStart() {
        assertRejected(a -> a.setFile(null), "No <file> set for the appender named \"TEST\"");
        assertRejected(a -> a.setEncoder(null), "No <encoder> set for the appender named \"TEST\"");
        assertRejected(a -> a.setBufferSize(FileSize.valueOf("100000")), "bufferSize=100000",
                "multiple of the page size");
        assertRejected(a -> a.setBufferSize(FileSize.valueOf("4KB")), "bufferSize=4096", "64KB");
        assertRejected(a -> a.setBufferCount(1), "bufferCount=1", "use 2 to 16");
        assertRejected(a -> a.setMaxEventSize(FileSize.valueOf("40KB")), "maxEventSize=40960",
                "half of bufferSize");
        assertRejected(a -> a.setMaxBlockTime(Duration.valueOf("0 seconds")), "maxBlockTime", "positive duration");
        assertRejected(a -> a.setDropBelowLevel("LOUD"), "dropBelowLevel=LOUD", "WARN");
        assertRejected(a -> a.setBackpressure(null), "backpressure", "BLOCK or DROP");
    }

    @Test
    void charsetsWhoseNewlineIsNotTheByte0AAreRefusedNamingTheCharset() {
        for (String name : new String[] {"UTF-16", "UTF-16LE", "UTF-16BE", "UTF-32", "IBM037"}) {
            assertRejected(a -> a.setEncoder(patternEncoder(name)), "charset=" + Charset.forName(name).name()
                    + " for the appender named \"TEST\"", "newline is the one byte 0x0A", "<encoder><charset>");
        }
        for (String name : new String[] {"UTF-8", "ISO-8859-1", "US-ASCII", "windows-1252"}) {
            LoggerContext own = TestLogback.newContext();
            LockFreeFileAppender appender = TestAppenders.create(own, dir.resolve(name + ".log"),
                    a -> a.setEncoder(patternEncoder(name)));
            appender.start();
            assertThat(appender.isStarted()).as("%s: %s", name, TestLogback.statuses(own)).isTrue();
            appender.stop();
        }
    }

    @Test
    void theConsoleRefusesUtf16Too() {
        LockFreeConsoleAppender console = new LockFreeConsoleAppender();
        console.setContext(context);
        console.setName("CONSOLE");
        console.setEncoder(patternEncoder("UTF-16"));
        assertThat(console.checkSettings()).singleElement().satisfies(problem -> {
            assertThat(problem.setting()).isEqualTo("charset");
            assertThat(problem.value()).isEqualTo("UTF-16");
        });
    }

    private PatternLayoutEncoder patternEncoder(String charset) {
        PatternLayoutEncoder encoder = new PatternLayoutEncoder();
        encoder.setContext(context);
        encoder.setPattern("%m%n");
        encoder.setCharset(Charset.forName(charset));
        encoder.start();
        return encoder;
    }

    @Test
    void unwritableDirectoryIsAStatusError() throws Exception {
        Path blocker = dir.resolve("not-a-dir");
        Files.writeString(blocker, "a file where a folder should be");
        LockFreeFileAppender appender = TestAppenders.create(context, blocker.resolve("app.log"), a -> { });
        appender.start();
        assertThat(appender.isStarted()).isFalse();
        assertThat(TestLogback.statusMessages(context, Status.ERROR))
                .anyMatch(m -> m.contains("Cannot create the directory") && m.contains("\"TEST\""));
        // events sent to an appender that never started are not written and do not throw
        appender.doAppend(TestLogback.event(context, Level.INFO, "ignored"));
    }

    private void assertRejected(Consumer<LockFreeFileAppender> setting, String... expected) {
        LoggerContext own = TestLogback.newContext();
        LockFreeFileAppender appender = TestAppenders.create(own, dir.resolve("bad.log"), setting);
        appender.start();
        assertThat(appender.isStarted()).isFalse();
        List<String> errors = TestLogback.statusMessages(own, Status.ERROR);
        assertThat(errors).anySatisfy(m -> assertThat(m).contains(expected));
        assertThat(Files.exists(dir.resolve(".lockfreelog/bad.log.journal"))).isFalse();
    }
}
