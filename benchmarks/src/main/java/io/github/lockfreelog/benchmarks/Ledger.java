package io.github.lockfreelog.benchmarks;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Side file in which each fork, after stopping its framework, records how many lines it was asked to
 * log and how many reached its file. One tab-separated line per fork:
 *
 * <pre>
 * mode  peer  threads  lineSize  accepted  written  bytes  nulBytes  details
 * </pre>
 *
 * {@code written} is {@code -1} for a peer that writes no file (encode-only). The runner names the
 * file with the system property {@value #PROPERTY}, which it passes to every fork.
 */
public final class Ledger {

    /** System property naming the ledger file; without it a fork only prints its counts. */
    public static final String PROPERTY = "lockfreelog.bench.ledger";

    static final String HEADER = "# mode\tpeer\tthreads\tlineSize\taccepted\twritten\tbytes\tnulBytes\tdetails";

    /** The counts of one fork, or (after {@link #read}) the sum over all forks of one configuration. */
    public record Entry(String mode, String peer, int threads, int lineSize, long accepted, long written,
            long bytes, long nulBytes, String details) {

        /** Lines accepted but not in the file; 0 for a peer that writes no file. */
        public long lost() {
            return written < 0 ? 0 : Math.max(0, accepted - written);
        }

        /** Whether the file holds fewer lines than calls were made. */
        public boolean losing() {
            return lost() > 0;
        }

        /** Share of accepted lines that reached the file: 1 when none was lost or the peer writes no file. */
        public double deliveredFraction() {
            return losing() && accepted > 0 ? (double) written / accepted : 1.0;
        }

        /** Average length of a written line, or 0 when nothing was written. */
        public double bytesPerLine() {
            return written > 0 ? (double) bytes / written : 0;
        }

        String key() {
            return Ledger.key(mode, peer, threads, lineSize);
        }

        String toLine() {
            return String.join("\t", mode, peer, Integer.toString(threads), Integer.toString(lineSize),
                    Long.toString(accepted), Long.toString(written), Long.toString(bytes), Long.toString(nulBytes),
                    details.replace('\t', ' ').replace('\n', ' '));
        }
    }

    static String key(String mode, String peer, int threads, int lineSize) {
        return mode + "|" + peer + "|" + threads + "|" + lineSize;
    }

    private Ledger() {
    }

    /** Appends one entry, writing the header first into a new file. */
    public static synchronized void append(Path ledger, Entry entry) throws IOException {
        Path parent = ledger.toAbsolutePath().getParent();
        if (parent != null) {
            Files.createDirectories(parent);
        }
        String text = (Files.exists(ledger) ? "" : HEADER + "\n") + entry.toLine() + "\n";
        Files.writeString(ledger, text, StandardCharsets.UTF_8, StandardOpenOption.CREATE, StandardOpenOption.APPEND);
    }

    /** Reads a ledger, adding up the entries of the forks of one configuration; an absent file reads as empty. */
    public static Map<String, Entry> read(Path ledger) throws IOException {
        Map<String, Entry> entries = new LinkedHashMap<>();
        if (ledger == null || !Files.exists(ledger)) {
            return entries;
        }
        for (String line : Files.readAllLines(ledger, StandardCharsets.UTF_8)) {
            if (line.isBlank() || line.startsWith("#")) {
                continue;
            }
            String[] f = line.split("\t", -1);
            if (f.length < 8) {
                throw new IOException("malformed ledger line (want 9 tab-separated fields): " + line);
            }
            Entry entry = new Entry(f[0], f[1], Integer.parseInt(f[2]), Integer.parseInt(f[3]), Long.parseLong(f[4]),
                    Long.parseLong(f[5]), Long.parseLong(f[6]), Long.parseLong(f[7]), f.length > 8 ? f[8] : "");
            entries.merge(entry.key(), entry, Ledger::sum);
        }
        return entries;
    }

    /** Looks up the entry of one configuration. */
    public static Entry find(Map<String, Entry> entries, String mode, String peer, int threads, int lineSize) {
        return entries.get(key(mode, peer, threads, lineSize));
    }

    private static Entry sum(Entry a, Entry b) {
        long written = a.written < 0 || b.written < 0 ? -1 : a.written + b.written;
        List<String> details = new ArrayList<>();
        if (!a.details.isEmpty()) {
            details.add(a.details);
        }
        if (!b.details.isEmpty()) {
            details.add(b.details);
        }
        return new Entry(a.mode, a.peer, a.threads, a.lineSize, a.accepted + b.accepted, written,
                a.bytes + b.bytes, a.nulBytes + b.nulBytes, String.join(" | ", details));
    }
}
