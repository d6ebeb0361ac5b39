package io.github.lockfreelog.benchmarks.otlp;

import io.github.lockfreelog.benchmarks.cli.Mode;
import java.io.PrintStream;
import java.util.List;

/**
 * The {@code otlp-kill} command ({@link OtlpKillRunner}), as the command line's registry finds it by name. The OTLP
 * peers of the file modes ({@code --peers lockfreelog-otlp,...}) need no command: the peers package opens their
 * {@link OtlpSink} and the runner starts their {@link OtlpReceiver} by name.
 */
public final class OtlpCommands implements Mode {

    @Override
    public int run(String[] args, PrintStream out) throws Exception {
        return new OtlpKillRunner(out).run(args);
    }

    @Override
    public List<String> requires() {
        return List.of("io.github.lockfreelog.otlp.LockFreeOtlpAppender", "io.opentelemetry.sdk.OpenTelemetrySdk",
                "io.opentelemetry.instrumentation.logback.appender.v1_0.OpenTelemetryAppender",
                "io.github.lockfreelog.testsupport.ChildJvm");
    }

    @Override
    public String usage() {
        return new OtlpKillRunner(System.out).usage();
    }
}
