/**
 * A Kafka topic as a record sink: {@link io.github.lockfreelog.kafka.LockFreeKafkaAppender} writes each event into
 * its journal on the caller's thread, and the drainer delivers the journal's events in transactions whose commit
 * carries the journal's position, so that {@code read_committed} consumers see each acknowledged event exactly once,
 * through crashes and outages (docs/kafka.md). Depends on core and the Kafka client only.
 */
package io.github.lockfreelog.kafka;
