package io.github.lockfreelog.benchmarks.kafka;

import io.github.lockfreelog.files.Mounts;
import io.github.lockfreelog.testsupport.ChildJvm;
import java.io.IOException;
import java.io.PrintStream;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.nio.file.StandardOpenOption;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.stream.Stream;

/**
 * The kafka-journal mode: start-up time and resident memory of the Kafka sink's journal, per journal size (the
 * default, and 1 GB as 8 buffers of 128 MB), the broker out of reach. Per size, a child JVM
 * ({@link KafkaJournalChild}) starts the appender on a new journal, idles, fills a share of the journal, fills it up
 * and halts as a crash would; a second child starts on that full journal (its events undelivered) and idles. Each
 * step's {@code VmRSS}, {@code RssAnon}, {@code RssFile} and {@code RssShmem} come from the child's
 * {@code /proc/self/status}; the journal folder's disk use from {@code du}. Writes {@code kafka-journal-STAMP.tsv}
 * (a row per step) and {@code kafka-journal-STAMP.txt}.
 */
final class KafkaJournalRunner {

    static final Set<String> OPTIONS = Set.of("--journals", "--fill", "--idle", "--dir", "--results");
    static final String USAGE = "kafka-journal [--journals default,128MB:8 (bufferSize:bufferCount, or default)]"
            + " [--fill PERCENT (10)] [--idle SECONDS (10)] [--dir FOLDER (the journals; a real disk, not /dev/shm;"
            + " benchmarks/target)] [--results DIR (docs/benchmark-results)]";
    private static final String[] COLUMNS = {"journal", "journal_bytes", "phase", "step", "ms", "events", "vm_rss_kb",
        "rss_anon_kb", "rss_file_kb", "rss_shmem_kb", "note"};

    private final PrintStream out;

    KafkaJournalRunner(PrintStream out) {
        this.out = out;
    }

    /** One step of one child: a time or an event count where it has one, the memory where it has it. */
    record Step(String journal, long journalBytes, String phase, String step, String ms, String events, long[] rssKb,
            String note) {
    }

    int run(String[] args) throws IOException, InterruptedException {
        KafkaModeOptions options;
        List<String> journals;
        int fill;
        int idle;
        try {
            options = KafkaModeOptions.parse(args, OPTIONS);
            journals = List.of(options.text("--journals", "default,128MB:8").split(","));
            for (String journal : journals) {
                if (!journal.equals("default") && !journal.matches("[0-9]+[A-Za-z]*:[0-9]+")) {
                    throw new IllegalArgumentException("--journals takes default or bufferSize:bufferCount (e.g. 128MB:8),"
                            + " comma-separated: " + journal);
                }
            }
            fill = (int) options.number("--fill", 10, 0, 99);
            idle = (int) options.number("--idle", 10, 0, 3600);
        } catch (IllegalArgumentException e) {
            return KafkaModeOptions.refuse(e, USAGE);
        }
        String stamp = DateTimeFormatter.ofPattern("yyyyMMdd-HHmmss").format(ZonedDateTime.now(ZoneOffset.UTC));
        Path results = options.results();
        Files.createDirectories(results);
        Path base = options.text("--dir", null) != null ? Paths.get(options.text("--dir", null))
                : Files.isDirectory(Paths.get("benchmarks", "target")) ? Paths.get("benchmarks", "target")
                : Paths.get(System.getProperty("java.io.tmpdir"));
        Files.createDirectories(base);
        Path work = Files.createTempDirectory(base.toAbsolutePath(), "kafka-journal-");
        Mounts.Mount mount = Mounts.of(work);
        String bootstrap = "127.0.0.1:" + closedPort();
        String environment = String.format(Locale.ROOT, "kafka-journal mode, %s, journals in %s, file system %s, broker out"
                + " of reach (%s), fill %d%%, idle %d s, Java %s (%s), %d CPUs, %s", stamp, work, mount.type(), bootstrap,
                fill, idle, System.getProperty("java.version"), System.getProperty("java.vm.name"),
                Runtime.getRuntime().availableProcessors(), System.getProperty("os.name"));
        out.println("lockfreelog benchmarks, " + environment);
        if (mount.type().equals("tmpfs") || mount.type().equals("ramfs")) {
            out.println("Note: " + work + " is on " + mount.type() + ": the journal's pages are memory there (RssShmem);"
                    + " give --dir a folder on a disk to measure what an application on a disk sees.");
        }
        Path tsv = results.resolve("kafka-journal-" + stamp + ".tsv");
        Files.writeString(tsv, "# " + environment + "\n" + String.join("\t", COLUMNS) + "\n", StandardCharsets.UTF_8);
        List<Step> steps = new ArrayList<>();
        try {
            for (String journal : journals) {
                Path folder = Files.createDirectories(work.resolve(journal.replace(':', 'x')));
                List<Step> measured = new ArrayList<>();
                try {
                    measure(journal, folder, bootstrap, fill, idle, measured);
                } catch (IOException | RuntimeException e) {
                    measured.add(new Step(journal, 0, "-", "failed", "", "", null, e.getMessage()));
                }
                for (Step step : measured) {
                    Files.writeString(tsv, tsvRow(step), StandardCharsets.UTF_8, StandardOpenOption.APPEND);
                }
                steps.addAll(measured);
                deleteTree(folder); // a 1 GB journal and its pending copy: not left behind
            }
        } finally {
            try (Stream<Path> folders = Files.list(work)) { // the journals go; the children's output stays
                for (Path folder : folders.filter(Files::isDirectory).toList()) {
                    deleteTree(folder);
                }
            }
        }
        String text = "lockfreelog benchmark results: " + environment + "\n\n" + render(steps);
        Files.writeString(results.resolve("kafka-journal-" + stamp + ".txt"), text, StandardCharsets.UTF_8);
        out.println();
        out.println("=".repeat(100));
        out.print(text);
        out.println("=".repeat(100));
        out.println("Results: " + tsv + "; the children's output: " + work);
        return 0;
    }

    private void measure(String journal, Path folder, String bootstrap, int fill, int idle, List<Step> steps)
            throws IOException, InterruptedException {
        String size = journal.equals("default") ? "-" : journal.substring(0, journal.indexOf(':'));
        String count = journal.equals("default") ? "-" : journal.substring(journal.indexOf(':') + 1);
        Path file = folder.resolve("kafka.journal");
        long[] bytes = {0};
        for (String phase : List.of("fresh", "restart")) {
            out.println("== journal " + journal + ", " + phase + " ==");
            List<String> args = List.of(file.toString(), size, count, bootstrap, Integer.toString(fill),
                    Integer.toString(idle), phase);
            try (ChildJvm child = ChildJvm.start(KafkaJournalChild.class.getName(),
                    List.of("-Xmx256m", "-XX:+UseSerialGC"), args, folder.getParent(),
                    folder.getFileName() + "-" + phase)) {
                String startMs = "";
                String fillEvents = "";
                String fillMs = "";
                for (String line = child.await("", 900); !line.equals("HALT"); line = child.await("", 900)) {
                    out.println("  " + line);
                    String[] f = line.split(" ");
                    switch (f[0]) {
                        case "START" -> startMs = f[1];
                        case "JOURNAL" -> bytes[0] = Long.parseLong(f[3]);
                        case "FILL" -> {
                            fillEvents = f[2];
                            fillMs = f[4];
                        }
                        case "RSS" -> {
                            long[] kb = {Long.parseLong(f[2]), Long.parseLong(f[3]), Long.parseLong(f[4]),
                                Long.parseLong(f[5])};
                            boolean filled = f[1].equals("after-fill") || f[1].equals("full");
                            String ms = f[1].equals("after-start") ? startMs : filled ? fillMs : "";
                            steps.add(new Step(journal, bytes[0], phase, f[1], ms, filled ? fillEvents : "", kb, ""));
                        }
                        case "RECOVERED", "FILES" -> steps.add(new Step(journal, bytes[0], phase, f[0].toLowerCase(Locale.ROOT),
                                "", "", null, line.substring(f[0].length() + 1)));
                        case "FAILED" -> throw new IOException(line);
                        default -> {
                        }
                    }
                }
                // the START and JOURNAL lines come after the first RSS lines: their time and size put there
                for (int i = 0; i < steps.size(); i++) {
                    Step s = steps.get(i);
                    if (s.phase().equals(phase) && s.journal().equals(journal)) {
                        steps.set(i, new Step(journal, bytes[0], phase, s.step(),
                                s.step().equals("after-start") ? startMs : s.ms(), s.events(), s.rssKb(), s.note()));
                    }
                }
                child.exit(60);
            }
            steps.add(new Step(journal, bytes[0], phase, "disk", "", "", null, "du -sk: " + du(folder) + " kB"));
        }
    }

    /** A port nothing listens on: taken from the system, then closed. */
    private static int closedPort() throws IOException {
        try (ServerSocket socket = new ServerSocket(0)) {
            return socket.getLocalPort();
        }
    }

    private static String du(Path folder) {
        try {
            Process du = new ProcessBuilder("du", "-sk", folder.toString()).redirectErrorStream(true).start();
            String text = new String(du.getInputStream().readAllBytes(), StandardCharsets.UTF_8).trim();
            du.waitFor();
            return text.split("\\s+")[0];
        } catch (IOException e) {
            return "?";
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return "?";
        }
    }

    private static void deleteTree(Path folder) throws IOException {
        if (!Files.exists(folder)) {
            return;
        }
        try (Stream<Path> all = Files.walk(folder)) {
            for (Path path : all.sorted(Comparator.reverseOrder()).toList()) {
                Files.deleteIfExists(path);
            }
        }
    }

    private static String mb(long kb) {
        return kb < 0 ? "-" : String.format(Locale.ROOT, "%.1f", kb / 1024.0);
    }

    private static String tsvRow(Step s) {
        List<String> cells = new ArrayList<>(List.of(s.journal(), Long.toString(s.journalBytes()), s.phase(), s.step(),
                s.ms(), s.events()));
        for (int i = 0; i < 4; i++) {
            cells.add(s.rssKb() == null ? "" : Long.toString(s.rssKb()[i]));
        }
        cells.add(s.note().replace('\t', ' '));
        return String.join("\t", cells) + "\n";
    }

    static String render(List<Step> steps) {
        StringBuilder text = new StringBuilder("Per journal: a new journal started, idle, filled, filled up and halted"
                + " (fresh); then a start on that full journal (restart). ms: start() for after-start, the filling for"
                + " after-fill and full. Memory in MB.\n\n");
        String format = "%-10s %8s %-8s %-13s %10s %10s %9s %9s %9s %9s  %s%n";
        text.append(String.format(Locale.ROOT, format, "journal", "MB", "phase", "step", "ms", "events", "VmRSS",
                "RssAnon", "RssFile", "RssShmem", "note"));
        for (Step s : steps) {
            long[] kb = s.rssKb() == null ? new long[] {-1, -1, -1, -1} : s.rssKb();
            text.append(String.format(Locale.ROOT, format, s.journal(), s.journalBytes() == 0 ? "" : mb(s.journalBytes() / 1024),
                    s.phase(), s.step(), s.ms(), s.events(), mb(kb[0]), mb(kb[1]), mb(kb[2]), mb(kb[3]), s.note()));
        }
        return text.toString();
    }
}
