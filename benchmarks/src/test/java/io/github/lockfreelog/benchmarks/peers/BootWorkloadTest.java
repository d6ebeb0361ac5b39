package io.github.lockfreelog.benchmarks.peers;

import static org.assertj.core.api.Assertions.assertThat;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.LoggerContext;
import ch.qos.logback.classic.encoder.PatternLayoutEncoder;
import ch.qos.logback.classic.spi.LoggingEvent;
import ch.qos.logback.core.encoder.Encoder;
import ch.qos.logback.core.rolling.RollingFileAppender;
import ch.qos.logback.core.rolling.SizeAndTimeBasedRollingPolicy;
import io.github.lockfreelog.benchmarks.report.Report;
import io.github.lockfreelog.benchmarks.results.LineCheck;
import io.github.lockfreelog.benchmarks.results.ThroughputResult;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.slf4j.LoggerFactory;
import org.springframework.boot.system.ApplicationPid;

class BootWorkloadTest {

    private static final String PID = new ApplicationPid().toString();

    @TempDir
    Path directory;

    @Test
    void bootFileShouldTakeBootsOwnFileAppenderPatternAndRollingPolicy() throws Exception {
        BootLogging boot = BootLogging.initialize(Workload.Kind.BOOT_FILE, directory.resolve("app.log"));

        RollingFileAppender<?> file = boot.file();
        assertThat(file.getFile()).isEqualTo(directory.resolve("app.log").toString());
        assertThat(file.getRollingPolicy()).isInstanceOf(SizeAndTimeBasedRollingPolicy.class);
        assertThat(boot.rolling().fileNamePattern()).isEqualTo(directory.resolve("app.log") + ".%d{yyyy-MM-dd}.%i.gz");
        assertThat(boot.rolling().maxHistory()).isEqualTo(7);
        assertThat(boot.rolling().maxFileSize().getSize()).isEqualTo(ch.qos.logback.core.util.FileSize.valueOf("100GB").getSize());
        assertThat(((PatternLayoutEncoder) boot.encoder(BootLogging.FILE)).getPattern())
                .as("Boot's own default file pattern, resolved by Boot").contains("%esb(){APPLICATION_NAME}", "%wEx");
        assertThat(line(boot.encoder(BootLogging.FILE), "hello")).matches("\\S+  INFO " + PID
                + " --- \\[orders-service\\] \\[app-worker-01\\] com\\.example\\.orders\\.OrderService {10}: hello\\n");
    }

    @Test
    void bootConsoleShouldTakeBootsConsolePatternWithItsColourWrappersAndNoColourIntoAPipe() throws Exception {
        BootLogging boot = BootLogging.initialize(Workload.Kind.BOOT_CONSOLE, directory.resolve("app.log"));

        assertThat(((PatternLayoutEncoder) boot.encoder(BootLogging.CONSOLE)).getPattern()).contains("%clr(", "%15.15t");
        String line = line(boot.encoder(BootLogging.CONSOLE), "hello");
        assertThat(line).doesNotContain("\u001b").matches("\\S+  INFO " + PID
                + " --- \\[orders-service\\] \\[  app-worker-01\\] com\\.example\\.orders\\.OrderService {10}: hello\\n");
    }

    @Test
    void bootEcsShouldTakeBootsStructuredEncoderForTheFileAndTheConsole() throws Exception {
        BootLogging boot = BootLogging.initialize(Workload.Kind.BOOT_ECS, directory.resolve("app.log"));

        for (String appender : List.of(BootLogging.FILE, BootLogging.CONSOLE)) {
            assertThat(boot.encoder(appender).getClass().getName())
                    .isEqualTo("org.springframework.boot.logging.logback.StructuredLogEncoder");
            assertThat(line(boot.encoder(appender), "hello")).as(appender).startsWith("{\"@timestamp\":\"")
                    .contains("\"process\":{\"pid\":" + PID + ",\"thread\":{\"name\":\"app-worker-01\"}}",
                            "\"service\":{\"name\":\"orders-service\"", "\"message\":\"hello\"", "\"ecs\":{\"version\":")
                    .endsWith("}\n");
        }
    }

    @Test
    void theLockfreelogPeerShouldWriteTheSameLinesAsBootsFileAppender() throws Exception {
        for (Workload.Kind workload : List.of(Workload.Kind.BOOT_FILE, Workload.Kind.BOOT_ECS)) {
            List<String> boot = logThrough(Peer.SPRING_BOOT_FILE, workload, 50);
            List<String> lockfreelog = logThrough(Peer.LOCKFREELOG, workload, 50);

            assertThat(boot).as(workload.id()).hasSize(50);
            assertThat(withoutTimestamps(lockfreelog)).as(workload.id()).isEqualTo(withoutTimestamps(boot));
            assertThat(boot.get(49)).contains("message 49");
        }
    }

    @Test
    void everyPeerOfTheBootConsoleWorkloadShouldWriteBootsConsoleFormatEvenIntoAFile() throws Exception {
        List<String> lockfreelog = logThrough(Peer.LOCKFREELOG, Workload.Kind.BOOT_CONSOLE, 3);

        assertThat(lockfreelog).hasSize(3).allMatch(line -> line.contains(" --- [orders-service] [  app-worker-01] "));
    }

    @Test
    void bootsConsoleAndLockfreelogsConsoleShouldDeliverEveryLineIntoThePipe() throws Exception {
        for (Workload.Kind workload : List.of(Workload.Kind.BOOT_CONSOLE, Workload.Kind.BOOT_ECS)) {
            for (Peer peer : List.of(Peer.SPRING_BOOT_CONSOLE, Peer.LOCKFREELOG_CONSOLE)) {
                Path folder = Files.createTempDirectory(directory, peer.id());
                LogbackSink sink = LogbackSink.open(peer, folder, workload);
                for (int i = 0; i < 1_000; i++) {
                    sink.log("message " + i);
                }
                sink.stop();
                LineCounter.Count count = sink.count();

                assertThat(count.lines()).as(workload.id() + " " + peer.id()).isEqualTo(1_000);
                assertThat(count.bytes()).as("Boot's format, not the classic one").isGreaterThan(1_000L * 100);
            }
        }
    }

    @Test
    void bootPropertiesFromTheCommandLineShouldReachBootsEnvironment() {
        System.setProperty(BootLogging.PROPERTY_PREFIX + "logging.pattern.file", "%m%n");
        try {
            BootLogging boot = BootLogging.initialize(Workload.Kind.BOOT_FILE, directory.resolve("app.log"));

            assertThat(((PatternLayoutEncoder) boot.encoder(BootLogging.FILE)).getPattern()).isEqualTo("%m%n");
            assertThat(boot.properties()).containsEntry("logging.pattern.file", "%m%n");
        } finally {
            System.clearProperty(BootLogging.PROPERTY_PREFIX + "logging.pattern.file");
        }
    }

    @Test
    void eachBootWorkloadShouldRunBootsAppendersAgainstLockfreelogByDefault() {
        assertThat(Peer.defaultIds("cost", Workload.Kind.BOOT_FILE))
                .containsExactly("lockfreelog", "logback-file", "spring-boot-file", "encode-only", "logback-nop");
        assertThat(Peer.defaultIds("quick", Workload.Kind.BOOT_CONSOLE))
                .containsExactly("lockfreelog-console", "spring-boot-console", "encode-only");
        assertThat(Peer.defaultIds("quick", Workload.Kind.BOOT_ECS)).containsExactly("lockfreelog", "lockfreelog-console",
                "spring-boot-file", "spring-boot-console", "encode-only");
        assertThat(Peer.defaultIds("quick")).as("the classic workload's peers are as before")
                .doesNotContain("spring-boot-file", "spring-boot-console");
    }

    @Test
    void aBootRunsThroughputReportShouldGiveWrittenLineLengthAndNoTargetsOfTheClassicPeers() {
        Report report = new Report(List.of(
                new ThroughputResult("lockfreelog", 1, 150, 700_000, 1, 600, new LineCheck(1_000, 1_000, 167_000, 0)),
                new ThroughputResult("spring-boot-file", 1, 150, 130_000, 1, 1_250, new LineCheck(500, 500, 83_500, 0))));

        assertThat(report.render()).contains("150-byte classic lines' message, 167 bytes per written line")
                .contains("Targets: none in throughput for a boot-* run").doesNotContain(">= 2x logback-file");
    }

    private List<String> logThrough(Peer peer, Workload.Kind workload, int lines) throws Exception {
        Path folder = Files.createTempDirectory(directory, peer.id());
        LogbackSink sink = LogbackSink.open(peer, folder, workload);
        Thread worker = new Thread(() -> {
            for (int i = 0; i < lines; i++) {
                sink.log("message " + i);
            }
        }, Workload.threadName(0));
        worker.start();
        worker.join();
        sink.stop();
        return Files.readAllLines(sink.logFile(), StandardCharsets.UTF_8);
    }

    /** The lines with their first field (the date, or ecs's {@code @timestamp}) blanked. */
    private static List<String> withoutTimestamps(List<String> lines) {
        List<String> result = new ArrayList<>();
        for (String line : lines) {
            result.add(line.replaceFirst("^\\S+ ", "DATE ").replaceFirst("\"@timestamp\":\"[^\"]+\"", "\"@timestamp\":\"T\""));
        }
        return result;
    }

    private static String line(Encoder<?> encoder, String message) {
        LoggerContext context = (LoggerContext) LoggerFactory.getILoggerFactory();
        LoggingEvent event = new LoggingEvent(BootWorkloadTest.class.getName(), context.getLogger(Workload.LOGGER_NAME),
                Level.INFO, message, null, null);
        event.setThreadName(Workload.threadName(0));
        @SuppressWarnings("unchecked")
        Encoder<LoggingEvent> typed = (Encoder<LoggingEvent>) encoder;
        return new String(typed.encode(event), StandardCharsets.UTF_8);
    }
}
