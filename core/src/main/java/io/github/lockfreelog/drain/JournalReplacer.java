package io.github.lockfreelog.drain;

import java.io.IOException;

/**
 * Builds a journal in place of one whose file is gone from disk (its folder was deleted, or the
 * name now stands for another file): the start-up's steps, which the drainer runs when it finds
 * the journal gone. The engine gives one to its drainer.
 */
@FunctionalInterface
public interface JournalReplacer {

    /**
     * Builds and returns the journal to write into instead of {@code gone}; the drainer then makes
     * it the active one, retires {@code gone} and drains what it still holds.
     */
    ActiveJournal replace(ActiveJournal gone) throws IOException;
}
