/**
 * Kafka for the tests, its settings written once: {@link io.github.lockfreelog.testsupport.kafka.KafkaTestBroker} (a
 * KRaft broker in the test JVM, shared or a test's own, with the settings of a one-broker cluster),
 * {@link io.github.lockfreelog.testsupport.kafka.KafkaCluster} (N KRaft nodes, each a process of Kafka's own server
 * main, {@link io.github.lockfreelog.testsupport.kafka.KafkaNode}, that a test stops, kills and restarts) and
 * {@link io.github.lockfreelog.testsupport.kafka.CommittedReader} (what a {@code read_committed} consumer sees, read to
 * the high watermark). Kafka's jars are optional dependencies of this module: a module that uses this package adds
 * {@code spring-kafka-test} to its own tests.
 */
package io.github.lockfreelog.testsupport.kafka;
