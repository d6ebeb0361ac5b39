package io.github.lockfreelog.benchmarks.boot;

import io.github.lockfreelog.benchmarks.cli.Arguments;
import io.github.lockfreelog.benchmarks.cli.Mode;
import java.io.PrintStream;
import java.util.Arrays;
import java.util.List;

/** The {@code boot-app} command ({@link BootAppRunner}), as the command line's registry finds it by name. */
public final class BootCommands implements Mode {

    @Override
    public int run(String[] args, PrintStream out) throws Exception {
        Arguments arguments = Arguments.forMode(args);
        if (arguments == null) {
            return 2;
        }
        try {
            if (arguments.sinks != null) {
                arguments.sinks.forEach(BootAppRunner.BootSink::of);
            }
        } catch (IllegalArgumentException e) {
            System.err.println(e.getMessage());
            System.err.println("usage: java -jar benchmarks/target/benchmarks.jar " + usage());
            return 2;
        }
        return new BootAppRunner(out).run(arguments);
    }

    @Override
    public List<String> requires() {
        return List.of("org.springframework.boot.SpringApplication", "org.springframework.context.ApplicationContext",
                "io.github.lockfreelog.autoconfigure.LockFreeLogAutoConfiguration");
    }

    @Override
    public String usage() {
        return "boot-app [--sinks " + String.join(",", Arrays.stream(BootAppRunner.BootSink.values())
                .map(BootAppRunner.BootSink::id).toList()) + "] [--events N per burst] [--threads N] [--warmup BURSTS]"
                + " [--measure BURSTS] [--forks ROUNDS] [--boot-property NAME=VALUE] [--results DIR]";
    }
}
