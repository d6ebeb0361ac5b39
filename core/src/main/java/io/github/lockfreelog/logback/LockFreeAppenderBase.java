package io.github.lockfreelog.logback;

import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.CoreConstants;
import ch.qos.logback.core.status.ErrorStatus;
import ch.qos.logback.core.status.InfoStatus;
import ch.qos.logback.core.status.Status;
import ch.qos.logback.core.status.WarnStatus;
import io.github.lockfreelog.diagnostics.AppenderStatistics;
import io.github.lockfreelog.diagnostics.DropReason;
import io.github.lockfreelog.diagnostics.Printable;
import io.github.lockfreelog.engine.JournalEngine;
import io.github.lockfreelog.engine.SettingProblem;
import io.github.lockfreelog.files.Mounts;
import io.github.lockfreelog.files.PrivateFolders;
import io.github.lockfreelog.journal.JournalSlots;
import io.github.lockfreelog.sink.LogTarget;
import java.io.IOException;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.List;

/**
 * The life cycle every lock-free appender shares, whatever it writes to: start checks the settings
 * ({@link LockFreeAppenderSettings}), then has the subclass start the engine where its lines go; stop, close, append
 * and the statistics. The log file and rolling settings belong to {@link LockFreeFileAppender}, the stream to
 * {@link LockFreeConsoleAppender}.
 */
public abstract class LockFreeAppenderBase extends LockFreeAppenderSettings {

    /** Name of the hidden folder, beside the log file, that holds the journal by default. */
    public static final String JOURNAL_FOLDER = JournalSlots.JOURNAL_FOLDER;
    /** Logger name of the line that reports events recovered at start. */
    public static final String RECOVERY_LOGGER = "io.github.lockfreelog.recovery";

    /** Whether the engine runs on while this appender is stopped ({@link #setKeepEngineOnStop}). */
    private volatile boolean engineKept;
    private volatile JournalEngine engine;
    /** Set at start, before {@code super.start()} publishes it to the callers of {@link #doAppend}. */
    private EventWriter writer;
    private final NotRunningStatistics notRunning = new NotRunningStatistics();
    /** What the last start claimed ({@link #newClaims}); {@code null} before. */
    private AppenderFiles claims;

    @Override
    public void start() {
        if (isStarted()) {
            return;
        }
        if (engineKept) {
            super.start(); // stopped by Logback while its owner kept the engine: append again, same engine and counters
            return;
        }
        String suffix = " for the appender named \"" + name + "\"";
        List<SettingProblem> problems = checkSettings();
        if (!problems.isEmpty()) {
            problems.forEach(problem -> addError(problem.message(String.valueOf(name))));
            return;
        }
        warnAboutSettings(suffix);
        writer = EventWriter.of(this, suffix);
        int swaps = io.github.lockfreelog.files.PrivateFolders.swapsRefused();
        JournalEngine started = startEngine(suffix);
        if (started == null && io.github.lockfreelog.files.PrivateFolders.swapsRefused() != swaps) {
            // a journal folder was swapped between its check and an open in it: placed again, the journal finds what
            // took the folder's name (never followed) and goes into another folder of this user's own
            addInfo("Trying once more to start" + suffix + ", as a journal folder was replaced since its check");
            started = startEngine(suffix);
        }
        if (started == null) {
            return;
        }
        engine = started;
        engineKept = isKeepEngineOnStop();
        super.start();
        RecoveryReport.report(started.statistics(), this, name, this::append);
    }

    /**
     * Starts the engine where this appender's lines go, once the settings passed {@link #checkSettings()}: claims
     * what it needs, builds the config from {@link #engineConfig()} and recovers what a process that died left.
     *
     * @param suffix names the appender, for status messages
     * @return the running engine, or {@code null} when it could not start (each problem reported, nothing claimed)
     */
    protected abstract JournalEngine startEngine(String suffix);

    /** A holder for what this start of the engine claims (files, a journal); given back when the engine stops. */
    final AppenderFiles newClaims() {
        claims = new AppenderFiles(this);
        return claims;
    }

    /**
     * Puts a setting given as {@code name=value} ({@code <setting>} may be given many times) into {@code into}, both
     * halves trimmed; one that is not {@code name=value} is reported as an error naming {@code setting}, and left out.
     */
    protected final void putNameValue(String setting, String nameValue, java.util.Map<String, ? super String> into) {
        int equals = nameValue == null ? -1 : nameValue.indexOf('=');
        if (equals <= 0) {
            addError(setting + " \"" + nameValue + "\" is not name=value for the appender named \"" + name + "\"");
            return;
        }
        into.put(nameValue.substring(0, equals).trim(), nameValue.substring(equals + 1).trim());
    }

    /**
     * Claims {@code journalFile} for this appender alone (no other appender of the JVM may use it, by any path) and
     * checks that its folder is this user's, closed to others, and writable; for an appender outside this package
     * that has no log file. A journal set explicitly in a folder open to others goes into this user's own folder
     * inside it, as the file and console appenders' do. Given back when the engine stops, or by
     * {@link #releaseClaims()}.
     *
     * @return the journal to use; {@code null} when something went wrong, each problem reported and nothing claimed
     */
    protected final Path claimJournal(Path journalFile, boolean explicit, String suffix) {
        AppenderFiles files = newClaims();
        Path placed = explicit ? files.placeJournal(journalFile, suffix) : journalFile;
        if (placed == null || (explicit && !files.claimJournal(placed, String.valueOf(name), suffix))) {
            return null;
        }
        files.describeFileSystems(null, placed, suffix);
        return placed;
    }

    /** Gives back what {@link #claimJournal} claimed, after a start that failed. */
    protected final void releaseClaims() {
        if (claims != null) {
            claims.release();
        }
    }

    /**
     * What each journal frame holds beside the encoded event, for a sink that needs it (see {@link EventEnvelope});
     * {@code null}, the default: the encoded event alone.
     */
    protected EventEnvelope envelope() {
        return null;
    }

    /**
     * A journal in a hidden folder of {@code java.io.tmpdir} named after {@code application} and the user's numeric
     * id: {@code <tmpdir>/.lockfreelog-<application>-uid-<uid>/<appender name><suffix>}, this user's own folder there
     * ({@link PrivateFolders#ownFolderIn}: made owner-only, checked without following a link; when another user made
     * something of that name first, a folder of this user's own of another name, said once at WARN).
     */
    protected final Path journalInTmp(String application, String fileSuffix) {
        Path tmp = Paths.get(System.getProperty("java.io.tmpdir")).toAbsolutePath();
        String base = ".lockfreelog-" + fileNamePart(application);
        String file = fileNamePart(String.valueOf(name)) + fileSuffix;
        try {
            Mounts.requireLocal(tmp); // before anything is created there
            PrivateFolders.OwnFolder own = PrivateFolders.ownFolderIn(tmp, base);
            new AppenderFiles(this).warnIfTaken(own, " for the appender named \"" + name + "\"");
            return own.folder().resolve(file);
        } catch (IOException | RuntimeException e) {
            // its folder cannot be made or is refused: the start that uses it meets the problem and names it
            return tmp.resolve(base + "-" + PrivateFolders.userTag()).resolve(file);
        }
    }

    /** {@code text} as part of a file name: letters, digits, {@code .}, {@code _} and {@code -}; others become {@code _}. */
    protected static String fileNamePart(String text) {
        String part = text.replaceAll("[^A-Za-z0-9._-]", "_");
        return part.isEmpty() || part.startsWith(".") ? "_" + part : part;
    }

    /**
     * {@code application} when set, else the Logback context's name when set, else the main class or jar: what
     * names the folder of a journal in {@code java.io.tmpdir}.
     */
    protected final String applicationName(String application) {
        if (application != null && !application.isBlank()) {
            return application.trim();
        }
        String contextName = getContext() == null ? null : getContext().getName();
        if (contextName != null && !CoreConstants.DEFAULT_CONTEXT_NAME.equals(contextName)) {
            return contextName;
        }
        String command = System.getProperty("sun.java.command", "").trim();
        String main = command.isEmpty() ? "java" : command.split("\\s+")[0];
        main = main.substring(Math.max(main.lastIndexOf('/'), main.lastIndexOf('\\')) + 1);
        main = main.endsWith(".jar") ? main.substring(0, main.length() - 4) : main.substring(main.lastIndexOf('.') + 1);
        return main.isEmpty() ? "java" : main;
    }

    /**
     * Every status of this appender, and of the engine through it, with its text made printable ({@link Printable}):
     * messages name folders, files, link targets and exceptions that others may have named, and the starter logs
     * them again; a control character in one is shown, never written, so none can end a line and forge another.
     */
    @Override
    public void addStatus(Status status) {
        String message = Printable.text(status.getMessage());
        Throwable cause = Printable.cause(status.getThrowable());
        if (message == status.getMessage() && cause == status.getThrowable()) {
            super.addStatus(status);
        } else if (status.getLevel() == Status.ERROR) {
            super.addStatus(new ErrorStatus(message, status.getOrigin(), cause));
        } else if (status.getLevel() == Status.WARN) {
            super.addStatus(new WarnStatus(message, status.getOrigin(), cause));
        } else {
            super.addStatus(new InfoStatus(message, status.getOrigin(), cause));
        }
    }

    /** What this appender writes to, for its statistics while it has no engine. */
    protected abstract LogTarget target();

    /** The log file or stream this appender writes to, as its statistics name it. */
    protected abstract String targetName();

    /**
     * Drains everything committed to the log, unmaps the journal and leaves it empty; bounded by
     * {@code stopTimeout}. Events that arrive afterwards are counted as dropped ({@code stopped}). With
     * {@link #setKeepEngineOnStop keepEngineOnStop} it only stops appending, and {@link #close()} does the rest.
     */
    @Override
    public void stop() {
        if (!isStarted()) {
            return;
        }
        super.stop();
        if (!engineKept) {
            closeEngine();
        }
    }

    /**
     * Stops appending and closes the engine, as {@link #stop()} does without {@link #setKeepEngineOnStop
     * keepEngineOnStop}: for the owner of an appender whose engine outlives Logback's stops.
     */
    public void close() {
        super.stop();
        closeEngine();
    }

    private void closeEngine() {
        engineKept = false;
        JournalEngine running = engine;
        if (running != null) {
            running.stop();
            engineStopped();
        }
        if (claims != null) {
            claims.release();
        }
    }

    /**
     * Called once the engine stopped (drained, or its stop timed out): for what a subclass opened for the engine
     * and the engine does not close itself (the Kafka sinks that recover other slots' journals).
     */
    protected void engineStopped() {
    }

    @Override
    public void doAppend(ILoggingEvent event) {
        if (!isStarted()) {
            JournalEngine stopped = engine;
            if (stopped != null) {
                stopped.countDropped(DropReason.STOPPED); // counted, not silently ignored
                return;
            }
            notRunning.countDropped(); // start failed or never ran: counted too
        }
        super.doAppend(event);
    }

    @Override
    protected void append(ILoggingEvent event) {
        writer.write(engine, event);
    }

    /** An immutable snapshot of this appender's counters. */
    public AppenderStatistics getStatistics() {
        JournalEngine current = engine;
        if (current == null) {
            return notRunning.snapshot(String.valueOf(name), target().id(), targetName(), getJournal(),
                    (int) getBufferSize().getSize(), getBufferCount());
        }
        return current.statistics();
    }
}
