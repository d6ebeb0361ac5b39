package io.github.lockfreelog.benchmarks.peers;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class LineCounterTest {

    @TempDir
    Path directory;

    @Test
    void countShouldCountNewlinesAcrossReadBuffers() throws IOException {
        String line = "x".repeat(149) + "\n";
        Path file = Files.writeString(directory.resolve("a.log"), line.repeat(20_000), StandardCharsets.US_ASCII);

        LineCounter.Count count = LineCounter.count(file); // 3 MB: spans several 1 MB reads

        assertThat(count.lines()).isEqualTo(20_000);
        assertThat(count.bytes()).isEqualTo(150L * 20_000);
        assertThat(count.nulBytes()).isZero();
    }

    @Test
    void countShouldNotCountAnUnterminatedLineAndShouldReportANulTail() throws IOException {
        Path file = directory.resolve("b.log");
        Files.write(file, "one\ntwo\nthr".getBytes(StandardCharsets.US_ASCII));
        Files.write(file, new byte[16], java.nio.file.StandardOpenOption.APPEND);

        LineCounter.Count count = LineCounter.count(file);

        assertThat(count.lines()).isEqualTo(2);
        assertThat(count.nulBytes()).isEqualTo(16);
        assertThat(count.bytes()).isEqualTo(11 + 16);
    }

    @Test
    void countShouldTreatAMissingFileAsEmpty() throws IOException {
        assertThat(LineCounter.count(directory.resolve("absent.log"))).isEqualTo(new LineCounter.Count(0, 0, 0));
        assertThat(LineCounter.count(null)).isEqualTo(new LineCounter.Count(0, 0, 0));
    }
}
