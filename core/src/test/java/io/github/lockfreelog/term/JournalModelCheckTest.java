package io.github.lockfreelog.term;

import static io.github.lockfreelog.term.JournalDescriptor.*;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.github.lockfreelog.drain.DrainLog;
import io.github.lockfreelog.drain.Drainer;
import io.github.lockfreelog.engine.Backpressure;
import io.github.lockfreelog.engine.EngineConfig;
import io.github.lockfreelog.engine.JournalEngine;
import io.github.lockfreelog.testing.RecordingSink;
import io.github.lockfreelog.testing.TestStatus;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.reflect.Method;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicIntegerArray;
import org.jetbrains.kotlinx.lincheck.Actor;
import org.jetbrains.kotlinx.lincheck.execution.ExecutionScenario;
import org.jetbrains.lincheck.LincheckAssertionError;
import org.jetbrains.lincheck.datastructures.ManagedStrategyGuaranteeKt;
import org.jetbrains.lincheck.datastructures.ModelCheckingOptions;
import org.jetbrains.lincheck.datastructures.Operation;
import org.jetbrains.lincheck.datastructures.Param;
import org.jetbrains.lincheck.datastructures.ThreadIdGen;
import org.jetbrains.lincheck.datastructures.Validate;
import org.jetbrains.lincheck.datastructures.verifier.EpsilonVerifier;
import org.junit.jupiter.api.Test;

/**
 * Model-checks the caller/drainer protocol with Lincheck: the real {@link JournalEngine#append}
 * (with {@link TermAppender} and {@link BufferStates}) and the real {@link Drainer} steps (with
 * {@link FrameCodec} and {@link TermUnblocker}) run over a {@link HeapJournal} of two 64-byte
 * buffers, so that a handful of 24- and 32-byte frames pad a buffer's end, rotate to the other
 * buffer and, when the drainer has not cleaned it yet, are dropped (the {@code DROP} policy).
 * Callers and one drainer run in threads of their own; Lincheck explores their interleavings,
 * switching threads at each access to the journal, with more switches as the shallower
 * interleavings are used up.
 *
 * <p>After each execution the drainer drains what is left (as at stop), and {@link Model#validate}
 * checks: every event whose append returned {@code true} reached the log exactly once, whole, with
 * its content intact, and each caller's events in the order it appended them; no event whose
 * append returned {@code false} did; and, after every operation, each tail is past its buffer's end
 * by less than one frame per caller and names a term of that buffer.
 *
 * <p>Three scenarios ({@link #check}), each explored {@link #INVOCATIONS} times, with a drainer that
 * waits for unfinished frames ({@link Model}) and one that passes over them at once
 * ({@link Impatient}); four broken variants show that the check can fail. Callers reserve 24-byte
 * frames with the fetch-and-add and 32-byte ones with the compare-and-set ({@link #ADD_LIMIT}), so
 * both reservations race each other, cross a buffer's end and meet a full tail. Lincheck runs
 * executions as if memory were sequentially consistent: it finds wrong interleavings, not a
 * missing fence (the orderings are named in {@link Journal}'s methods).
 *
 * <p>Results of single operations are not compared with a sequential specification (whether an
 * event is dropped depends on how far the drainer got, which no sequential order fixes), so the
 * verifier accepts any; the validation function does the checking.
 */
class JournalModelCheckTest {

    static final int BUFFER_COUNT = 2;
    static final int BUFFER_SIZE = 64;
    /** Most events one caller appends in a scenario. */
    static final int MAX_EVENTS = 8;
    static final int MAX_CALLERS = 4;
    /**
     * Frames of at most this many bytes are reserved with a fetch-and-add, larger ones with a
     * compare-and-set: the 24-byte frames take the first path, the 32-byte ones the second, so every
     * scenario mixes both, as a journal of events on both sides of {@link JournalDescriptor#MAX_ADDED_FRAME} does.
     */
    static final int ADD_LIMIT = 24;

    /** Executions explored per scenario; {@code -Dlockfreelog.modelCheck.invocations=10000} explores deeper. */
    static final int INVOCATIONS = Integer.getInteger("lockfreelog.modelCheck.invocations", 1000);

    @Test
    void patientDrainerDrainsEveryAcceptedEventOnceWholeAndInOrder() {
        check(Model.class);
    }

    @Test
    void impatientDrainerThatLeavesOutStalledWritersLosesNoEvent() {
        check(Impatient.class);
    }

    @Test
    void checkFindsPayloadPublishedBeforeItIsCopied() {
        assertThatThrownBy(() -> check(CommitBeforeCopy.class))
                .isInstanceOf(LincheckAssertionError.class)
                .satisfies(JournalModelCheckTest::printFinding)
                .hasMessageContaining("Validation function")
                .hasMessageContaining("payload");
    }

    @Test
    void checkFindsDrainerThatTakesFrameBeingCopiedForCommitted() {
        assertThatThrownBy(() -> check(ClaimedReadAsCommitted.class))
                .isInstanceOf(LincheckAssertionError.class)
                .satisfies(JournalModelCheckTest::printFinding)
                .hasMessageContaining("Validation function");
    }

    @Test
    void checkFindsFetchAndAddThatIsNotAtomic() {
        assertThatThrownBy(() -> check(NonAtomicAdd.class))
                .isInstanceOf(LincheckAssertionError.class)
                .satisfies(JournalModelCheckTest::printFinding)
                .hasMessageContaining("Validation function");
    }

    @Test
    void checkFindsCompareAndSetThatIsNotAtomic() {
        assertThatThrownBy(() -> check(NonAtomicCas.class))
                .isInstanceOf(LincheckAssertionError.class)
                .satisfies(JournalModelCheckTest::printFinding)
                .hasMessageContaining("Validation function");
    }

    private static void check(Class<? extends Model> model) {
        long start = System.nanoTime();
        Observer.reset();
        try {
            new ModelCheckingOptions()
                    .iterations(0) // no random scenarios: only the two below
                    .invocationsPerIteration(INVOCATIONS)
                    .verifier(EpsilonVerifier.class)
                    // The test's own bookkeeping adds no interleavings (the checker names classes as
                    // getCanonicalName does). The drain records and write intents (which no caller
                    // reads) and the counters are not part of the protocol: taken as single steps,
                    // they leave the checker's budget to the accesses that are.
                    .addGuarantee(ManagedStrategyGuaranteeKt.forClasses(Observer.class.getCanonicalName(),
                            RecordingSink.class.getCanonicalName()).allMethods().ignore())
                    .addGuarantee(ManagedStrategyGuaranteeKt.forClasses(DrainLog.class.getName(),
                            "java.util.concurrent.atomic.LongAdder", "java.util.concurrent.atomic.Striped64")
                            .allMethods().treatAsAtomic())
                    // two callers racing through padding and rotation; the drainer may or may not keep up
                    .addCustomScenario(scenario(model, 2, 3, 2))
                    // three callers: more reservations in flight at once
                    .addCustomScenario(scenario(model, 3, 2, 1))
                    // one caller that may stall in its one append while another fills both buffers, the drainer
                    // cleaning them, so that a stalled look and add can meet a buffer that hosts a later term
                    .addCustomScenario(scenario(model, new int[] {1, 8}, 3))
                    .check(model);
        } finally {
            System.out.println("model check of " + model.getSimpleName() + ": " + Observer.summary() + " in "
                    + TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start) + " ms");
        }
    }

    /** {@code callers} threads appending {@code events} events each, and one draining {@code drains} times. */
    private static ExecutionScenario scenario(Class<? extends Model> model, int callers, int events, int drains) {
        int[] each = new int[callers];
        java.util.Arrays.fill(each, events);
        return scenario(model, each, drains);
    }

    /** A thread per caller appending {@code events[c]} events, and one draining {@code drains} times. */
    private static ExecutionScenario scenario(Class<? extends Model> model, int[] events, int drains) {
        int callers = events.length;
        try {
            Method append = model.getMethod("append", int.class);
            Method drain = model.getMethod("drain");
            List<List<Actor>> threads = new ArrayList<>();
            for (int c = 0; c < callers; c++) {
                List<Actor> thread = new ArrayList<>();
                for (int e = 0; e < events[c]; e++) {
                    thread.add(new Actor(append, List.of(c)));
                }
                threads.add(thread);
            }
            List<Actor> drainer = new ArrayList<>();
            for (int d = 0; d < drains; d++) {
                drainer.add(new Actor(drain, List.of()));
            }
            threads.add(drainer);
            return new ExecutionScenario(List.of(), threads, List.of(), null);
        } catch (NoSuchMethodException e) {
            throw new IllegalStateException(e);
        }
    }

    /** The headline of what the checker found, for the test's output (the whole report holds the interleaving). */
    private static void printFinding(Throwable failure) {
        String report = failure.getMessage();
        String cause = report.lines().filter(l -> l.startsWith("#1: ")).findFirst().orElse("");
        System.out.println(report.lines().filter(l -> l.startsWith("= ")).findFirst().orElse("") + " " + cause);
    }

    // ---- the model ------------------------------------------------------------------------------

    /** The payload of event {@code seq} of caller {@code caller}: 16 or 24 bytes, every word derived from the first. */
    static byte[] payload(int caller, int seq) {
        int words = seq % 2 == 1 ? 2 : 3;
        ByteBuffer b = ByteBuffer.allocate(words * Long.BYTES).order(ByteOrder.LITTLE_ENDIAN);
        long first = identity(caller, seq);
        for (int i = 0; i < words; i++) {
            b.putLong(word(first, i));
        }
        return b.array();
    }

    /** Never a free slot's pattern ({@code termId << 32}): the low half, {@code seq}, starts at 1. */
    static long identity(int caller, int seq) {
        return (long) (caller + 1) << 32 | seq;
    }

    static long word(long first, int i) {
        return i == 0 ? first : Long.rotateLeft(first, 17 * i) ^ 0x9E37_79B9_7F4A_7C15L * i;
    }

    /**
     * An unblock timeout that never passes. With it, or with 0 (a frame is overdue as soon as the
     * drainer finds it unfinished a second time), no decision of the drainer depends on what the
     * clock reads, so every execution can be replayed.
     */
    static final long NEVER = Long.MAX_VALUE / 2;

    /** The engine over a heap journal; Lincheck makes a fresh one for each execution it explores. */
    public static class Model {

        final HeapJournal journal;
        final RecordingSink sink = new RecordingSink();
        final Observer observer = new Observer();
        final JournalEngine engine;
        final Drainer drainer;

        public Model() {
            this(new HeapJournal(BUFFER_COUNT, BUFFER_SIZE), NEVER);
        }

        Model(HeapJournal journal, long unblockTimeoutNanos) {
            journal.maxAddedFrame = ADD_LIMIT;
            this.journal = HeapJournal.initialised(journal);
            EngineConfig config = EngineConfig.builder().name("model").logFile(Path.of("model.log")).journalFile(Path.of("model.journal"))
                .buffers(BUFFER_COUNT, BUFFER_SIZE).maxEventSize(BUFFER_SIZE / 2).backpressure(Backpressure.DROP)
                .maxBlock(0, TimeUnit.NANOSECONDS).flushInterval(1, TimeUnit.HOURS)
                .unblockTimeout(unblockTimeoutNanos, TimeUnit.NANOSECONDS).stopTimeout(1, TimeUnit.SECONDS).build();
            try {
                this.engine = JournalEngine.withoutDrainerThread(config, journal, sink, TestStatus.QUIET);
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
            this.drainer = engine.drainer();
        }

        /** A caller appends its next event ({@code DROP} policy); returns whether it was accepted. */
        @Operation
        public boolean append(@Param(gen = ThreadIdGen.class) int caller) {
            int seq = observer.next(caller);
            boolean accepted = engine.append(payload(caller, seq), true);
            observer.appended(caller, seq, accepted, journal);
            return accepted;
        }

        /**
         * One step of the drainer: a dirty term to its end (and its buffer cleaned), else the
         * committed prefix of the active one.
         */
        @Operation(nonParallelGroup = "drainer")
        public void drain() throws IOException {
            if (!drainer.drainDirty()) {
                drainer.drainTerm(false);
            }
            observer.watch(journal);
        }

        /** After all callers returned: drains what is left, as at stop, and checks the log against the appends. */
        @Validate
        public void validate() throws IOException {
            for (int steps = 0; drainer.drainDirty(); steps++) { // every dirty term, as the drainer's loop does
                if (steps == 4 * BUFFER_COUNT * MAX_EVENTS) {
                    throw new AssertionError("the drainer makes no progress: it stays at term " + drainer.currentTerm()
                            + " while the active term is " + journal.activeTermCountAcquire());
                }
            }
            drainer.drainTerm(true); // the active term to its tail, as at stop
            observer.watch(journal);
            if (observer.brokenTail != null) {
                throw new AssertionError(observer.brokenTail);
            }
            checkLog();
            observer.count(journal.activeTermCountAcquire());
        }

        /** Every accepted event once, whole, intact, and in its caller's order; no dropped event. */
        private void checkLog() {
            ByteBuffer log = ByteBuffer.wrap(sink.bytes()).order(ByteOrder.LITTLE_ENDIAN);
            int[] last = new int[MAX_CALLERS];
            while (log.hasRemaining()) {
                if (log.remaining() < Long.BYTES) {
                    throw new AssertionError("log ends in a torn payload: " + log.remaining() + " bytes left");
                }
                long first = log.getLong();
                int caller = (int) (first >>> 32) - 1;
                int seq = (int) first;
                if (caller < 0 || caller >= MAX_CALLERS || seq < 1 || seq > MAX_EVENTS) {
                    throw new AssertionError("log holds a payload that no caller wrote: first word 0x"
                            + Long.toHexString(first) + " at log offset " + (log.position() - Long.BYTES));
                }
                for (int i = 1; i < payload(caller, seq).length / Long.BYTES; i++) {
                    if (log.remaining() < Long.BYTES || log.getLong() != word(first, i)) {
                        throw new AssertionError("payload of caller " + caller + " event " + seq
                                + " is torn or overwritten in the log (word " + i + ")");
                    }
                }
                byte outcome = observer.outcome(caller, seq);
                if (outcome != Observer.ACCEPTED) {
                    throw new AssertionError("event " + seq + " of caller " + caller
                            + " reached the log, but its append "
                            + (outcome == Observer.DROPPED ? "returned false (dropped)" : "never returned"));
                }
                if (seq <= last[caller]) {
                    throw new AssertionError("event " + seq + " of caller " + caller + " reached the log after event "
                            + last[caller] + (seq == last[caller] ? ": twice" : ": out of order"));
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
                if (observer.outcome(caller, seq) == Observer.ACCEPTED) {
                    throw new AssertionError("accepted event " + seq + " of caller " + caller + " is not in the log"
                            + (before <= MAX_EVENTS ? " before its event " + before : ""));
                }
            }
        }
    }

    /**
     * What the test notes beside the engine: what each caller appended and whether it was accepted
     * (each caller writes only its own row), the first tail seen out of place, and, over all
     * executions, what they exercised. The checker is told to ignore this class: nothing in it adds
     * an interleaving, not even its reads of the journal's tails.
     */
    public static final class Observer {
        static final byte ACCEPTED = 1;
        static final byte DROPPED = 2;

        /**
         * Over all executions: passed, rotated, reused a buffer, dropped, padded, left a frame out, added to
         * a tail already past its buffer's end.
         * After each execution Lincheck restores what the execution changed through a static field,
         * so executions reach the totals through an instance field.
         */
        private static final AtomicIntegerArray TOTALS = new AtomicIntegerArray(7);
        private final AtomicIntegerArray totals = TOTALS;

        private final int[] appended = new int[MAX_CALLERS];
        /** Per caller and event: 0 until its append returned, then accepted or dropped. */
        private final byte[][] outcomes = new byte[MAX_CALLERS][MAX_EVENTS + 1];
        private boolean dropped;
        private boolean padded;
        private boolean leftOut;
        private boolean addedToFullTail;
        String brokenTail;

        int next(int caller) {
            return ++appended[caller];
        }

        void appended(int caller, int seq, boolean accepted, Journal journal) {
            outcomes[caller][seq] = accepted ? ACCEPTED : DROPPED;
            dropped |= !accepted;
            watch(journal);
        }

        byte outcome(int caller, int seq) {
            return outcomes[caller][seq];
        }

        /** Called after every operation: checks the tails, and notes what the journal shows the engine did. */
        void watch(Journal journal) {
            watchTails(journal);
            for (int at = METADATA_LENGTH; at < journalLength(BUFFER_COUNT, BUFFER_SIZE); at += FRAME_ALIGNMENT) {
                int type = headerType(journal.getLongVolatile(at));
                padded |= type == TYPE_PADDING;
                leftOut |= type == TYPE_ABANDONED || type == TYPE_ACKNOWLEDGED;
            }
        }

        /**
         * Notes the first tail further past its buffer's end than one added frame per caller that has begun
         * to append (the crossing add starts at most 8 bytes before the end; each other caller that saw the
         * tail in range adds once; one that sees it past the end never adds; a full tail set by the journal's
         * start or a compare-and-set is at the end exactly), or naming a term that its
         * buffer cannot host (yet). Notes too whether an add landed on a tail already past the end.
         */
        private void watchTails(Journal journal) {
            long active = journal.activeTermCountAcquire();
            int callers = 0;
            for (int caller = 0; caller < MAX_CALLERS; caller++) {
                callers += appended[caller] > 0 ? 1 : 0;
            }
            for (int i = 0; i < BUFFER_COUNT && brokenTail == null; i++) {
                long raw = journal.rawTailVolatile(i);
                int termId = termId(raw);
                addedToFullTail |= tailOffset(raw) > BUFFER_SIZE - FRAME_ALIGNMENT + ADD_LIMIT; // past one crossing add
                if (tailOffset(raw) > Math.max(BUFFER_SIZE, BUFFER_SIZE - FRAME_ALIGNMENT + callers * ADD_LIMIT)
                        || Math.floorMod(termId, BUFFER_COUNT) != i || termId > active + 1) {
                    brokenTail = "tail of buffer " + i + " is out of place: termId=" + termId + " offset="
                            + tailOffset(raw) + " (active term " + active + ", bufferSize=" + BUFFER_SIZE + ")";
                }
            }
        }

        void count(long activeTerm) {
            totals.incrementAndGet(0);
            totals.addAndGet(1, activeTerm > 0 ? 1 : 0);
            totals.addAndGet(2, activeTerm >= BUFFER_COUNT ? 1 : 0);
            totals.addAndGet(3, dropped ? 1 : 0);
            totals.addAndGet(4, padded ? 1 : 0);
            totals.addAndGet(5, leftOut ? 1 : 0);
            totals.addAndGet(6, addedToFullTail ? 1 : 0);
        }

        static void reset() {
            for (int i = 0; i < TOTALS.length(); i++) {
                TOTALS.set(i, 0);
            }
        }

        static String summary() {
            return TOTALS.get(0) + " executions passed (" + TOTALS.get(4) + " padded a buffer's end, " + TOTALS.get(1)
                    + " rotated to the next buffer, " + TOTALS.get(2) + " reused a buffer the drainer cleaned, "
                    + TOTALS.get(3) + " dropped an event, " + TOTALS.get(5) + " left a stalled writer's frame out, "
                    + TOTALS.get(6) + " added to a tail already past its buffer's end)";
        }
    }

    /**
     * A drainer with an unblock timeout of 0: a frame it finds unfinished a second time is overdue,
     * so it pads over reservations and leaves frames out, and their writers write their events
     * again: the stalled-writer paths, which the patient drainer never takes.
     */
    public static class Impatient extends Model {
        public Impatient() {
            super(new HeapJournal(BUFFER_COUNT, BUFFER_SIZE), 0);
        }
    }

    // ---- broken on purpose: the check must catch these ---------------------------------------------

    /**
     * A writer whose payload lands only after it committed the frame: what publishing the length
     * before the payload (or with a plain store on a weakly ordered CPU) amounts to. The drainer
     * can then read a committed frame whose payload is not there yet.
     */
    public static class CommitBeforeCopy extends Model {
        public CommitBeforeCopy() {
            super(new HeapJournal(BUFFER_COUNT, BUFFER_SIZE) {
                /** Per word: a payload copy waiting for its frame's commit. */
                private final byte[][] late = new byte[words.length()][];

                @Override
                public void putBytes(int offset, byte[] src, int srcOffset, int length) {
                    byte[] copy = new byte[length];
                    System.arraycopy(src, srcOffset, copy, 0, length);
                    late[(offset - HEADER_LENGTH) >>> 3] = copy;
                }

                @Override
                public boolean casLong(int offset, long expected, long value) {
                    boolean set = super.casLong(offset, expected, value);
                    byte[] copy = late[offset >>> 3];
                    if (set && headerLength(value) > 0 && copy != null) {
                        late[offset >>> 3] = null;
                        super.putBytes(offset + HEADER_LENGTH, copy, 0, copy.length);
                    }
                    return set;
                }
            }, NEVER);
        }
    }

    /**
     * A drainer that takes a frame whose writer is still copying for a committed one (as if it read
     * the length without its sign): it drains the frame before its payload is all there, and cleans
     * the buffer under the writer.
     */
    public static class ClaimedReadAsCommitted extends Model {
        public ClaimedReadAsCommitted() {
            super(new HeapJournal(BUFFER_COUNT, BUFFER_SIZE) {
                @Override
                public long getLongAcquire(int offset) {
                    long header = super.getLongAcquire(offset);
                    boolean claimed = offset >= METADATA_LENGTH && headerLength(header) < 0
                            && headerType(header) == TYPE_DATA;
                    return claimed ? header(-headerLength(header), TYPE_DATA) : header;
                }
            }, NEVER);
        }
    }

    /**
     * A fetch-and-add done as a read and then a write: two callers can both read the same tail and
     * take the same space, or one add can undo another's.
     */
    public static class NonAtomicAdd extends Model {
        public NonAtomicAdd() {
            super(new HeapJournal(BUFFER_COUNT, BUFFER_SIZE) {
                @Override
                public long getAndAddLong(int offset, long delta) {
                    long before = getLongVolatile(offset);
                    putLongVolatile(offset, before + delta);
                    return before;
                }
            }, 0); // impatient: a frame that no writer will commit must not hold the final drain forever
        }
    }

    /**
     * A compare-and-set done as a read and then a write: two callers can both see the same tail and
     * move it, so two events get the same space.
     */
    public static class NonAtomicCas extends Model {
        public NonAtomicCas() {
            super(new HeapJournal(BUFFER_COUNT, BUFFER_SIZE) {
                @Override
                public boolean casLong(int offset, long expected, long value) {
                    if (getLongVolatile(offset) != expected) {
                        return false;
                    }
                    putLongVolatile(offset, value);
                    return true;
                }
            }, 0); // impatient: a frame that no writer will commit must not hold the final drain forever
        }
    }
}
