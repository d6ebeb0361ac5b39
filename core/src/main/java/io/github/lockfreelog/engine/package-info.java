/**
 * The engine's façade and the caller's path ({@link io.github.lockfreelog.engine.JournalEngine}), its
 * settings and their one validator ({@link io.github.lockfreelog.engine.EngineConfig},
 * {@link io.github.lockfreelog.engine.SettingProblem}), start-up, stop and statistics.
 */
package io.github.lockfreelog.engine;
