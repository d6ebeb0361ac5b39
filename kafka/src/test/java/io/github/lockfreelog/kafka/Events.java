package io.github.lockfreelog.kafka;

import static org.assertj.core.api.Assertions.assertThat;

import ch.qos.logback.classic.Logger;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/** Numbered events ({@code t<thread> e<number>}) and the checks every test makes of what a topic holds. */
final class Events {

    private Events() {
    }

    static String event(int thread, int number) {
        return "t" + thread + " e" + number + " " + "x".repeat(number % 40);
    }

    /** Logs events {@code from} to {@code to} (excluded) of thread 0 through {@code logger}, each added to {@code logged}. */
    static void log(Logger logger, int from, int to, List<String> logged) {
        for (int i = from; i < to; i++) {
            String event = event(0, i);
            logged.add(event);
            logger.info(event);
        }
    }

    /**
     * Logs {@code events} events from each of {@code threads} threads named {@code caller-<n>} through {@code logger},
     * and returns when all have returned: every event logged, thread by thread.
     */
    static List<String> logFromThreads(Logger logger, int threads, int events)
            throws InterruptedException {
        List<Thread> callers = new ArrayList<>();
        List<String> all = new ArrayList<>();
        for (int t = 0; t < threads; t++) {
            final int thread = t;
            callers.add(new Thread(() -> {
                for (int i = 0; i < events; i++) {
                    logger.info(event(thread, i));
                }
            }, "caller-" + t));
            for (int i = 0; i < events; i++) {
                all.add(event(t, i));
            }
        }
        callers.forEach(Thread::start);
        for (Thread caller : callers) {
            caller.join();
        }
        return all;
    }

    static int thread(String event) {
        return Integer.parseInt(event.substring(1, event.indexOf(' ')));
    }

    static int number(String event) {
        int at = event.indexOf(" e") + 2;
        return Integer.parseInt(event.substring(at, event.indexOf(' ', at)));
    }

    /**
     * No event twice; each thread's events in the order it logged them, with no gap (0, 1, 2, ...); every
     * acknowledged event there.
     */
    static void assertExactlyOnceInOrder(List<String> delivered, Collection<String> acknowledged) {
        Map<Integer, Integer> next = new HashMap<>();
        for (String event : delivered) {
            int thread = thread(event);
            int expected = next.getOrDefault(thread, 0);
            assertThat(number(event)).as("event after t%d e%d (a gap, a duplicate or a reordering)", thread,
                    expected - 1).isEqualTo(expected);
            assertThat(event).isEqualTo(event(thread, expected));
            next.put(thread, expected + 1);
        }
        Set<String> present = new HashSet<>(delivered);
        List<String> missing = acknowledged.stream().filter(event -> !present.contains(event)).toList();
        assertThat(missing).as("acknowledged events missing (of %d)", acknowledged.size()).isEmpty();
    }
}
