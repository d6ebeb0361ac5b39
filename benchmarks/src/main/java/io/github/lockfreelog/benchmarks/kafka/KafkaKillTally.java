package io.github.lockfreelog.benchmarks.kafka;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.BitSet;
import java.util.List;

/**
 * What a topic holds against what the killed child acknowledged, per thread: acknowledged events missing, copies
 * beyond the first (duplicates), events that came after a later one of their thread (out of order), events beyond the
 * acknowledged ones (at most the one each thread was logging when it died: its call had not returned), and values that
 * are no event of a thread that logged ({@code foreign}: they should not exist).
 */
public final class KafkaKillTally {

    final long acknowledged;
    final long found;
    final long missing;
    final long duplicates;
    final long outOfOrder;
    final long beyondAcknowledged;
    final long foreign;
    public final int markers;

    private KafkaKillTally(long acknowledged, long found, long missing, long duplicates, long outOfOrder, long beyond,
            long foreign, int markers) {
        this.acknowledged = acknowledged;
        this.found = found;
        this.missing = missing;
        this.duplicates = duplicates;
        this.outOfOrder = outOfOrder;
        this.beyondAcknowledged = beyond;
        this.foreign = foreign;
        this.markers = markers;
    }

    /**
     * Counts {@code values} (the topic, in offset order) against {@code acks}: thread {@code t} acknowledged events 0 to
     * {@code acks[t]} ({@code -1}: none). {@link KafkaKillChild#MARKER} is counted apart.
     */
    public static KafkaKillTally of(List<String> values, long[] acks) {
        int threads = acks.length;
        List<BitSet> seen = new ArrayList<>();
        long[] highest = new long[threads];
        Arrays.fill(highest, -1);
        long acknowledged = 0;
        for (long ack : acks) {
            acknowledged += ack + 1;
            seen.add(new BitSet());
        }
        long found = 0;
        long duplicates = 0;
        long outOfOrder = 0;
        long beyond = 0;
        long foreign = 0;
        int markers = 0;
        for (String value : values) {
            if (value.equals(KafkaKillChild.MARKER)) {
                markers++;
                continue;
            }
            int[] event = parse(value);
            if (event == null || event[0] < 0 || event[1] < 0 || event[0] >= threads || !value.equals(KafkaKillChild.event(event[0], event[1]))
                    || event[1] > acks[event[0]] + 1) {
                foreign++; // not an event, or one its thread never logged (its call for the one before never returned)
                continue;
            }
            found++;
            int thread = event[0];
            int number = event[1];
            if (seen.get(thread).get(number)) {
                duplicates++;
                continue;
            }
            seen.get(thread).set(number);
            if (number < highest[thread]) {
                outOfOrder++;
            }
            highest[thread] = Math.max(highest[thread], number);
            if (number > acks[thread]) {
                beyond++;
            }
        }
        long missing = 0;
        for (int t = 0; t < threads; t++) {
            missing += (acks[t] + 1) - seen.get(t).get(0, (int) (acks[t] + 1)).cardinality();
        }
        return new KafkaKillTally(acknowledged, found, missing, duplicates, outOfOrder, beyond, foreign, markers);
    }

    /** {@code {thread, number}} of {@code t<thread> e<number> ...}, or {@code null}. */
    private static int[] parse(String value) {
        int space = value.indexOf(' ');
        if (!value.startsWith("t") || space < 2 || !value.startsWith(" e", space)) {
            return null;
        }
        int end = value.indexOf(' ', space + 2);
        try {
            return new int[] {Integer.parseInt(value.substring(1, space)),
                    Integer.parseInt(value.substring(space + 2, end < 0 ? value.length() : end))};
        } catch (NumberFormatException e) {
            return null;
        }
    }
}
