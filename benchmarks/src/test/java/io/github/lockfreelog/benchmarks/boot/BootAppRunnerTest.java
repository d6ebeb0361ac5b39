package io.github.lockfreelog.benchmarks.boot;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.lockfreelog.benchmarks.boot.BootAppRunner.BootSink;
import io.github.lockfreelog.benchmarks.boot.BootAppRunner.Fork;
import io.github.lockfreelog.benchmarks.cli.Arguments;
import java.io.ByteArrayOutputStream;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.zip.GZIPOutputStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class BootAppRunnerTest {

    @TempDir
    Path directory;

    /** Four Spring Boot applications, one per sink, each in its own JVM: every burst line must come through its sink. */
    @Test
    void everySinkShouldDeliverEveryBurstLineThroughTheAppenderItNames() throws Exception {
        ByteArrayOutputStream captured = new ByteArrayOutputStream();
        Arguments arguments = Arguments.forMode(new String[] {"boot-app", "--events", "2000", "--threads", "2", "--warmup",
                "1", "--measure", "2", "--results", directory.toString()});

        int exit = new BootAppRunner(new PrintStream(captured, true, StandardCharsets.UTF_8)).run(arguments);

        String output = captured.toString(StandardCharsets.UTF_8);
        assertThat(exit).as(output).isZero();
        Matcher forks = Pattern.compile("\\[boot-app\\] sink=(\\S+) round=1 bestMs=\\d+ burstsMs=\\[\\d+, \\d+\\] "
                + "delivered=(\\d+) expected=(\\d+) appenders=(\\S+)").matcher(output);
        int sinks = 0;
        while (forks.find()) {
            sinks++;
            assertThat(forks.group(2)).as(forks.group(1)).isEqualTo("6000").isEqualTo(forks.group(3));
        }
        assertThat(sinks).as(output).isEqualTo(4);
        assertThat(output).doesNotContain("LOST").contains("| lockfreelog-file: ");
    }

    @Test
    void theReportShouldCompareEachLockfreelogSinkWithBootsOwnOfTheSameKind() {
        List<Fork> forks = List.of(new Fork(BootSink.BOOT_CONSOLE, 1, List.of(1_300_000_000L, 1_200_000_000L), 10, 10, ""),
                new Fork(BootSink.LOCKFREELOG_CONSOLE, 1, List.of(400_000_000L), 10, 10, ""),
                new Fork(BootSink.BOOT_FILE, 1, List.of(1_000_000_000L), 10, 10, ""),
                new Fork(BootSink.LOCKFREELOG_FILE, 1, List.of(250_000_000L), 10, 9, ""));

        String text = BootAppRunner.render(forks, 300_000, 4, 1, 4);

        assertThat(text).contains("300,000 lines from 4 threads per burst, best of 4 after 1 warm-up burst")
                .contains("| 1200 | [1200] | all 10 |").contains("| 250 | [250] | LOST 1 of 10 |")
                .contains("[MISSED] lockfreelog-console at least 4x faster than boot-console")
                .contains("400 vs 1200 ms (3.0x)")
                .contains("[MET   ] lockfreelog-file at least 3x faster than boot-file");
    }

    @Test
    void theLineCheckShouldCountBurstLinesInTheLiveFileAndInItsRolledArchives() throws Exception {
        Files.writeString(directory.resolve("app.log"), "started\nburst event 1 from thread 0 of 1\n");
        try (OutputStream out = new GZIPOutputStream(Files.newOutputStream(directory.resolve("app.log.2026-12-02.0.gz")))) {
            out.write("burst event 0 from thread 0 of 1\nother\nburst event 2 from thread 0 of 1\n"
                    .getBytes(StandardCharsets.UTF_8));
        }
        Files.writeString(directory.resolve("other.log"), "burst event 9 from thread 0 of 1\n");

        assertThat(BootAppRunner.countMarked(directory)).isEqualTo(3);
    }

    @Test
    void eachSinkShouldGetTheArgumentsThatMakeItTheOnlyOneAndTheUsersPropertiesLast() {
        assertThat(BootAppRunner.applicationArguments(BootSink.BOOT_FILE, directory,
                Map.of("logging.logback.rollingpolicy.max-file-size", "100GB")))
                .containsExactly("--spring.application.name=orders-service", "--spring.main.banner-mode=off",
                        "--logging.file.name=" + directory.resolve("app.log"), "--lockfreelog.enabled=false",
                        "--logging.threshold.console=OFF", "--logging.logback.rollingpolicy.max-file-size=100GB");
        assertThat(BootAppRunner.applicationArguments(BootSink.LOCKFREELOG_CONSOLE, directory, Map.of()))
                .containsExactly("--spring.application.name=orders-service", "--spring.main.banner-mode=off",
                        "--lockfreelog.console.journal=" + directory.resolve("console.journal"),
                        "--lockfreelog.console.enabled=true");
    }
}
