package io.github.lockfreelog.benchmarks.otlp;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.lockfreelog.benchmarks.measure.Trial;
import io.github.lockfreelog.benchmarks.peers.Peer;
import io.github.lockfreelog.benchmarks.peers.Sink;
import io.github.lockfreelog.benchmarks.peers.Workload;
import io.github.lockfreelog.benchmarks.results.LineCheck;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The OTLP set's harness: each peer sends what two threads log to a receiver of its own (no run's receiver here), and
 * the line check counts the records the receiver parsed; the receiver keeps bodies and uids when asked. Counts, never
 * speed.
 */
class OtlpSinkTest {

    @ParameterizedTest
    @ValueSource(strings = {"lockfreelog-otlp", "otel-logback-large-queue"})
    void everyRecordAPeerSendsIsCountedByTheReceiver(String id) throws Exception {
        Trial trial = Trial.open(Peer.of(id), 150);
        Sink sink = trial.sink();
        String message = Workload.message(150);
        List<Thread> threads = new ArrayList<>();
        for (int t = 0; t < 2; t++) {
            Thread thread = new Thread(() -> {
                for (int i = 0; i < 1_500; i++) {
                    sink.log(message);
                }
            });
            thread.start();
            threads.add(thread);
        }
        for (Thread thread : threads) {
            thread.join();
        }
        LineCheck check = trial.finish("test", 2, 3_000);
        assertThat(check.written()).as("records the receiver counted").isEqualTo(3_000);
        assertThat(check.bytes()).as("their bodies' bytes").isEqualTo(3_000L * message.length());
    }

    @Test
    void aReceiverThatKeepsRecordsHasEachBodyAndUid() throws IOException {
        try (OtlpReceiver receiver = OtlpReceiver.start(true)) {
            System.setProperty(OtlpReceiver.PROPERTY, receiver.baseUrl());
            Trial trial;
            try {
                trial = Trial.open(Peer.LOCKFREELOG_OTLP, 150);
            } finally {
                System.clearProperty(OtlpReceiver.PROPERTY);
            }
            trial.sink().log("one");
            trial.sink().log("two");
            assertThat(trial.finish("test", 1, 2).written()).isEqualTo(2);
            List<OtlpReceiver.Received> kept = receiver.trials().values().iterator().next().kept;
            assertThat(kept).extracting(OtlpReceiver.Received::body).containsExactly("one", "two");
            assertThat(kept).allSatisfy(r -> assertThat(r.uid()).matches("[0-9a-f]{16}-\\d+-\\d+"));
        }
    }

    @Test
    void theOtlpSetRunsOnlyWhenNamed() {
        assertThat(Peer.defaultIds("quick")).doesNotContain("lockfreelog-otlp", "otel-logback");
        assertThat(Peer.defaultIds("cost")).doesNotContain("lockfreelog-otlp", "otel-logback");
        assertThat(Peer.lead(List.of("otel-logback", "lockfreelog-otlp"))).isEqualTo("lockfreelog-otlp");
    }
}
