package io.github.lockfreelog.sink;

/**
 * How far a record sink holds a journal's events: every event of journal {@code journalId} in terms
 * before {@code termCount}, and in term {@code termCount} below {@code offset}. Positions are only
 * compared within one journal: the journal id ({@code Journal.journalId()}) tells journals apart.
 */
public record JournalPosition(long journalId, long termCount, long offset) {

    /** Whether this position is at or beyond {@code (termCount, offset)} of the same journal. */
    public boolean covers(long termCount, long offset) {
        return this.termCount > termCount || (this.termCount == termCount && this.offset >= offset);
    }
}
