package io.github.lockfreelog.autoconfigure.logging;

import org.springframework.beans.factory.DisposableBean;

/**
 * Ends the engine (it drains to the file, unmaps and empties the journal, releases its lock) when the application
 * context closes, where nothing else would: with {@code logging.register-shutdown-hook=false}, which Spring Boot's
 * {@code SpringBootServletInitializer} sets for a WAR, a redeploy into the same JVM would otherwise find the journal
 * still locked. {@link LockFreeLogApplicationListener} registers it only then; with the hook (the default) the engine
 * ends at JVM shutdown, after Spring Boot has stopped Logback.
 *
 * <p>Registered before the context creates any bean, so destroyed after all of them: lines logged while the other
 * beans shut down are still written (a {@code SmartLifecycle} would stop before the beans are destroyed). While
 * several contexts are open, only the last one to close ends the engine.
 */
final class LockFreeLogShutdown implements DisposableBean {

    private final LockFreeLogRuntime runtime;

    LockFreeLogShutdown(LockFreeLogRuntime runtime) {
        this.runtime = runtime;
        runtime.closeWhenClosed(this);
    }

    @Override
    public void destroy() {
        runtime.closed(this);
    }
}
