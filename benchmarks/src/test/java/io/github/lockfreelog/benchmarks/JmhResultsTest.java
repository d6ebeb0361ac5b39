package io.github.lockfreelog.benchmarks;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import io.github.lockfreelog.benchmarks.JmhResults.Result;
import java.io.IOException;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class JmhResultsTest {

    @Test
    void readShouldParseParamsScoresUnitsAndAllocation() throws Exception {
        List<Result> results = JmhResults.read(sample());

        assertThat(results).hasSize(3);
        Result lockFree = results.get(0);
        assertThat(lockFree.mode()).isEqualTo("thrpt");
        assertThat(lockFree.peer()).isEqualTo("lockfreelog");
        assertThat(lockFree.lineSize()).isEqualTo(150);
        assertThat(lockFree.threads()).isEqualTo(2);
        assertThat(lockFree.opsPerSecond()).isEqualTo(2_000_000.0); // 2000 ops/ms
        assertThat(lockFree.allocatedBytesPerOp()).isEqualTo(776.5);
    }

    @Test
    void readShouldAcceptTheOlderDottedProfilerMetricName() throws Exception {
        Result async = JmhResults.read(sample()).get(1);

        assertThat(async.allocatedBytesPerOp()).isEqualTo(360.0);
        assertThat(async.scoreError()).isNaN();
    }

    @Test
    void readShouldConvertSampleTimePercentilesToNanoseconds() throws Exception {
        Result sample = JmhResults.read(sample()).get(2);

        assertThat(sample.percentileNanos("50.0")).isCloseTo(400.0, within(1e-9));
        assertThat(sample.percentileNanos("99.99")).isCloseTo(150_000.0, within(1e-9));
        assertThat(sample.percentileNanos("99.999")).isNaN();
        assertThat(sample.allocatedBytesPerOp()).isNaN();
    }

    @Test
    void readShouldRejectJsonThatIsNotAnArrayOfResults(@TempDir Path directory) throws IOException {
        Path json = Files.writeString(directory.resolve("x.json"), "{\"benchmark\": 1}");

        assertThatThrownBy(() -> JmhResults.read(json)).isInstanceOf(IOException.class).hasMessageContaining("array");
    }

    static Path sample() throws URISyntaxException {
        return Paths.get(JmhResultsTest.class.getResource("/jmh-sample.json").toURI());
    }
}
