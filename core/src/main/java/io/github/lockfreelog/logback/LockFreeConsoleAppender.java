package io.github.lockfreelog.logback;

import io.github.lockfreelog.diagnostics.StatusReporter;
import io.github.lockfreelog.engine.EngineConfig;
import io.github.lockfreelog.engine.JournalEngine;
import io.github.lockfreelog.engine.SettingProblem;
import io.github.lockfreelog.journal.JournalSlots;
import io.github.lockfreelog.sink.ConsoleLogSink;
import io.github.lockfreelog.sink.LogTarget;
import java.io.IOException;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Supplier;

/**
 * A Logback appender that writes standard output (or standard error) without a lock, for services in
 * containers: each calling thread encodes its event and reserves space in a memory-mapped journal
 * with one atomic operation, as {@link LockFreeFileAppender} does, and a background thread writes
 * whole lines to the stream, in pieces a pipe takes in one piece ({@link ConsoleLogSink}). After a
 * kill -9, the next start writes what the journal held before any new line, then one INFO line.
 *
 * <pre>{@code
 * <appender name="CONSOLE" class="io.github.lockfreelog.logback.LockFreeConsoleAppender">
 *   <encoder><pattern>%d %5p [%t] %c - %m%n</pattern></encoder>
 * </appender>
 * }</pre>
 *
 * <p>The journal must outlive what it must survive: unset, it is
 * {@code <java.io.tmpdir>/.lockfreelog-<application>-uid-<uid>/<appender name>.journal} (then
 * {@code <appender name>.1.journal} ... for other instances), which a container's own {@code /tmp}
 * loses with the container; a volume (a Kubernetes {@code emptyDir}) outlives container restarts in
 * its pod. The settings are the file appender's, less the file and rolling ones, plus {@link #setTarget
 * target} and {@link #setApplication application}.
 */
public class LockFreeConsoleAppender extends LockFreeAppenderBase {

    /** Logback's names of the two streams, as {@code ConsoleAppender} takes them. */
    public static final String SYSTEM_OUT = "System.out";
    public static final String SYSTEM_ERR = "System.err";

    private String target = SYSTEM_OUT;
    private String application;
    /** Opens the stream; tests and the benchmarks give another one (a pipe). */
    private Supplier<ConsoleLogSink> stream;

    @Override
    public List<SettingProblem> checkSettings() {
        List<SettingProblem> problems = new ArrayList<>();
        if (!isSystemOut() && !SYSTEM_ERR.equals(trimmedTarget())) {
            problems.add(new SettingProblem("target", target, SYSTEM_OUT + " or " + SYSTEM_ERR));
        }
        addSharedProblems(problems);
        return problems;
    }

    @Override
    protected JournalEngine startEngine(String suffix) {
        Path journalFile;
        try {
            journalFile = isJournalSet() ? AppenderFiles.journalOf(getJournal()) : defaultJournal();
        } catch (RuntimeException e) {
            addError("Cannot use the journal " + getJournal() + suffix + ": " + e);
            return null;
        }
        AppenderFiles files = newClaims();
        if (isJournalSet()) {
            journalFile = files.placeJournal(journalFile, suffix); // in an open folder: in this user's own inside it
            if (journalFile == null || !files.claimJournal(journalFile, String.valueOf(name), suffix)) {
                return null;
            }
        }
        files.describeFileSystems(null, journalFile, suffix);
        ConsoleLogSink sink = stream != null ? stream.get()
                : isSystemOut() ? ConsoleLogSink.standardOutput() : ConsoleLogSink.standardError();
        int slots = isJournalSet() ? 1 : JournalSlots.DEFAULT_SLOTS; // one journal per instance, as for files
        EngineConfig config = engineConfig().logFile(Paths.get(sink.name())).journalFile(journalFile)
                .journalSlots(slots).target(LogTarget.CONSOLE).build();
        try {
            StatusReporter status = new LogbackStatusReporter(this, suffix);
            return JournalEngine.start(config, status, () -> sinkDecorator().apply(sink));
        } catch (IOException | RuntimeException e) {
            files.release();
            addError("Could not start" + suffix + " with journal " + journalFile + " (set <journal> to a folder"
                    + " this process may write and that outlives what it must survive, e.g. a volume): " + e, e);
            return null;
        }
    }

    /** The journal unset: in a hidden folder of {@code java.io.tmpdir} named after the application and the user. */
    Path defaultJournal() {
        return journalInTmp(applicationName(), ".journal");
    }

    /** {@link #setApplication application}, else the Logback context's name when set, else the main class or jar. */
    String applicationName() {
        return applicationName(application);
    }

    @Override
    protected LogTarget target() {
        return LogTarget.CONSOLE;
    }

    @Override
    protected String targetName() {
        return isSystemOut() ? "stdout" : "stderr";
    }

    private boolean isSystemOut() {
        return SYSTEM_OUT.equals(trimmedTarget());
    }

    private String trimmedTarget() {
        return target == null ? SYSTEM_OUT : target.trim();
    }

    // ---- settings of the stream -----------------------------------------------------------------

    public String getTarget() {
        return target;
    }

    /** {@code System.out} (the default) or {@code System.err}, as for Logback's {@code ConsoleAppender}. */
    public void setTarget(String target) {
        this.target = target;
    }

    public String getApplication() {
        return application;
    }

    /** Names the default journal's folder; unset, the Logback context's name, else the main class or jar. */
    public void setApplication(String application) {
        this.application = application;
    }

    /** Writes to {@code stream} instead of standard output or error (tests, the benchmarks' pipe); before start. */
    public void setStream(Supplier<ConsoleLogSink> stream) {
        this.stream = stream;
    }
}
