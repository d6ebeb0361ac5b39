/**
 * The Kafka modes, apart from the file benchmarks so that those need no broker on their class path: the Kafka peers
 * ({@code KafkaPeer}, {@code KafkaSinks}) and their forks, the run's broker in a JVM of its own ({@code KafkaBroker}),
 * the kafka and kafka-quick modes ({@code KafkaRunner}), the journal-size mode, and the kill test
 * ({@code KillTest}, with its children and their acknowledgement files) that the OTLP kill test shares.
 * {@code KafkaCommands} is what the command line loads by name.
 */
package io.github.lockfreelog.benchmarks.kafka;
