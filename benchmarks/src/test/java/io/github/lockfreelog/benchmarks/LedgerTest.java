package io.github.lockfreelog.benchmarks;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class LedgerTest {

    @Test
    void readShouldAddUpTheForksOfOneConfiguration(@TempDir Path directory) throws IOException {
        Path ledger = directory.resolve("sub").resolve("run.lines.tsv");
        Ledger.append(ledger, new Ledger.Entry("thrpt", "logback-async", 2, 150, 100, 60, 9000, 0, "a"));
        Ledger.append(ledger, new Ledger.Entry("thrpt", "logback-async", 2, 150, 100, 100, 15000, 0, "b"));
        Ledger.append(ledger, new Ledger.Entry("thrpt", "encode-only", 2, 150, 50, -1, 0, 0, ""));

        Map<String, Ledger.Entry> entries = Ledger.read(ledger);

        assertThat(Files.readAllLines(ledger).get(0)).isEqualTo(Ledger.HEADER);
        Ledger.Entry async = Ledger.find(entries, "thrpt", "logback-async", 2, 150);
        assertThat(async.accepted()).isEqualTo(200);
        assertThat(async.written()).isEqualTo(160);
        assertThat(async.lost()).isEqualTo(40);
        assertThat(async.losing()).isTrue();
        assertThat(async.deliveredFraction()).isEqualTo(0.8);
        assertThat(async.bytesPerLine()).isEqualTo(150.0);
        assertThat(async.details()).isEqualTo("a | b");
        Ledger.Entry encodeOnly = Ledger.find(entries, "thrpt", "encode-only", 2, 150);
        assertThat(encodeOnly.losing()).as("a peer without a file loses nothing").isFalse();
        assertThat(encodeOnly.deliveredFraction()).isEqualTo(1.0);
        assertThat(Ledger.find(entries, "thrpt", "logback-async", 4, 150)).isNull();
    }

    @Test
    void readShouldKeepTabsAndNewlinesOfDetailsOutOfTheFormat(@TempDir Path directory) throws IOException {
        Path ledger = directory.resolve("run.lines.tsv");
        Ledger.append(ledger, new Ledger.Entry("sample", "lockfreelog", 1, 64, 5, 5, 510, 0, "x\ty\nz"));

        Ledger.Entry entry = Ledger.find(Ledger.read(ledger), "sample", "lockfreelog", 1, 64);

        assertThat(entry.details()).isEqualTo("x y z");
        assertThat(entry.losing()).isFalse();
    }

    @Test
    void readShouldTreatAMissingLedgerAsEmpty(@TempDir Path directory) throws IOException {
        assertThat(Ledger.read(directory.resolve("absent.tsv"))).isEmpty();
    }
}
