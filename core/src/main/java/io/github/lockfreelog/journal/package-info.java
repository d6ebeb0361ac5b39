/**
 * Where a journal lives and who holds it: the slots of a log file's journal folder
 * ({@link io.github.lockfreelog.journal.JournalSlots}), the locks that keep a journal to one process
 * ({@link io.github.lockfreelog.journal.JournalLock}), and the ledger of writes in flight that the
 * instances sharing one log file keep ({@link io.github.lockfreelog.journal.WriteLedger}).
 */
package io.github.lockfreelog.journal;
