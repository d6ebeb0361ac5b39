/**
 * The starter's settings as Spring Boot binds them: {@code lockfreelog.*}
 * ({@link io.github.lockfreelog.autoconfigure.properties.LockFreeLogProperties}, with one group per target and the
 * engine's settings each has, {@link io.github.lockfreelog.autoconfigure.properties.LockFreeLogEngineProperties}),
 * bound for one run while logging starts, with whether the starter is on and which file it writes
 * ({@link io.github.lockfreelog.autoconfigure.properties.StarterProperties}); and the report of a value that cannot be
 * used, under its property's name
 * ({@link io.github.lockfreelog.autoconfigure.properties.InvalidLockFreeLogPropertyException}). Plain settings: it
 * starts nothing and uses no other package of the starter.
 */
package io.github.lockfreelog.autoconfigure.properties;
