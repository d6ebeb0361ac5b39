package io.github.lockfreelog.logback.rolling;

import ch.qos.logback.core.Context;
import ch.qos.logback.core.rolling.helper.DateTokenConverter;
import ch.qos.logback.core.rolling.helper.FileNamePattern;
import ch.qos.logback.core.rolling.helper.RollingCalendar;
import io.github.lockfreelog.logback.rolling.RolledFileCompressor.Leftover;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.time.Instant;
import java.util.Date;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.TimeZone;
import java.util.function.Predicate;
import java.util.stream.Collectors;

/**
 * Names the archives of one file name pattern: the period the live file belongs to, when that
 * period ends, and the name it is rolled to ({@code %d{...}} of the period, {@code %i} the next free
 * index within it), never one that an archive, its uncompressed form, its source or an interrupted
 * compression already has. Logback's {@link FileNamePattern} and {@link RollingCalendar} do the
 * formatting and the period arithmetic. Used by the drainer thread only.
 */
final class ArchiveNaming {

    private final FileNamePattern pattern;
    private final RollingCalendar calendar;
    /** Whether the pattern has {@code %i}. */
    private final boolean indexed;
    private final ArchiveFiles files;
    /** Whether a name is taken ({@link Files#exists} without following links; a test puts a compression between two looks). */
    private final Predicate<Path> taken;
    /** Archives that interrupted compressions found at start will complete: never rolled into. */
    private Set<Path> reserved = Set.of();

    private Instant period;
    private long nextPeriodMillis;
    private int index;

    ArchiveNaming(String fileNamePattern, Context context, ArchiveFiles files) {
        this(fileNamePattern, context, files, path -> Files.exists(path, LinkOption.NOFOLLOW_LINKS));
    }

    ArchiveNaming(String fileNamePattern, Context context, ArchiveFiles files, Predicate<Path> taken) {
        this.pattern = new FileNamePattern(fileNamePattern, context);
        this.files = files;
        this.taken = taken;
        this.indexed = pattern.hasIntegerTokenCOnverter();
        DateTokenConverter<Object> dates = pattern.getPrimaryDateTokenConverter();
        TimeZone zone = dates.getZoneId() == null ? TimeZone.getDefault() : TimeZone.getTimeZone(dates.getZoneId());
        this.calendar = new RollingCalendar(dates.getDatePattern(), zone, Locale.getDefault());
    }

    /** Keeps the archives that {@code leftovers} will complete from being rolled into; before {@link #startPeriod}. */
    void reserve(List<Leftover> leftovers) {
        reserved = leftovers.stream().map(l -> l.target().toAbsolutePath().normalize())
                .collect(Collectors.toUnmodifiableSet());
    }

    FileNamePattern pattern() {
        return pattern;
    }

    RollingCalendar calendar() {
        return calendar;
    }

    boolean indexed() {
        return indexed;
    }

    /** When ({@code System.currentTimeMillis()} time) the current period ends. */
    long nextPeriodMillis() {
        return nextPeriodMillis;
    }

    /** Starts the period that holds {@code at}, at its first free index. */
    void startPeriod(Instant at) {
        this.period = at;
        this.nextPeriodMillis = calendar.getNextTriggeringDate(at).toEpochMilli();
        this.index = indexed ? firstFreeIndex(at) : 0;
    }

    /**
     * The name the live file is rolled to at {@code now}: the period's next free index (never an
     * existing archive; without {@code %i}, the period's name and {@code .<now>}).
     */
    String nextArchiveName(long now) {
        String target = pattern.convertMultipleArguments(Date.from(period), index);
        while (archiveExists(target)) { // never overwrite an archive
            if (!indexed) {
                return target + "." + now;
            }
            target = pattern.convertMultipleArguments(Date.from(period), ++index);
        }
        return target;
    }

    /** After a roll at {@code now}: a new period if the current one ended, else the next index. */
    void rolled(long now) {
        if (now >= nextPeriodMillis) {
            startPeriod(Instant.ofEpochMilli(now));
        } else {
            index++;
        }
    }

    private int firstFreeIndex(Instant at) {
        int i = 0;
        while (archiveExists(pattern.convertMultipleArguments(Date.from(at), i))) {
            i++;
        }
        return i;
    }

    /**
     * Whether the archive {@code name}, its source awaiting compression or its uncompressed form exists, or is reserved.
     * The names are looked at in the order a rolled file passes through them, source first: another instance's
     * compression may complete between two looks (its archive appears, then its source goes), and a look at the
     * archive before the source would then see neither, and roll onto a name that is taken. Looked at this way, a
     * source that is gone was compressed, so its archive is there for the next look. (No other roll runs meanwhile:
     * the caller holds the roll lock.)
     */
    boolean archiveExists(String name) {
        Path archive = Paths.get(name);
        return reserved.contains(archive.toAbsolutePath().normalize())
                || taken.test(files.sourceFor(archive))
                || taken.test(Paths.get(files.uncompressedName(name)))
                || taken.test(archive);
    }
}
