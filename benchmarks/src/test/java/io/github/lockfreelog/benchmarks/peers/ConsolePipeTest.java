package io.github.lockfreelog.benchmarks.peers;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ConsolePipeTest {

    @TempDir
    Path directory;

    @Test
    void theReaderShouldCountWhatBothTheDescriptorAndTheReplacedSystemOutWrote() throws IOException {
        PrintStream before = System.out;
        ConsolePipe pipe = ConsolePipe.open(directory, "test");
        try {
            String line = "x".repeat(149) + "\n";
            pipe.out().write(line.repeat(10_000).getBytes(StandardCharsets.US_ASCII)); // 1.5 MB: fills the pipe many times
            pipe.replaceSystemOut();
            System.out.print(line);
            System.out.print("unterminated");
        } finally {
            pipe.restoreSystemOut();
        }
        ConsolePipe.Received received = pipe.finish();

        assertThat(System.out).isSameAs(before);
        assertThat(received.count().lines()).isEqualTo(10_001);
        assertThat(received.count().bytes()).isEqualTo(150L * 10_001 + "unterminated".length());
        assertThat(received.readerCpuNanos()).isNotNegative();
        assertThat(pipe.finish()).isSameAs(received);
        assertThat(pipe.details()).startsWith("reader=wc readerCpuMs=");
    }

    @Test
    void parseShouldReadWcsCountsAndItsCpuFromTheShellsTimes() {
        ConsolePipe.Received received = ConsolePipe.parse("  650566 97584900\n0m0.001000s 0m0.002000s\n0m0.110000s 0m0.500000s\n");

        assertThat(received.count()).isEqualTo(new LineCounter.Count(650_566, 97_584_900, 0));
        assertThat(received.readerCpuNanos()).isEqualTo(610_000_000L);
        assertThat(ConsolePipe.parse("3 12\n").readerCpuNanos()).as("without times").isEqualTo(-1);
        assertThat(ConsolePipe.parse("1 2\n0m0.00s 0m0.00s\n1m2.50s 0m0.50s\n").readerCpuNanos()).isEqualTo(63_000_000_000L);
    }

}
