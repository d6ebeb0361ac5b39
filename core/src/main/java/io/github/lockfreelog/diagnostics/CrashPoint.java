package io.github.lockfreelog.diagnostics;

/**
 * Named points where the crash tests halt the JVM ({@link Runtime#halt}, as abrupt as kill -9) to
 * check that recovery is exactly-once whatever the engine was doing. Off unless the system
 * property {@code lockfreelog.crashPoint} is set, to {@code name} or {@code name:n} (halt at the
 * n-th time the point is reached); the check is a constant the JIT folds away when it is unset.
 */
public final class CrashPoint {

    /** After the intent of a write to the log file, before the write. */
    public static final String BEFORE_LOG_WRITE = "before-log-write";
    /**
     * In a write to the log file: the first half of it is written, then the JVM halts, as when a
     * kill -9 cuts a {@code write} short at a page.
     */
    public static final String MID_LOG_WRITE = "mid-log-write";
    /** After a write to the log file, before its drain record. */
    public static final String AFTER_LOG_WRITE = "after-log-write";
    /** While the drainer refills a drained buffer with the next term's free slots. */
    public static final String MID_REFILL = "mid-refill";
    /** After a caller set the next buffer's tail, before it moved the active term. */
    public static final String BEFORE_ACTIVE_TERM_MOVES = "before-active-term-moves";
    /** After the live log file was moved to its rolled name, before the new file is recorded. */
    public static final String AFTER_ROLL_MOVE = "after-roll-move";
    /** After recovery wrote part of what it recovers. */
    public static final String MID_RECOVERY = "mid-recovery";
    /** While a rolled file is being compressed (half of it is in the partial output). */
    public static final String MID_COMPRESSION = "mid-compression";
    /** After a rolled file's compressed output is complete, before it takes the archive's name. */
    public static final String AFTER_COMPRESSION = "after-compression";
    /** After the compressed output took the archive's name, before the uncompressed source is deleted. */
    public static final String AFTER_COMPRESSION_RENAME = "after-compression-rename";

    /** Exit status of a JVM halted at a crash point. */
    public static final int HALT_STATUS = 86;

    private static final String POINT;
    private static final long AT;
    private static long reached;

    static {
        String setting = System.getProperty("lockfreelog.crashPoint");
        int colon = setting == null ? -1 : setting.indexOf(':');
        POINT = colon < 0 ? setting : setting.substring(0, colon);
        AT = colon < 0 ? 1 : Long.parseLong(setting.substring(colon + 1));
    }

    private CrashPoint() {
    }

    /** Halts the JVM if the crash tests asked for this point (and this is the n-th time it is reached). */
    public static void reached(String point) {
        if (isDue(point)) {
            halt();
        }
    }

    /**
     * Whether the crash tests asked for this point and this is the n-th time it is reached: for a
     * point that does part of its work before it {@linkplain #halt halts}.
     */
    public static boolean isDue(String point) {
        return POINT != null && POINT.equals(point) && count();
    }

    /** Halts the JVM, as abruptly as kill -9. */
    public static void halt() {
        System.out.flush();
        Runtime.getRuntime().halt(HALT_STATUS);
    }

    /**
     * Counts a hit of the chosen point. The lock is safe: only a JVM started with
     * {@code lockfreelog.crashPoint} for this very point ever gets here (a crash test's child),
     * never an application's append path.
     */
    private static synchronized boolean count() { // crash tests' children only, see above
        return ++reached >= AT;
    }
}
