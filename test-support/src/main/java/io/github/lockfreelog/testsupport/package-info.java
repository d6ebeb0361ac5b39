/**
 * The tests' harness, shared by every module's tests (module {@code test-support}, artifact
 * {@code lockfreelog-test-support}, test scope everywhere, never published).
 *
 * <p>{@link io.github.lockfreelog.testsupport.ChildJvm} starts a JVM on the test's class path, awaits the lines of
 * its protocol ({@code READY}, ...), sends it commands, kills it with SIGKILL or lets a crash point halt it, and
 * kills any child left when the test JVM exits; {@link io.github.lockfreelog.testsupport.PipedChild} is one whose
 * standard output is a named pipe. {@link io.github.lockfreelog.testsupport.AckFile} is how a child says which
 * events its callers were acknowledged for, in a file that outlives it. {@link io.github.lockfreelog.testsupport.OtherUser}
 * runs a child as another user ({@link io.github.lockfreelog.testsupport.CoTenant}'s steps).
 * {@link io.github.lockfreelog.testsupport.TestLogback} holds the Logback-only helpers (a context, an encoder, a
 * logger, events, statuses); {@link io.github.lockfreelog.testsupport.Allocations} counts a thread's allocations.
 * The Kafka broker, cluster and {@code read_committed} reader are in {@code testsupport.kafka}.
 *
 * <p><b>Why core's own fixtures are not here.</b> Core's tests use this module, and Maven forbids a cycle, so this
 * module depends on no lockfreelog module: it holds only what needs no core type. The fixtures that implement or
 * build core's types (the recording, gated and failing sinks, the appender fixtures, the quiet status reporter) stay
 * in one place, core's test-jar (package {@code io.github.lockfreelog.testing}), which the other modules' tests take.
 * The Kafka part's dependencies are optional here: a module whose tests start a broker declares
 * {@code spring-kafka-test} itself, so core's tests have no broker on their class path.
 */
package io.github.lockfreelog.testsupport;
