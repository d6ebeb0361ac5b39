package io.github.lockfreelog.kafka;

import io.github.lockfreelog.diagnostics.Printable;
import io.github.lockfreelog.sink.RecordBatch;
import java.util.BitSet;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The events of the batch being delivered that the broker refused for what they are (a {@link SendOutcomes.Refusal}):
 * set aside by their place in the journal, so that a delivery tried again (the same batch, after a failure) neither
 * sends them again nor counts them twice; each counted under its reason, and each reason reported once, as an ERROR
 * with the broker's own words. They never hold up the rest.
 */
final class SetAside {

    private final SlotSettings slot;
    private long journalId;
    private long termCount = -1;
    /** Reason by the event's offset in the term. */
    private final Map<Integer, String> refused = new HashMap<>();

    SetAside(SlotSettings slot) {
        this.slot = slot;
    }

    /**
     * Marks in {@code leftOut} the events of {@code batch} set aside before (a delivery tried again); those too
     * large are said to the batch again, as a new batch counts them anew ({@link RecordBatch#dropTooLarge}).
     */
    void apply(RecordBatch batch, BitSet leftOut) {
        if (batch.journalId() != journalId || batch.termCount() != termCount) {
            journalId = batch.journalId();
            termCount = batch.termCount();
            refused.clear();
            return;
        }
        if (refused.isEmpty()) {
            return;
        }
        for (int i = 0; i < batch.count(); i++) {
            String reason = refused.get(batch.offset(i));
            if (reason != null) {
                leftOut.set(i);
                if (reason.equals("too-large")) {
                    batch.dropTooLarge(1);
                }
            }
        }
    }

    /** Sets {@code refusals} of {@code batch} aside: marked, counted, reported (each reason once per appender). */
    void add(RecordBatch batch, List<SendOutcomes.Refusal> refusals, BitSet leftOut) {
        KafkaCounters counters = slot.counters();
        for (SendOutcomes.Refusal refusal : refusals) {
            if (leftOut.get(refusal.index())) {
                continue;
            }
            leftOut.set(refusal.index());
            refused.put(batch.offset(refusal.index()), refusal.reason());
            counters.refused(refusal.reason());
            if (refusal.reason().equals("too-large")) {
                batch.dropTooLarge(1);
            }
            if (counters.firstRefusal(refusal.reason())) {
                slot.status().error("an event refused by Kafka for topic " + slot.topic() + ", reason "
                        + refusal.reason() + (refusal.reason().equals("too-large") ? " (too large)" : "")
                        + " (the broker said: " + Printable.text(refusal.exception().getMessage())
                        + "): set aside, and counted under that reason; the events after it go on. " + advice(refusal)
                        + " Said once for each reason", null);
            }
        }
    }

    private String advice(SendOutcomes.Refusal refusal) {
        SettingNames names = slot.names();
        switch (refusal.reason()) {
            case "too-large":
                return "Raise the producer's max.request.size and the topic's max.message.bytes, or lower "
                        + names.of("maxEventSize") + " (too-large also counts among the appender's drops).";
            case "invalid-record":
                return "The topic's settings refuse the record: a compacted topic takes only records with a key (set "
                        + names.of("key") + " to one every event has, e.g. thread, or a constant), and a broker's"
                        + " validation may refuse the value.";
            default:
                return "Change what the broker names.";
        }
    }
}
