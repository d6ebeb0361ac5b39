package io.github.lockfreelog.kafka;

import io.github.lockfreelog.sink.RecordSink;
import java.io.IOException;
import java.net.InetAddress;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.IntFunction;

/**
 * The record sinks of one {@link LockFreeKafkaAppender}'s start, one per journal slot (the drainer's, and those
 * recovering other slots' journals): transactional ({@link KafkaRecordSink}) or idempotent
 * ({@link IdempotentRecordSink}), each with its slot's id; and those open now, so that a stop that timed out can close
 * what the engine does not (it closes only its own).
 */
final class SlotSinks implements RecordSink.Factory {

    private final boolean transactional;
    private final IntFunction<SlotSettings> settings;
    private final Set<SlotSink> open;

    /**
     * @param settings each slot's settings, by slot (-1: a journal set explicitly)
     * @param open where the sinks open now are kept, the appender's across its starts
     */
    SlotSinks(boolean transactional, IntFunction<SlotSettings> settings, Set<SlotSink> open) {
        this.transactional = transactional;
        this.settings = settings;
        this.open = open;
    }

    /** A set for the sinks open now, safe for the drainer and the threads recovering other slots. */
    static Set<SlotSink> openSet() {
        return ConcurrentHashMap.newKeySet();
    }

    @Override
    public RecordSink open(int slot) {
        SlotSink[] opened = new SlotSink[1];
        Runnable onClose = () -> open.remove(opened[0]);
        SlotSettings slotSettings = settings.apply(slot);
        opened[0] = transactional ? new KafkaRecordSink(slotSettings, onClose) : new IdempotentRecordSink(slotSettings, onClose);
        open.add(opened[0]);
        return opened[0];
    }

    /**
     * Closes, without waiting, the sinks of {@code open} still open: after a stop that timed out, those that were
     * recovering other slots' journals. What they had not committed is the next start's to recover.
     */
    static void closeAll(Set<SlotSink> open) {
        for (SlotSink sink : List.copyOf(open)) {
            sink.close(0);
        }
    }

    /**
     * The transactional id (transactions off: the client id) of journal slot {@code slot}: {@code <prefix>-<slot>}
     * for a slot of the default journal's folder, the prefix alone for a journal set explicitly (slot -1: one
     * instance per journal).
     */
    static String slotId(String prefix, int slot) {
        return slot < 0 ? prefix : prefix + "-" + slot;
    }

    /**
     * {@code lockfreelog-<host>-<application>-<appender name>-<journal>}, {@code <journal>} being eight hex digits
     * of a hash of the journal's path: stable across restarts of an instance on one host, and distinct between the
     * instances of one host (each has its own journal: two applications, two users, or two explicit journals of
     * one application never share an id, nor fence each other). A restart under another id (a new host name)
     * still finds the journal's position: the sink looks it up by the journal's id ({@link KafkaRecordSink}).
     *
     * @param application the application's name as a file name part
     */
    static String defaultPrefix(String application, String appenderName, Path journalFile) {
        String host;
        try {
            host = InetAddress.getLocalHost().getHostName();
        } catch (IOException e) {
            host = "localhost";
        }
        return "lockfreelog-" + host + "-" + application + "-" + appenderName + "-"
                + String.format("%08x", journalFile.toString().hashCode());
    }
}
