package io.github.lockfreelog.kafka;

import io.github.lockfreelog.sink.RecordSink;
import java.io.IOException;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.common.config.ConfigException;
import org.apache.kafka.common.errors.AuthorizationException;
import org.apache.kafka.common.errors.InvalidProducerEpochException;
import org.apache.kafka.common.errors.InvalidTimestampException;
import org.apache.kafka.common.errors.ProducerFencedException;
import org.apache.kafka.common.errors.TopicAuthorizationException;
import org.apache.kafka.common.errors.TransactionalIdAuthorizationException;
import org.apache.kafka.common.errors.UnsupportedVersionException;

/**
 * Kafka's exceptions translated into what the user should do: a refusal that a setting or a grant must change
 * ({@link RecordSink.RefusedException}: an ERROR), or an outage ({@link IOException}: a WARN, retried). Never a
 * {@code KafkaException}: recovery would take that for a damaged journal. The settings are named as the user sets
 * them ({@link SettingNames}).
 */
final class KafkaAdvice {

    private final SlotSettings slot;

    KafkaAdvice(SlotSettings slot) {
        this.slot = slot;
    }

    /** The failure of {@code what}; {@code transactionNanos}, how long the failed transaction was open (-1: none). */
    IOException failure(String what, Exception e, long transactionNanos) {
        slot.counters().failed();
        SettingNames names = slot.names();
        String message = what + " failed: " + e;
        String id = slot.slotId();
        String transactionsOff = "transactional=false (" + names.assignment("transactional", "false")
                + ": at least once, no transactions)";
        for (Throwable cause = e; cause != null; cause = cause.getCause()) {
            if (cause instanceof ProducerFencedException || cause instanceof InvalidProducerEpochException) {
                return new IOException(message + ": " + fenced(transactionNanos), e);
            }
            if (cause instanceof TransactionalIdAuthorizationException) {
                return new RecordSink.RefusedException(message + ": the client's principal may not use transactional.id "
                        + id + "; grant it WRITE and DESCRIBE on that id (this appender's ids all begin with "
                        + names.of("transactionalIdPrefix") + "), or set " + transactionsOff, e);
            }
            if (cause instanceof TopicAuthorizationException) {
                return new RecordSink.RefusedException(message + ": the client's principal is refused topic "
                        + slot.topic() + (slot.transactional() ? " or its position topic " + slot.positionTopic() : "")
                        + "; grant it DESCRIBE and WRITE there" + (slot.transactional() ? " (and READ on the position"
                        + " topic)" : "") + ", or set " + names.of(SettingNames.SECURITY), e);
            }
            if (cause instanceof ConfigException) {
                return new RecordSink.RefusedException(message + ": Kafka's client refuses its settings ("
                        + cause.getMessage() + "); change the setting it names (" + names.of(SettingNames.PRODUCER) + ")", e);
            }
            if (cause instanceof UnsupportedVersionException && slot.transactional()) {
                return new RecordSink.RefusedException(message + ": the broker does not support what the sink needs ("
                        + cause.getMessage() + "); a broker without transactions takes " + transactionsOff, e);
            }
            if (cause instanceof InvalidTimestampException) {
                // the sink sets no timestamp: the producer stamps each record with this host's clock, so a refusal
                // is about the clock (or the topic's limits), the same for every record: tried again, never set aside
                return new RecordSink.RefusedException(message + ": the broker refuses the records' timestamps, which"
                        + " this host's clock set: it is likely off from the brokers' clocks by more than topic "
                        + slot.topic() + (slot.transactional() ? " (or " + slot.positionTopic() + ")" : "")
                        + " allows (message.timestamp.before.max.ms and message.timestamp.after.max.ms, or"
                        + " message.timestamp.difference.max.ms on brokers before Kafka 3.6). Set the clocks right (NTP)"
                        + " or widen those topic settings; the events wait in the journal and go once the broker takes"
                        + " them", e);
            }
            if (cause instanceof AuthorizationException) {
                return new RecordSink.RefusedException(message + ": Kafka refuses the client's principal ("
                        + cause.getMessage() + "); grant it what the message names, or set "
                        + names.of(SettingNames.SECURITY), e);
            }
        }
        return new IOException(message, e);
    }

    /**
     * Why a producer was fenced: the broker aborted a transaction open longer than {@code transaction.timeout.ms}
     * (it bumps the epoch, which the producer then reads as a fence), or another producer took the id: another
     * instance with the same {@code transactionalIdPrefix}, since this process opens one producer per id at a time.
     */
    String fenced(long transactionNanos) {
        long timeout = slot.transactionTimeoutNanos();
        if (transactionNanos >= 0 && transactionNanos >= timeout) {
            return "the broker aborted the transaction of transactional.id " + slot.slotId() + " after it had been open "
                    + TimeUnit.NANOSECONDS.toMillis(transactionNanos) + " ms, longer than transaction.timeout.ms ("
                    + TimeUnit.NANOSECONDS.toMillis(timeout) + " ms): the batch goes again, split to fit (raise"
                    + " transaction.timeout.ms, up to the brokers' transaction.max.timeout.ms, for a slow link)";
        }
        return "another producer took transactional.id " + slot.slotId() + " (this process uses one producer per id at"
                + " a time): two instances share " + slot.names().of("transactionalIdPrefix")
                + " and fence each other in turn; give each instance its own";
    }
}
