package io.github.lockfreelog.records;

import static io.github.lockfreelog.term.JournalDescriptor.DRAIN_CHECK_FIELD;
import static io.github.lockfreelog.term.JournalDescriptor.DRAIN_RECORD_LENGTH;
import static io.github.lockfreelog.term.JournalDescriptor.DRAIN_RECORD_OFFSET;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.github.lockfreelog.drain.DrainOutput;
import io.github.lockfreelog.drain.Drainer;
import io.github.lockfreelog.engine.Backpressure;
import io.github.lockfreelog.engine.EngineConfig;
import io.github.lockfreelog.engine.JournalEngine;
import io.github.lockfreelog.sink.JournalPosition;
import io.github.lockfreelog.sink.RecordBatch;
import io.github.lockfreelog.sink.RecordSink;
import io.github.lockfreelog.term.HeapJournal;
import io.github.lockfreelog.term.Journal;
import io.github.lockfreelog.testing.TestStatus;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;
import org.junit.jupiter.api.Test;

/**
 * Model-checks the delivery protocol of a record sink (the Kafka sink's exactly-once) as
 * {@code JournalModelCheckTest} checks the journal's: the real {@link JournalEngine#append}, the real
 * drainer record path ({@link Drainer#drainDirty}, {@link Drainer#drainTerm} with a {@link RecordLog}) and the
 * real recovery of a left-over journal ({@link RecordRecovery#replay}, with its {@code RecordLog}) run over
 * {@link HeapJournal}s of two 64-byte buffers, against a {@link Broker} that keeps Kafka's transactional rules
 * for one {@code transactional.id}, through a {@link TransactionalSink} that takes the steps
 * {@code KafkaRecordSink} takes.
 *
 * <p><b>The broker.</b> The id has an epoch; {@code initTransactions} bumps it and settles the transaction the
 * earlier epoch left open: completes it if its commit was already asked for ({@code PrepareCommit}), aborts
 * it otherwise. A send or a commit of a fenced epoch fails. A commit's answer can be lost (the broker wrote
 * {@code PrepareCommit}, the producer saw a failure), or its request can still be on its way when the producer
 * gives up; either is then finished by the broker late, as an actor of its own: the commit markers of a
 * {@code PrepareCommit} written, the request arriving (refused if its epoch was fenced meanwhile). The broker
 * also aborts an open transaction on its timeout (and bumps the epoch). A {@code read_committed} reader sees
 * committed records only, and none past the first transaction still open. Every call can fail before the broker
 * acted on it (a broker that is down), and the answer to a send or to {@code initTransactions} can be lost
 * after it. Positions are read as the Kafka sink reads them:
 * the high watermark of the position topic, then {@code read_committed} up to it, waiting (one turn for the
 * broker's actors, then failing as at {@code max.block.ms}) while a transaction below it is still open; the
 * markers of a {@code PrepareCommit} are written while the reader waits.
 *
 * <p><b>A crash</b> is the process's memory lost and its journals' bytes kept, as a mapped file's page cache
 * is: at a crash point an {@link Error} unwinds the drainer, whose objects (engine, drainer, sink and its
 * producer) are then dropped; a write to any journal while it unwinds fails the check, so the crash is as
 * abrupt as {@code kill -9}. The next process sets the journal aside as a pending copy (as
 * {@link RecordRecovery#setAside} renames it), starts on a fresh journal, and its drainer delivers the pending
 * copies, oldest first, before one question to the sink and the new journal's events (as {@link RecordBacklog}
 * orders them; the renames and deletions of files are modelled by a list, the deliveries are the real code).
 * Crash points: before every call to the broker (so during sends, before the commit, during recovery, while the
 * broker is down), after a commit returned and before the journal records it, in the middle of a drain record,
 * in the middle of a buffer's refill, between drainer steps, before a recovered copy is deleted.
 *
 * <p><b>Why an explorer of its own, not Lincheck.</b> A Lincheck operation runs to its end in its thread; a crash
 * stops every thread of a process at once, at any step, and starts another process on what the first left,
 * which no operation can express; failures (a lost answer, a broker down) are choices the exploration must
 * make, not interleavings; and Lincheck explores a budget of interleavings, where a small scenario can be
 * explored whole. So {@link Explorer} runs each execution from the start, deterministically, along a sequence
 * of choices (which actor moves at each point, what a broker call does, whether the process dies there), and
 * then takes the next sequence, depth first, until every one was run: every interleaving and every crash point
 * of the scenario, within its bounds (callers and events, crashes, faults, drainer steps per process).
 *
 * <p><b>Reductions</b>, each sound for what is checked: a caller's append is one step, taken between the
 * drainer's steps (the interleavings inside an append, and of appends with the drainer's reads of the journal,
 * are {@code JournalModelCheckTest}'s; an append touches only frames and tails, which a delivery never reads,
 * so it commutes with every step of a delivery). The broker's actors touch only the broker's state, so they move
 * only before the calls that read what they change: a late commit before {@code initTransactions} and before the
 * position topic is read (and while a reader waits), a timeout before a commit (elsewhere it does what the next
 * fence does). A commit whose answer arrives has its markers written at once (a reader that came before them
 * would wait for them). After the last bounded step the last process
 * stops without further faults: it delivers what is left, the broker settles what is open (an in-flight commit
 * arriving or not, a choice), and {@link World#validate} checks, against what each caller was told, that every
 * event whose append returned {@code true} is in the topic's {@code read_committed} view exactly once, whole,
 * and each caller's events in the order it appended them (across restarts); that none whose append returned
 * {@code false} is. The four scenarios below run about 29,000 executions, 4.6 to 21 s on a busy 2-CPU machine.
 *
 * <p>Broken variants ({@link Variant}) must each be caught: a drainer that records a batch before its delivery
 * returned (an event lost), a recovery that ignores what the sink committed (an event twice), a
 * {@code committed()} that answers with what {@code read_committed} shows at once, without fencing or waiting (an
 * event twice), a new journal delivered before the pending copy of its slot (out of order), and a
 * {@code committed()} that does not fence first. That last one is caught as a sink that cannot answer: after a
 * crash in the middle of a transaction, the position topic cannot be read past it until the broker times it out,
 * so with the broker up and no fault left {@code committed()} still fails. Its answers are never wrong, though:
 * run with the broker's timeout passing while a reader waits, it (and a {@code committed()} that reads before it
 * fences) passes every scenario here. What makes the answer exact is the read to the high watermark, waiting for
 * the transactions open below it; what makes it come at all is the fence.
 */
class RecordDeliveryModelCheckTest {

    static final int BUFFER_COUNT = 2;
    static final int BUFFER_SIZE = 64;
    static final int MAX_CALLERS = 2;
    static final int MAX_EVENTS = 8;
    /** A scenario larger than this is a mistake in its bounds, not something to wait for. */
    static final long MAX_EXECUTIONS = 2_000_000;

    @Test
    void aCrashAnywhereEvenDuringRecoveryLosesNoAcceptedEventAndRepeatsNone() {
        Stats stats = explore(Variant.REAL, new Scenario(1, 3, 2, 0, 2));
        // what the exploration must have reached for its verdict to mean anything
        assertThat(stats.crashesInRecovery).as("crashes while a pending copy was delivered").isPositive();
        assertThat(stats.crashesAfterCommit).as("crashes after a commit, before the journal's record").isPositive();
        assertThat(stats.recoveriesPastRecord).as("recoveries that started past the journal's record").isPositive();
        assertThat(stats.dropped).as("executions that dropped an event").isPositive();
        assertThat(stats.rotated).as("executions that went past the first term").isPositive();
    }

    @Test
    void aFailedDeliveryIsSettledByCommittedBeforeItGoesOutAgainAlsoAcrossACrash() {
        Stats stats = explore(Variant.REAL, new Scenario(1, 2, 1, 1, 3));
        assertThat(stats.lostAnswers).as("commits whose answer was lost").isPositive();
        assertThat(stats.settledCommitted).as("failed deliveries that committed() found committed").isPositive();
        assertThat(stats.lateCompletions).as("commits the broker finished late").isPositive();
        assertThat(stats.lateArrivals).as("commit requests that arrived late").isPositive();
        assertThat(stats.fencedLate).as("late commit requests refused as fenced").isPositive();
        assertThat(stats.expired).as("transactions aborted on their timeout").isPositive();
        assertThat(stats.recoveriesPastRecord).as("recoveries that started past the journal's record").isPositive();
    }

    @Test
    void aBrokerThatFailsCallAfterCallDelaysDeliveryButLosesAndRepeatsNothing() {
        Stats stats = explore(Variant.REAL, new Scenario(1, 2, 0, 2, 3));
        assertThat(stats.settledCommitted).as("failed deliveries that committed() found committed").isPositive();
        assertThat(stats.lateCompletions).as("commits the broker finished late").isPositive();
    }

    @Test
    void twoCallersKeepTheirOrderAcrossACrash() {
        Stats stats = explore(Variant.REAL, new Scenario(2, 2, 1, 0, 2));
        assertThat(stats.crashesAfterCommit).as("crashes after a commit, before the journal's record").isPositive();
        assertThat(stats.dropped).as("executions that dropped an event").isPositive();
    }

    @Test
    void checkFindsADrainerThatRecordsABatchInTheJournalBeforeItsDeliveryReturned() {
        assertThatThrownBy(() -> explore(Variant.RECORD_BEFORE_DELIVERY, new Scenario(1, 2, 1, 0, 2)))
                .isInstanceOf(AssertionError.class)
                .satisfies(RecordDeliveryModelCheckTest::printFinding)
                .hasMessageContaining("is not in the topic");
    }

    @Test
    void checkFindsARecoveryThatIgnoresWhatTheSinkCommitted() {
        assertThatThrownBy(() -> explore(Variant.RECOVERY_IGNORES_COMMITTED, new Scenario(1, 2, 1, 0, 2)))
                .isInstanceOf(AssertionError.class)
                .satisfies(RecordDeliveryModelCheckTest::printFinding)
                .hasMessageContaining("twice");
    }

    @Test
    void checkFindsACommittedThatAnswersBeforeTheDeliveryInFlightIsSettled() {
        assertThatThrownBy(() -> explore(Variant.UNSETTLED_READ, new Scenario(1, 2, 0, 1, 2)))
                .isInstanceOf(AssertionError.class)
                .satisfies(RecordDeliveryModelCheckTest::printFinding)
                .hasMessageContaining("twice");
    }

    @Test
    void checkFindsACommittedThatDoesNotFenceFirstAndSoCannotAnswerAfterACrashMidTransaction() {
        assertThatThrownBy(() -> explore(Variant.NO_FENCE, new Scenario(1, 2, 1, 0, 2)))
                .isInstanceOf(AssertionError.class)
                .satisfies(RecordDeliveryModelCheckTest::printFinding)
                .hasMessageContaining("with no fault left to make, the sink still failed")
                .hasMessageContaining("a transaction stays open");
    }

    @Test
    void checkFindsANewJournalDeliveredBeforeThePendingCopyOfTheSameSlot() {
        assertThatThrownBy(() -> explore(Variant.NEW_JOURNAL_FIRST, new Scenario(1, 2, 1, 0, 2)))
                .isInstanceOf(AssertionError.class)
                .satisfies(RecordDeliveryModelCheckTest::printFinding)
                .hasMessageContaining("is not in the topic before its event");
    }

    // ---- the exploration ------------------------------------------------------------------------

    /**
     * The bounds of one scenario: {@code callers} callers appending {@code events} events each, at most
     * {@code crashes} crashes and {@code faults} faults of the broker (a failed call, a lost answer, a request
     * still on its way, a transaction timed out), and {@code steps} drainer steps per process.
     */
    record Scenario(int callers, int events, int crashes, int faults, int steps) {
        @Override
        public String toString() {
            return callers + " callers x " + events + " events, " + crashes + " crashes, " + faults + " faults, "
                    + steps + " drainer steps per process";
        }
    }

    /** Runs every execution of {@code scenario}; throws an {@link AssertionError} naming the first that fails. */
    static Stats explore(Variant variant, Scenario scenario) {
        long start = System.nanoTime();
        Explorer explorer = new Explorer();
        Stats stats = new Stats();
        try {
            do {
                try {
                    new World(variant, scenario, explorer, stats, false).run();
                } catch (AssertionError e) {
                    // the same choices again, this time writing down what happens
                    explorer.rewind();
                    World traced = new World(variant, scenario, explorer, new Stats(), true);
                    String again = "";
                    try {
                        traced.run();
                    } catch (AssertionError repeated) {
                        again = repeated.getMessage();
                    }
                    throw new AssertionError("execution " + (explorer.executions + 1) + " of " + variant + " ("
                            + scenario + ") fails: " + e.getMessage() + "\n  the execution"
                            + (again.equals(e.getMessage()) ? "" : " (replayed, it ended otherwise: " + again + ")")
                            + ":\n    " + String.join("\n    ", traced.trace), e);
                }
                stats.executions++;
                if (explorer.executions >= MAX_EXECUTIONS) {
                    throw new IllegalStateException("more than " + MAX_EXECUTIONS + " executions: bound " + scenario);
                }
            } while (explorer.next());
            return stats;
        } finally {
            System.out.println("model check of the record delivery, " + variant + " (" + scenario + "): " + stats
                    + " in " + TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start) + " ms");
        }
    }

    /** What the check found, with the execution that shows it, for the test's output. */
    private static void printFinding(Throwable failure) {
        System.out.println(failure.getMessage());
    }

    /**
     * Depth-first over sequences of choices: each execution replays the choices of the one before up to the
     * deepest that has an option left, takes that option, and takes the first option of every choice after it.
     * Executions are deterministic, so a replayed choice always offers the same options (checked).
     */
    static final class Explorer {
        private int[] chosen = new int[64];
        private int[] counts = new int[64];
        private int replay;
        private int depth;
        long executions;

        /** Which of {@code options} options this execution takes here. */
        int choose(int options) {
            if (options == 1) {
                return 0;
            }
            if (depth == chosen.length) {
                chosen = Arrays.copyOf(chosen, depth * 2);
                counts = Arrays.copyOf(counts, depth * 2);
            }
            if (depth < replay) {
                if (counts[depth] != options) {
                    throw new IllegalStateException("the execution is not deterministic: choice " + depth + " had "
                            + counts[depth] + " options, now " + options);
                }
                return chosen[depth++];
            }
            chosen[depth] = 0;
            counts[depth] = options;
            return chosen[depth++];
        }

        /** Sets up the same execution again. */
        void rewind() {
            replay = depth;
            depth = 0;
        }

        /** Sets up the next execution; {@code false} once every one was run. */
        boolean next() {
            executions++;
            int d = depth;
            while (d > 0 && chosen[d - 1] + 1 == counts[d - 1]) {
                d--;
            }
            if (d == 0) {
                return false;
            }
            chosen[d - 1]++;
            replay = d;
            depth = 0;
            return true;
        }
    }

    /** A crash: thrown at a crash point, through the real code, up to {@link World#run}. */
    static final class Crash extends Error {
        private static final long serialVersionUID = 1L;

        Crash(String where) {
            super(where, null, false, false);
        }
    }

    /** A call to the broker that failed, as the Kafka client throws a {@code KafkaException}. */
    static final class BrokerFailure extends RuntimeException {
        private static final long serialVersionUID = 1L;

        BrokerFailure(String message) {
            super(message, null, false, false);
        }
    }

    /** The protocol as built, and broken variants that the check must catch. */
    enum Variant {
        REAL,
        /** The drainer records a batch in the journal before its delivery returned (as if before the commit). */
        RECORD_BEFORE_DELIVERY,
        /** Recovery starts at the journal's drain record, whatever the sink says it committed. */
        RECOVERY_IGNORES_COMMITTED,
        /**
         * {@code committed()} neither fences nor waits: it answers with what {@code read_committed} shows at once,
         * so a delivery whose commit was asked for (answer lost) and is not finished yet goes unseen.
         */
        UNSETTLED_READ,
        /**
         * A new process delivers its own journal's events before the pending copy of the same slot: the copy's
         * events come after later ones (and its recovery finds the slot's position to be another journal's).
         */
        NEW_JOURNAL_FIRST,
        /**
         * {@code committed()} reads the position without fencing first: after a crash in the middle of a
         * transaction, the position topic cannot be read past that transaction, which stays open until the broker
         * times it out, so {@code committed()} fails, again and again, with the broker up.
         */
        NO_FENCE
    }

    /** What the executions reached, summed over all of them. */
    static final class Stats {
        long executions;
        long crashes;
        long crashesInRecovery;
        long crashesAfterCommit;
        long recoveriesPastRecord;
        long lostAnswers;
        long settledCommitted;
        long lateCompletions;
        long lateArrivals;
        long fencedLate;
        long expired;
        long dropped;
        long rotated;

        @Override
        public String toString() {
            return executions + " executions passed (" + crashes + " crashes, " + crashesInRecovery
                    + " of them in recovery and " + crashesAfterCommit + " after a commit the journal did not know; "
                    + recoveriesPastRecord + " recoveries started past the journal's record; " + lostAnswers
                    + " commit answers lost, " + settledCommitted + " failed deliveries found committed; "
                    + lateCompletions + " commits finished late, " + lateArrivals + " commit requests arrived late, "
                    + fencedLate + " refused as fenced, " + expired + " transactions timed out; " + dropped
                    + " executions dropped an event, " + rotated + " went past the first term)";
        }
    }

    // ---- payloads -------------------------------------------------------------------------------

    /**
     * The payload of event {@code seq} of caller {@code caller}: 16 or 40 bytes (a frame of 24 or 48), so that a
     * 64-byte buffer holds one or two events, and three events can fill both buffers; every word derived from the
     * first.
     */
    static byte[] payload(int caller, int seq) {
        int words = seq % 2 == 1 ? 2 : 5;
        ByteBuffer b = ByteBuffer.allocate(words * Long.BYTES).order(ByteOrder.LITTLE_ENDIAN);
        long first = (long) (caller + 1) << 32 | seq;
        for (int i = 0; i < words; i++) {
            b.putLong(word(first, i));
        }
        return b.array();
    }

    static long word(long first, int i) {
        return i == 0 ? first : Long.rotateLeft(first, 17 * i) ^ 0x9E37_79B9_7F4A_7C15L * i;
    }

    /** {@code {caller, seq}} of an event as it is in the topic; fails on bytes no caller wrote. */
    static int[] identify(byte[] event) {
        if (event.length < Long.BYTES || event.length % Long.BYTES != 0) {
            throw new AssertionError("the topic holds a record of " + event.length + " bytes, which no caller wrote");
        }
        ByteBuffer b = ByteBuffer.wrap(event).order(ByteOrder.LITTLE_ENDIAN);
        long first = b.getLong();
        int caller = (int) (first >>> 32) - 1;
        int seq = (int) first;
        if (caller < 0 || caller >= MAX_CALLERS || seq < 1 || seq > MAX_EVENTS
                || !Arrays.equals(event, payload(caller, seq))) {
            throw new AssertionError("the topic holds a record that no caller wrote, or a torn one: first word 0x"
                    + Long.toHexString(first));
        }
        return new int[] {caller, seq};
    }

    // ---- the broker -----------------------------------------------------------------------------

    /** Kafka's transactional rules for one {@code transactional.id}, the data topic and the position topic. */
    static final class Broker {
        enum State { ONGOING, PREPARE_COMMIT, COMMITTED, ABORTED }

        static final class Txn {
            final int epoch;
            State state = State.ONGOING;

            Txn(int epoch) {
                this.epoch = epoch;
            }
        }

        /** A record in a partition: an event's bytes or a journal position, in the transaction that sent it. */
        record Entry(Txn txn, byte[] event, JournalPosition position) {
        }

        private final Stats stats;
        final List<Entry> topic = new ArrayList<>();
        final List<Entry> positions = new ArrayList<>();
        /** The id's epoch; 0 until a producer first initialised. */
        int epoch;
        /** The id's transaction not finished yet (its records sent, its markers not written). */
        Txn open;
        /** The epoch of a commit request on its way to the broker; 0 for none. */
        int inFlightCommit;

        Broker(Stats stats) {
            this.stats = stats;
        }

        /** {@code initTransactions}: a new epoch; the earlier epoch's open transaction completed or aborted. */
        int initProducer() {
            epoch++;
            if (open != null) {
                open.state = open.state == State.PREPARE_COMMIT ? State.COMMITTED : State.ABORTED;
                open = null;
            }
            return epoch;
        }

        void send(int producer, byte[] event, JournalPosition position) {
            checkNotFenced(producer, "send");
            if (open != null && open.state == State.PREPARE_COMMIT) {
                completeCommit(); // the coordinator finishes the last transaction before the next one begins
            }
            if (open == null) {
                open = new Txn(producer);
            }
            (event != null ? topic : positions).add(new Entry(open, event, position));
        }

        /** The commit request arrives: {@code PrepareCommit} written; the markers follow. */
        void commitArrives(int producer) {
            checkNotFenced(producer, "commit");
            if (open != null && open.state == State.ONGOING) {
                open.state = State.PREPARE_COMMIT;
            }
        }

        /** The markers of the transaction in {@code PrepareCommit} written: its records are readable. */
        void completeCommit() {
            open.state = State.COMMITTED;
            open = null;
        }

        boolean prepared() {
            return open != null && open.state == State.PREPARE_COMMIT;
        }

        boolean ongoing() {
            return open != null && open.state == State.ONGOING;
        }

        /** The commit request on its way arrives; refused when its epoch was fenced meanwhile. */
        String arrive() {
            int producer = inFlightCommit;
            inFlightCommit = 0;
            if (producer != epoch) {
                stats.fencedLate++;
                return "refused: epoch " + producer + " is fenced by " + epoch;
            }
            stats.lateArrivals++;
            commitArrives(producer);
            return "accepted";
        }

        /** The open transaction times out: aborted, and the epoch bumped so that its producer is fenced. */
        void expire() {
            open.state = State.ABORTED;
            open = null;
            epoch++;
        }

        private void checkNotFenced(int producer, String what) {
            if (producer != epoch) {
                throw new BrokerFailure(what + " of epoch " + producer + " refused: fenced by epoch " + epoch);
            }
        }

        /**
         * {@code read_committed} over the position topic up to {@code highWatermark}: the last committed position,
         * or {@code null} in {@code blocked[0]} terms when a transaction still open holds the stable offset below
         * it. With {@code settlePrepared}, the markers of a {@code PrepareCommit} are written while the reader waits.
         */
        JournalPosition readPositions(int highWatermark, boolean settlePrepared, boolean[] blocked) {
            JournalPosition last = null;
            for (int i = 0; i < highWatermark; i++) {
                Entry e = positions.get(i);
                if (e.txn.state == State.PREPARE_COMMIT && settlePrepared) {
                    completeCommit();
                }
                if (e.txn.state == State.ONGOING || e.txn.state == State.PREPARE_COMMIT) {
                    blocked[0] = true;
                    return last;
                }
                if (e.txn.state == State.COMMITTED) {
                    last = e.position;
                }
            }
            blocked[0] = false;
            return last;
        }

        /** What a {@code read_committed} consumer of the topic reads once every transaction is over. */
        List<byte[]> committedEvents() {
            List<byte[]> events = new ArrayList<>();
            for (Entry e : topic) {
                if (e.txn.state == State.ONGOING || e.txn.state == State.PREPARE_COMMIT) {
                    throw new IllegalStateException("a transaction is still open");
                }
                if (e.txn.state == State.COMMITTED) {
                    events.add(e.event);
                }
            }
            return events;
        }
    }

    // ---- the sink over the broker ----------------------------------------------------------------

    /** What a broker call did, when it did not simply answer. */
    enum Fault { FAILED, ANSWER_LOST, IN_FLIGHT }

    /**
     * The record sink of the slot, taking {@code KafkaRecordSink}'s steps: a transaction per batch, the records
     * then the position, then the commit; every failure discards the producer, so that the next call makes one
     * whose {@code initTransactions} fences it; {@code committed()} fences first, then reads the position topic
     * {@code read_committed} up to the high watermark taken after the fence.
     */
    static final class TransactionalSink implements RecordSink {
        private final World world;
        private final Broker broker;
        /** The producer's epoch; 0 when there is none (the next call makes one). */
        private int producer;
        /** The end of the last delivery that failed, until {@code committed()} next answers. */
        private JournalPosition failedEnd;
        /** The first answer of {@code committed()} since it was last cleared (recovery looks at it). */
        JournalPosition firstAnswer;
        boolean answered;

        TransactionalSink(World world) {
            this.world = world;
            this.broker = world.broker;
        }

        @Override
        public JournalPosition committed(long journalId) throws IOException {
            try {
                JournalPosition position;
                if (world.variant == Variant.NO_FENCE) {
                    position = readPositions(journalId, true);
                } else if (world.variant == Variant.UNSETTLED_READ) {
                    position = readPositions(journalId, false);
                } else {
                    openProducer();
                    position = readPositions(journalId, true);
                }
                JournalPosition answer = position;
                world.trace(() -> "committed() answers " + answer);
                if (failedEnd != null && position != null && position.journalId() == failedEnd.journalId()
                        && position.covers(failedEnd.termCount(), failedEnd.offset())) {
                    world.stats.settledCommitted++;
                }
                failedEnd = null;
                if (!answered) {
                    answered = true;
                    firstAnswer = position;
                }
                return position;
            } catch (BrokerFailure e) {
                discardProducer();
                throw new IOException("committed() failed: " + e.getMessage());
            }
        }

        @Override
        public void deliver(RecordBatch batch) throws IOException {
            world.trace(() -> "deliver " + batch.count() + " events, up to " + batch.end());
            try {
                openProducer();
                for (int i = 0; i < batch.count(); i++) {
                    ByteBuffer event = batch.event(i);
                    byte[] bytes = new byte[event.remaining()];
                    event.get(bytes);
                    int[] who = identify(bytes);
                    String place = batch.journalId() + "/" + batch.termCount() + "/" + batch.offset(i);
                    String before = world.places.putIfAbsent((long) who[0] << 32 | who[1], place);
                    if (before != null && !before.equals(place)) {
                        throw new AssertionError("event " + who[1] + " of caller " + who[0] + " delivered from "
                                + place + ", and before from " + before);
                    }
                    world.point("before sending an event");
                    send(bytes, null);
                }
                world.point("before sending the position");
                send(null, batch.end());
                world.point("before commitTransaction", World.MAY_EXPIRE);
                Fault fault = world.fault("commitTransaction", Fault.ANSWER_LOST, Fault.IN_FLIGHT);
                if (fault == Fault.IN_FLIGHT) {
                    broker.inFlightCommit = producer;
                    throw new BrokerFailure("commitTransaction timed out, its request still on its way");
                }
                broker.commitArrives(producer);
                if (fault == Fault.ANSWER_LOST) {
                    world.stats.lostAnswers++;
                    throw new BrokerFailure("the answer to commitTransaction was lost");
                }
                broker.completeCommit();
                world.point(RecordLog.AFTER_RECORD_COMMIT);
            } catch (BrokerFailure e) {
                failedEnd = batch.end();
                discardProducer();
                throw new IOException("delivery failed: " + e.getMessage());
            }
        }

        private void send(byte[] event, JournalPosition position) {
            Fault fault = world.fault(event != null ? "send an event" : "send the position", Fault.FAILED,
                    Fault.ANSWER_LOST);
            if (fault == Fault.FAILED) {
                throw new BrokerFailure("send failed");
            }
            broker.send(producer, event, position);
            if (fault == Fault.ANSWER_LOST) {
                throw new BrokerFailure("the answer to a send was lost");
            }
        }

        private void openProducer() {
            if (producer != 0) {
                return;
            }
            world.point("before initTransactions", World.MAY_SETTLE);
            Fault fault = world.fault("initTransactions", Fault.FAILED, Fault.ANSWER_LOST);
            if (fault == Fault.FAILED) {
                throw new BrokerFailure("initTransactions failed");
            }
            int epoch = broker.initProducer();
            if (broker.inFlightCommit != 0 && broker.inFlightCommit != epoch) {
                broker.inFlightCommit = 0; // it would arrive fenced: nothing left to explore in it
                world.stats.fencedLate++;
            }
            if (fault == Fault.ANSWER_LOST) {
                throw new BrokerFailure("the answer to initTransactions was lost");
            }
            producer = epoch;
        }

        private void discardProducer() {
            producer = 0;
        }

        /** The position topic's last committed position, if it is {@code journalId}'s. */
        private JournalPosition readPositions(long journalId, boolean wait) {
            world.point("before reading the high watermark");
            if (world.fault("read the high watermark", Fault.FAILED) == Fault.FAILED) {
                throw new BrokerFailure("reading the high watermark failed");
            }
            int highWatermark = broker.positions.size();
            world.point("before reading the positions", World.MAY_SETTLE);
            if (world.fault("read the positions", Fault.FAILED) == Fault.FAILED) {
                throw new BrokerFailure("reading the positions failed");
            }
            boolean[] blocked = new boolean[1];
            JournalPosition last = broker.readPositions(highWatermark, wait, blocked);
            if (blocked[0] && wait) {
                world.point("waiting for a transaction open below the high watermark", World.MAY_SETTLE | World.MAY_EXPIRE);
                last = broker.readPositions(highWatermark, true, blocked);
                if (blocked[0]) {
                    throw new BrokerFailure("the position topic could not be read to its high watermark within"
                            + " max.block.ms: a transaction stays open");
                }
            }
            return last != null && last.journalId() == journalId ? last : null;
        }

        @Override
        public void close(long timeoutNanos) {
        }
    }

    // ---- the journal, with crash points ------------------------------------------------------------

    /**
     * A heap journal whose drain record writes and refills are crash points (once it is initialised), and which
     * fails any write made while a crash unwinds the drainer (a crash must be as abrupt as a kill).
     */
    static final class ModelJournal extends HeapJournal {
        private final World world;
        private boolean armed;

        private ModelJournal(World world) {
            super(BUFFER_COUNT, BUFFER_SIZE);
            this.world = world;
        }

        static ModelJournal create(World world) {
            ModelJournal journal = HeapJournal.initialised(new ModelJournal(world));
            journal.armed = true;
            return journal;
        }

        @Override
        public void putLongPlain(int offset, long value) {
            if (armed && (offset == DRAIN_RECORD_OFFSET + DRAIN_CHECK_FIELD
                    || offset == DRAIN_RECORD_OFFSET + DRAIN_RECORD_LENGTH + DRAIN_CHECK_FIELD)) {
                world.point("mid-drain-record"); // its term and offset written, its check and sequence not
            }
            world.writing(offset);
            super.putLongPlain(offset, value);
        }

        @Override
        public void fillEmpty(int offset, int length, int termId) {
            if (armed) {
                world.point("refill");
            }
            world.writing(offset);
            super.fillEmpty(offset, length, termId);
        }

        @Override
        public void putIntPlain(int offset, int value) {
            world.writing(offset);
            super.putIntPlain(offset, value);
        }

        @Override
        public void putIntRelease(int offset, int value) {
            world.writing(offset);
            super.putIntRelease(offset, value);
        }

        @Override
        public void putIntVolatile(int offset, int value) {
            world.writing(offset);
            super.putIntVolatile(offset, value);
        }

        @Override
        public void putLongRelease(int offset, long value) {
            world.writing(offset);
            super.putLongRelease(offset, value);
        }

        @Override
        public void putLongVolatile(int offset, long value) {
            world.writing(offset);
            super.putLongVolatile(offset, value);
        }

        @Override
        public boolean casLong(int offset, long expected, long value) {
            world.writing(offset);
            return super.casLong(offset, expected, value);
        }

        @Override
        public void putBytes(int offset, byte[] src, int srcOffset, int length) {
            world.writing(offset);
            super.putBytes(offset, src, srcOffset, length);
        }
    }

    // ---- processes --------------------------------------------------------------------------------

    /** What one process holds in memory: the engine, its drainer, its sink (and producer); lost at a crash. */
    static final class Process {
        private final World world;
        final ModelJournal journal;
        final JournalEngine engine;
        final Drainer drainer;
        final TransactionalSink sink;
        private boolean backlogDone;
        int steps;

        Process(World world, ModelJournal journal) {
            this.world = world;
            this.journal = journal;
            this.sink = new TransactionalSink(world);
            EngineConfig config = EngineConfig.builder().name("model").logFile(Path.of("model.log"))
                    .journalFile(Path.of("model.journal")).buffers(BUFFER_COUNT, BUFFER_SIZE)
                    .maxEventSize(48).backpressure(Backpressure.DROP).maxBlock(0, TimeUnit.NANOSECONDS)
                    .flushInterval(1, TimeUnit.HOURS).unblockTimeout(Long.MAX_VALUE / 2, TimeUnit.NANOSECONDS)
                    .stopTimeout(1, TimeUnit.SECONDS).build();
            try {
                this.engine = JournalEngine.withoutDrainerThread(config, journal, outputs(), TestStatus.QUIET);
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
            this.drainer = engine.drainer();
        }

        private DrainOutput.Factory outputs() {
            if (world.variant != Variant.RECORD_BEFORE_DELIVERY) {
                return RecordLog.factory(sink);
            }
            return active -> {
                RecordLog log = new RecordLog(active.journal, sink, 1);
                return new DrainOutput() {
                    @Override
                    public int write(ByteBuffer src, int start, int[] ends, int[] offsets, int events, long termCount,
                            int from, int to) throws IOException {
                        log.record(termCount, to); // broken: the journal claims the batch before the sink holds it
                        return log.write(src, start, ends, offsets, events, termCount, from, to);
                    }

                    @Override
                    public void record(long termCount, int offset) {
                        log.record(termCount, offset);
                    }
                };
            };
        }

        /** One pass of the drainer's loop; a sink's failure is caught, as the loop catches it, and tried again. */
        void step() {
            steps++;
            try {
                if (world.variant == Variant.NEW_JOURNAL_FIRST) {
                    drainOwn();
                    return;
                }
                if (!world.pending.isEmpty()) {
                    recoverOldestPending();
                } else if (!backlogDone) {
                    sink.committed(journal.journalId()); // RecordBacklog's last question: the sink is there
                    backlogDone = true;
                } else {
                    drainOwn();
                }
            } catch (IOException e) {
                world.trace(() -> "the drainer step failed: " + e.getMessage());
            }
        }

        private void drainOwn() throws IOException {
            if (!drainer.drainDirty()) {
                drainer.drainTerm(false);
            }
        }

        /** The oldest pending copy delivered (the real recovery), then deleted; as {@link RecordRecovery#recoverPending}. */
        private void recoverOldestPending() throws IOException {
            ModelJournal copy = world.pending.get(0);
            Journal.DrainRecord record = copy.readDrainRecord();
            if (record == null) {
                throw new AssertionError("a pending journal has no intact drain record");
            }
            world.trace(() -> "recovery of the pending copy " + world.names.indexOf(copy) + " from its drain record ("
                    + record.termCount() + ", " + record.offset() + ")");
            world.recovering = true;
            try {
                replay(copy, record);
            } finally {
                world.recovering = false;
            }
            world.pending.remove(0);
            world.trace(() -> "the pending copy is delivered and deleted");
        }

        private void replay(ModelJournal copy, Journal.DrainRecord record) throws IOException {
            sink.answered = false;
            RecordSink into = world.variant != Variant.RECOVERY_IGNORES_COMMITTED ? sink : new RecordSink() {
                @Override
                public JournalPosition committed(long journalId) throws IOException {
                    sink.committed(journalId);
                    return null; // broken: the answer is ignored
                }

                @Override
                public void deliver(RecordBatch batch) throws IOException {
                    sink.deliver(batch);
                }

                @Override
                public void close(long timeoutNanos) {
                }
            };
            RecordRecovery.replay(copy, into, record);
            JournalPosition answer = sink.firstAnswer;
            if (sink.answered && answer != null && answer.covers(record.termCount(), record.offset())
                    && (answer.termCount() != record.termCount() || answer.offset() != record.offset())) {
                world.stats.recoveriesPastRecord++;
            }
            world.point("before the pending copy is deleted");
        }

        /** The last process stops: it delivers what is left, with no fault left to make. */
        void finish() {
            try {
                if (world.variant == Variant.NEW_JOURNAL_FIRST) {
                    drainToEnd();
                }
                while (!world.pending.isEmpty()) {
                    recoverOldestPending();
                }
                if (!backlogDone) {
                    sink.committed(journal.journalId());
                }
                drainToEnd();
            } catch (IOException e) {
                throw new AssertionError("with no fault left to make, the sink still failed: " + e.getMessage(), e);
            }
        }

        private void drainToEnd() throws IOException {
            for (int n = 0; drainer.drainDirty(); n++) {
                if (n == 4 * BUFFER_COUNT * MAX_EVENTS) {
                    throw new AssertionError("the drainer makes no progress at term " + drainer.currentTerm());
                }
            }
            drainer.drainTerm(true);
        }
    }

    /**
     * One execution: the broker (which outlives every process), the journals on disk (the live one and the
     * pending copies), the process alive now, and what each caller was told.
     */
    static final class World {
        private static final byte ACCEPTED = 1;
        private static final byte DROPPED = 2;
        private static final int GO_ON = 0;
        private static final int COMPLETE = 1;
        private static final int ARRIVE = 2;
        private static final int EXPIRE = 3;
        private static final int CRASH = 4;
        private static final int APPEND = 5; // + caller
        /**
         * The broker may finish a commit late here (write the markers of a {@code PrepareCommit}, or take a commit
         * request that was on its way): before what reads that state (a fence, the position topic).
         */
        static final int MAY_SETTLE = 1;
        /** The broker may time the open transaction out here: before its commit. */
        static final int MAY_EXPIRE = 2;

        final Variant variant;
        final Scenario scenario;
        final Explorer explorer;
        final Stats stats;
        final Broker broker;
        /** The pending copies, oldest first: journals of processes that died, kept on disk. */
        final List<ModelJournal> pending = new ArrayList<>();
        /** Every journal made, for names in the trace. */
        final List<ModelJournal> names = new ArrayList<>();
        final List<String> trace = new ArrayList<>();
        /**
         * Where each event was delivered from, {@code journal/term/offset}, by {@code caller << 32 | seq}: every
         * delivery of an event, by the drainer or by recovery, must name the same place (a record sink that cannot
         * commit its position, OTLP's, names each record by it).
         */
        final Map<Long, String> places = new HashMap<>();
        private final boolean tracing;
        private ModelJournal live;
        private Process process;
        private int crashesLeft;
        private int faultsLeft;
        /** In the last process's stop: no more choices. */
        private boolean quiet;
        boolean recovering;
        private final int[] appended = new int[MAX_CALLERS];
        private final byte[][] outcomes = new byte[MAX_CALLERS][MAX_EVENTS + 1];
        private final int[] options = new int[APPEND + MAX_CALLERS];
        private boolean dropped;
        private boolean rotated;
        /** The crash point a crash is unwinding the drainer from; {@code null} when none is. */
        private String unwinding;

        World(Variant variant, Scenario scenario, Explorer explorer, Stats stats, boolean tracing) {
            this.tracing = tracing;
            this.variant = variant;
            this.scenario = scenario;
            this.explorer = explorer;
            this.stats = stats;
            this.broker = new Broker(stats);
            this.crashesLeft = scenario.crashes();
            this.faultsLeft = scenario.faults();
        }

        void trace(Supplier<String> line) {
            if (tracing) {
                trace.add(line.get());
            }
        }

        void run() {
            for (;;) {
                try {
                    if (process == null) {
                        live = ModelJournal.create(this);
                        names.add(live);
                        trace(() -> "a process starts on journal " + names.indexOf(live) + ", " + pending.size()
                                + " pending");
                        process = new Process(this, live);
                    }
                    if (!betweenSteps()) {
                        break;
                    }
                    process.step();
                } catch (Crash crash) {
                    crashed(crash);
                }
            }
            quiet = true;
            trace(() -> "the last process stops");
            process.finish();
            if (broker.inFlightCommit != 0 && explorer.choose(2) == 1) {
                String arrived = broker.arrive();
                trace(() -> "the commit request on its way arrives: " + arrived);
            }
            if (broker.prepared()) {
                trace(() -> "the broker writes the markers of the commit asked for");
                broker.completeCommit();
            }
            if (broker.ongoing()) {
                trace(() -> "the broker times the open transaction out");
                broker.expire();
            }
            validate();
            rotated |= live.activeTermCountAcquire() > 0;
            stats.dropped += dropped ? 1 : 0;
            stats.rotated += rotated ? 1 : 0;
        }

        /**
         * Between two drainer steps: callers append, the broker's actors move, the process may die; returns
         * whether the drainer takes another step ({@code false}: the scenario's steps are done).
         */
        private boolean betweenSteps() {
            for (;;) {
                int n = 0;
                options[n++] = GO_ON;
                for (int c = 0; c < scenario.callers(); c++) {
                    if (appended[c] < scenario.events()) {
                        options[n++] = APPEND + c;
                    }
                }
                n = actors(n, 0);
                int action = options[explorer.choose(n)];
                if (action == GO_ON) {
                    return process.steps < scenario.steps();
                }
                if (action >= APPEND) {
                    append(action - APPEND);
                } else {
                    act(action, "between drainer steps");
                }
            }
        }

        /** A crash point inside a step of the drainer. */
        void point(String where) {
            point(where, 0);
        }

        /**
         * A point inside a step of the drainer: the process may die here, and the broker's actors that {@code may}
         * names ({@link #MAY_SETTLE}, {@link #MAY_EXPIRE}) may move first.
         */
        void point(String where, int may) {
            if (quiet) {
                return;
            }
            for (;;) {
                int n = 0;
                options[n++] = GO_ON;
                n = actors(n, may);
                int action = options[explorer.choose(n)];
                if (action == GO_ON) {
                    return;
                }
                act(action, where);
            }
        }

        private int actors(int n, int may) {
            if ((may & MAY_SETTLE) != 0 && broker.prepared()) {
                options[n++] = COMPLETE;
            }
            if ((may & MAY_SETTLE) != 0 && broker.inFlightCommit != 0) {
                options[n++] = ARRIVE;
            }
            if ((may & MAY_EXPIRE) != 0 && broker.ongoing() && faultsLeft > 0) {
                options[n++] = EXPIRE;
            }
            if (crashesLeft > 0) {
                options[n++] = CRASH;
            }
            return n;
        }

        private void act(int action, String where) {
            switch (action) {
                case COMPLETE -> {
                    trace(() -> "[" + where + "] the broker writes the markers of the commit asked for");
                    stats.lateCompletions++;
                    broker.completeCommit();
                }
                case ARRIVE -> {
                    String arrived = broker.arrive();
                    trace(() -> "[" + where + "] the commit request on its way arrives: " + arrived);
                }
                case EXPIRE -> {
                    faultsLeft--;
                    stats.expired++;
                    trace(() -> "[" + where + "] the open transaction times out: aborted, epoch bumped");
                    broker.expire();
                }
                case CRASH -> {
                    crashesLeft--;
                    trace(() -> "[" + where + "] CRASH");
                    stats.crashes++;
                    if (recovering) {
                        stats.crashesInRecovery++;
                    }
                    if (where.equals(RecordLog.AFTER_RECORD_COMMIT)) {
                        stats.crashesAfterCommit++;
                    }
                    unwinding = where;
                    throw new Crash(where);
                }
                default -> throw new IllegalStateException("action " + action);
            }
        }

        /** Fails a write to a journal made while a crash unwinds the drainer: the crash would not be abrupt. */
        void writing(int offset) {
            if (unwinding != null) {
                throw new AssertionError("the crash at " + unwinding + " is not abrupt: the drainer, unwinding,"
                        + " wrote to a journal at offset " + offset);
            }
        }

        /** What a broker call does: answers, or (while faults are left) one of {@code faults}. */
        Fault fault(String call, Fault... faults) {
            if (quiet || faultsLeft == 0) {
                return null;
            }
            int pick = explorer.choose(1 + faults.length);
            if (pick == 0) {
                return null;
            }
            faultsLeft--;
            Fault fault = faults[pick - 1];
            trace(() -> call + ": " + fault);
            return fault;
        }

        private void append(int caller) {
            int seq = ++appended[caller];
            boolean accepted = process.engine.append(payload(caller, seq), true);
            outcomes[caller][seq] = accepted ? ACCEPTED : DROPPED;
            dropped |= !accepted;
            trace(() -> "caller " + caller + " appends event " + seq + ": " + (accepted ? "accepted" : "dropped"));
        }

        /** The process dies: its memory is gone, its journal stays on disk and is set aside by the next start. */
        private void crashed(Crash crash) {
            unwinding = null;
            rotated |= live.activeTermCountAcquire() > 0;
            pending.add(live);
            live = null;
            process = null;
            recovering = false;
        }

        /** Every accepted event in the topic once, whole, and in its caller's order; no dropped event. */
        void validate() {
            int[] last = new int[MAX_CALLERS];
            boolean[][] seen = new boolean[MAX_CALLERS][MAX_EVENTS + 1];
            for (byte[] event : broker.committedEvents()) {
                int[] id = identify(event);
                int caller = id[0];
                int seq = id[1];
                if (outcomes[caller][seq] == DROPPED) {
                    throw new AssertionError("event " + seq + " of caller " + caller
                            + " is in the topic, but its append returned false (dropped)");
                }
                if (seen[caller][seq]) {
                    throw new AssertionError("event " + seq + " of caller " + caller + " is in the topic twice");
                }
                seen[caller][seq] = true;
                if (seq < last[caller]) {
                    throw new AssertionError("event " + seq + " of caller " + caller + " is in the topic after its event "
                            + last[caller] + ": out of order");
                }
                checkNoneAcceptedBetween(caller, last[caller], seq);
                last[caller] = seq;
            }
            for (int caller = 0; caller < MAX_CALLERS; caller++) {
                checkNoneAcceptedBetween(caller, last[caller], MAX_EVENTS + 1);
            }
        }

        private void checkNoneAcceptedBetween(int caller, int after, int before) {
            for (int seq = after + 1; seq < before; seq++) {
                if (outcomes[caller][seq] == ACCEPTED) {
                    throw new AssertionError("accepted event " + seq + " of caller " + caller + " is not in the topic"
                            + (before <= MAX_EVENTS ? " before its event " + before : ""));
                }
            }
        }
    }
}
