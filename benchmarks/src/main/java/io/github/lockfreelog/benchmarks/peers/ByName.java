package io.github.lockfreelog.benchmarks.peers;

/**
 * Loads a class of the Kafka, OTLP or Spring Boot packages by its name, so that the file benchmarks (the
 * {@code cli}, {@code peers}, {@code jmh}, {@code measure}, {@code results} and {@code report} packages) hold no
 * reference to them and run without their jars: only a run that names such a mode or peer loads it.
 */
public final class ByName {

    private ByName() {
    }

    /**
     * A new instance of {@code className} (a public class with a public no-argument constructor) as a {@code type};
     * an {@link IllegalStateException} that names {@code what} and the class when it, or a jar it needs, is missing.
     */
    public static <T> T load(String className, Class<T> type, String what) {
        try {
            return Class.forName(className).asSubclass(type).getConstructor().newInstance();
        } catch (ReflectiveOperationException | LinkageError | ClassCastException e) {
            throw new IllegalStateException(what + " needs " + className + " and the jars it uses on the class path"
                    + " (benchmarks/target/benchmarks.jar has them all): " + e, e);
        }
    }
}
