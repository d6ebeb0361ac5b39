package io.github.lockfreelog.benchmarks.kafka;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class KafkaKillTallyTest {

    private static List<String> events(int thread, int... numbers) {
        List<String> events = new ArrayList<>();
        for (int n : numbers) {
            events.add(KafkaKillChild.event(thread, n));
        }
        return events;
    }

    @Test
    void everyAcknowledgedEventOnceInOrderShouldCountNothingWrong() {
        List<String> topic = new ArrayList<>(events(0, 0, 1, 2));
        topic.addAll(1, events(1, 0, 1)); // threads interleave: that is no disorder
        topic.add(KafkaKillChild.MARKER);
        KafkaKillTally tally = KafkaKillTally.of(topic, new long[] {2, 1, -1, -1});
        assertThat(tally.acknowledged).isEqualTo(5);
        assertThat(tally.found).isEqualTo(5);
        assertThat(tally.missing).isZero();
        assertThat(tally.duplicates).isZero();
        assertThat(tally.outOfOrder).isZero();
        assertThat(tally.beyondAcknowledged).isZero();
        assertThat(tally.foreign).isZero();
        assertThat(tally.markers).isEqualTo(1);
    }

    @Test
    void gapsShouldBeMissingAndTheEventBeingLoggedShouldBeBeyondTheAcknowledged() {
        // thread 0 acknowledged 0..4 and was logging 5; 1 and 3 never arrived
        KafkaKillTally tally = KafkaKillTally.of(events(0, 0, 2, 4, 5), new long[] {4, -1, -1, -1});
        assertThat(tally.acknowledged).isEqualTo(5);
        assertThat(tally.found).isEqualTo(4);
        assertThat(tally.missing).isEqualTo(2);
        assertThat(tally.beyondAcknowledged).isEqualTo(1);
        assertThat(tally.duplicates).isZero();
        assertThat(tally.outOfOrder).isZero();
    }

    @Test
    void aRepeatShouldBeADuplicateAndAnEarlierNumberAfterALaterOneOutOfOrder() {
        // 1 sent again after 2 (a retry): a duplicate, not a reordering; 4 before 3: 3 is out of order
        KafkaKillTally tally = KafkaKillTally.of(events(0, 0, 1, 2, 1, 4, 3), new long[] {4, -1, -1, -1});
        assertThat(tally.duplicates).isEqualTo(1);
        assertThat(tally.outOfOrder).isEqualTo(1);
        assertThat(tally.missing).isZero();
        assertThat(tally.found).isEqualTo(6);
    }

    @Test
    void valuesNoThreadLoggedShouldBeForeign() {
        List<String> topic = new ArrayList<>(events(0, 0));
        topic.add("not an event");
        topic.add(KafkaKillChild.event(0, 7)); // beyond the acknowledged 0 and the 1 being logged: never logged
        topic.add(KafkaKillChild.event(9, 0)); // no such thread
        topic.add("t0 e1 wrong padding");
        KafkaKillTally tally = KafkaKillTally.of(topic, new long[] {0, -1, -1, -1});
        assertThat(tally.foreign).isEqualTo(4);
        assertThat(tally.found).isEqualTo(1);
        assertThat(tally.missing).isZero();
    }
}
