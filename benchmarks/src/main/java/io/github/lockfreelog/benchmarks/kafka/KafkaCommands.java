package io.github.lockfreelog.benchmarks.kafka;

import io.github.lockfreelog.benchmarks.cli.Arguments;
import io.github.lockfreelog.benchmarks.cli.Mode;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.stream.Collectors;

/**
 * The Kafka commands, as the command line's registry (the cli package's {@code Modes}) finds them by name:
 * {@code kafka} and {@code kafka-quick} ({@link KafkaRunner}), {@code kafka-kill} ({@link KafkaKillRunner}) and
 * {@code kafka-journal} ({@link KafkaJournalRunner}); and the kafka mode's saved runs for {@code report} and
 * {@code chart}.
 */
public final class KafkaCommands implements Mode {

    @Override
    public int run(String[] args, PrintStream out) throws Exception {
        switch (args[0]) {
            case "kafka-kill" -> {
                return new KafkaKillRunner(out).run(args);
            }
            case "kafka-journal" -> {
                return new KafkaJournalRunner(out).run(args);
            }
            default -> {
                Arguments arguments = Arguments.forMode(args);
                if (arguments == null) {
                    return 2;
                }
                try {
                    if (arguments.peers != null) {
                        arguments.peers.forEach(KafkaPeer::of);
                    }
                } catch (IllegalArgumentException e) {
                    System.err.println(e.getMessage());
                    System.err.println("usage: java -jar benchmarks/target/benchmarks.jar " + usage());
                    return 2;
                }
                return new KafkaRunner(out).run(arguments);
            }
        }
    }

    @Override
    public String usage() {
        return "kafka|kafka-quick [--peers " + String.join(",", KafkaPeer.ids()) + "] [--threads, --rates, --warmup,"
                + " --measure, --forks, --producer-property, --spin-micros as above]\n   or: java -jar"
                + " benchmarks/target/benchmarks.jar " + new KafkaKillRunner(System.out).usage()
                + "\n   or: java -jar benchmarks/target/benchmarks.jar " + KafkaJournalRunner.USAGE;
    }

    @Override
    public List<String> requires() {
        return List.of("org.apache.kafka.clients.producer.KafkaProducer", "io.github.lockfreelog.kafka.LockFreeKafkaAppender",
                "com.github.danielwegener.logback.kafka.KafkaAppender", "org.springframework.kafka.test.EmbeddedKafkaKraftBroker",
                "io.github.lockfreelog.testsupport.ChildJvm");
    }

    @Override
    public String peers() {
        return "kafka peers (kafka, kafka-quick):\n" + Arrays.stream(KafkaPeer.values())
                .map(p -> String.format(Locale.ROOT, "%-22s %s%n", p.id(), p.description())).collect(Collectors.joining());
    }

    @Override
    public boolean reads(Path tsv) {
        return KafkaResult.isKafkaRun(tsv);
    }

    @Override
    public void report(Path tsv, PrintStream out) throws IOException {
        out.print(new KafkaReport(KafkaResult.read(tsv)).render());
    }

    @Override
    public void chart(Path tsv, Path png, Path docs, String subtitle, PrintStream out) throws IOException {
        KafkaCharts.draw(KafkaResult.read(tsv), List.of(), tsv, png != null ? png : docs.resolve("benchmark-kafka.png"),
                null, subtitle, out);
    }
}
