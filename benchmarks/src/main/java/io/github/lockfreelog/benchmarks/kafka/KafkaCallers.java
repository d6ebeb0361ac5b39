package io.github.lockfreelog.benchmarks.kafka;

import io.github.lockfreelog.benchmarks.measure.Meters;
import io.github.lockfreelog.benchmarks.peers.Sink;
import io.github.lockfreelog.benchmarks.peers.Workload;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.locks.LockSupport;
import java.util.function.IntFunction;

/** A {@link KafkaFork}'s callers: its threads, each logging back to back or in paced bursts. */
final class KafkaCallers {

    private final int threads;
    private final String message;

    KafkaCallers(int threads, String message) {
        this.threads = threads;
        this.message = message;
    }

    /** Runs {@code body} on {@code threads} caller threads named as the workload names them; their results in order. */
    List<long[]> run(IntFunction<long[]> body) throws InterruptedException {
        List<long[]> results = new ArrayList<>();
        List<Thread> callers = new ArrayList<>();
        AtomicReference<Throwable> failure = new AtomicReference<>();
        for (int i = 0; i < threads; i++) {
            results.add(null);
            int index = i;
            Thread caller = new Thread(() -> {
                try {
                    long[] r = body.apply(index);
                    synchronized (results) {
                        results.set(index, r);
                    }
                } catch (Throwable t) {
                    failure.compareAndSet(null, t);
                }
            }, Workload.threadName(i));
            callers.add(caller);
        }
        callers.forEach(Thread::start);
        for (Thread caller : callers) {
            caller.join();
        }
        if (failure.get() != null) {
            throw new IllegalStateException("a caller failed: " + failure.get(), failure.get());
        }
        synchronized (results) {
            return List.copyOf(results);
        }
    }

    /** Logs back to back until {@code until} (System.nanoTime), reading the clock every {@value KafkaFork#CALLS_PER_CLOCK_READ} calls. */
    long loop(Sink sink, long until) {
        String line = message;
        long calls = 0;
        do {
            for (int i = 0; i < KafkaFork.CALLS_PER_CLOCK_READ; i++) {
                sink.log(line);
            }
            calls += KafkaFork.CALLS_PER_CLOCK_READ;
        } while (System.nanoTime() - until < 0);
        return calls;
    }

    /**
     * Caller {@code index}'s bursts: burst {@code k} due at {@code origin + (k * threads + index) * KafkaFork.BURST / rate}; the
     * caller parks until it is due (a caller that is late starts at once), then makes the burst's calls, reading the
     * clock every {@value KafkaFork#CALLS_PER_CLOCK_READ} calls and its own CPU time at the burst's start and end. Calls
     * made before {@code measureFrom} are the warm-up: a burst that crosses it reads the CPU time there too, and only
     * its later part is measured (a blocking peer may spend the whole warm-up in its first burst). It stops at
     * {@code until}, inside a burst too. Returns {measured calls, their CPU nanos, all calls}.
     */
    long[] bursts(Sink sink, long origin, long rate, int index, long measureFrom, long until) {
        String line = message;
        long calls = 0;
        long cpu = 0;
        long all = 0;
        boolean measuring = false;
        for (long k = 0; ; k++) {
            long due = origin + (k * threads + index) * KafkaFork.BURST * 1_000_000_000L / rate;
            if (due - until >= 0) {
                break;
            }
            for (long left; (left = due - System.nanoTime()) > 0; ) {
                LockSupport.parkNanos(left);
            }
            long now = System.nanoTime();
            measuring = measuring || now - measureFrom >= 0;
            long before = Meters.currentThreadCpuNanos();
            int made = 0;
            int warmupCalls = 0; // this burst's calls before measureFrom
            while (made < KafkaFork.BURST && now - until < 0) {
                for (int i = 0; i < KafkaFork.CALLS_PER_CLOCK_READ && made < KafkaFork.BURST; i++, made++) {
                    sink.log(line);
                }
                now = System.nanoTime();
                if (!measuring && now - measureFrom >= 0) { // the warm-up ends inside this burst
                    measuring = true;
                    warmupCalls = made;
                    before = Meters.currentThreadCpuNanos();
                }
            }
            long spent = Meters.currentThreadCpuNanos() - before;
            all += made;
            if (measuring) {
                cpu += spent;
                calls += made - warmupCalls;
            }
            if (now - until >= 0) {
                break;
            }
        }
        return new long[] {calls, cpu, all};
    }
}
