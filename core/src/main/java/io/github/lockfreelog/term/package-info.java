/**
 * The term protocol: the journal's layout ({@link io.github.lockfreelog.term.JournalDescriptor}), its
 * memory with accesses named by their ordering ({@link io.github.lockfreelog.term.Journal}, the seam the
 * model check replaces; {@link io.github.lockfreelog.term.MappedJournal}, the mapped file;
 * {@link io.github.lockfreelog.term.JournalFiles}, which makes one of a file), the frame codec
 * ({@link io.github.lockfreelog.term.FrameCodec}), the caller's claim and commit
 * ({@link io.github.lockfreelog.term.TermAppender}), the one walk over frames
 * ({@link io.github.lockfreelog.term.TermReader}), the passing over of stalled writers
 * ({@link io.github.lockfreelog.term.TermUnblocker}) and which buffers are clean
 * ({@link io.github.lockfreelog.term.BufferStates}).
 *
 * <p>Public as the protocol is: the drainer and recovery, in other packages, read the same frames by the
 * same rules. Depends only on {@code files}.
 */
package io.github.lockfreelog.term;
