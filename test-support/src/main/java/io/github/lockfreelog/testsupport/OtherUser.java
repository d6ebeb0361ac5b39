package io.github.lockfreelog.testsupport;

import static org.assertj.core.api.Assumptions.assumeThat;

import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.nio.file.attribute.UserPrincipal;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

/**
 * A child JVM run as another user, {@code nobody} (uid and gid 65534, no supplementary groups), through
 * {@code setpriv}: as root, permission bits do not stop writes, so what a non-root application meets can only be
 * seen from such a process. Needs root and {@code setpriv}; tests that use it are skipped elsewhere. The class path
 * the child needs (the module's classes, this test support, Logback, SLF4J) is copied to a folder that user may read.
 */
public final class OtherUser {

    public static final int UID = 65534;

    private OtherUser() {
    }

    /** Skips the calling test unless this process is root and {@code setpriv} is installed. */
    public static void assumeAvailable() {
        assumeThat(System.getProperty("user.name")).as("only root can run a process as another user").isEqualTo("root");
        assumeThat(Stream.of("/usr/bin/setpriv", "/bin/setpriv").anyMatch(p -> Files.isExecutable(Path.of(p))))
                .as("setpriv installed").isTrue();
    }

    /** The user {@code nobody}, to give files and folders to (root only). */
    public static UserPrincipal nobody() throws IOException {
        assumeThat(System.getProperty("user.name")).as("only root can give a folder to another user").isEqualTo("root");
        return Path.of("/").getFileSystem().getUserPrincipalLookupService().lookupPrincipalByName("nobody");
    }

    /** The outcome of a child: its exit status and what it printed (standard output and error together). */
    public record Run(int exitStatus, String output) {
    }

    /**
     * Runs {@code main} with {@code args} as {@code nobody}, with the class path copied under {@code shared} (a folder
     * that user may enter; once, for every run with the same {@code shared}), and waits for it (60 s at most).
     */
    public static Run run(Path shared, Class<?> main, String... args) throws Exception {
        Path classPath = Files.createDirectories(shared.resolve("classpath"));
        List<String> entries = new ArrayList<>();
        int n = 0;
        for (String entry : System.getProperty("java.class.path").split(File.pathSeparator)) {
            Path from = Path.of(entry);
            String name = from.getFileName().toString();
            if (Files.isDirectory(from) || name.startsWith("logback-") || name.startsWith("slf4j-")
                    || name.startsWith("lockfreelog-test-support-")) {
                Path to = classPath.resolve((n++) + "-" + name);
                if (!Files.exists(to)) { // copied by an earlier run into the same folder
                    copy(from, to);
                }
                entries.add(to.toString());
            }
        }
        readableByAll(classPath);
        Set<PosixFilePermission> mode = new HashSet<>(Files.getPosixFilePermissions(shared));
        mode.addAll(Set.of(PosixFilePermission.OTHERS_READ, PosixFilePermission.OTHERS_EXECUTE));
        Files.setPosixFilePermissions(shared, mode); // the child enters it; nothing else about it changes
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        List<String> command = new ArrayList<>(List.of("setpriv", "--reuid=" + UID, "--regid=" + UID, "--clear-groups",
                java, "-Xmx128m", "-XX:+UseSerialGC", "-XX:TieredStopAtLevel=1", "-Duser.name=nobody", "-cp", String.join(File.pathSeparator, entries), main.getName()));
        command.addAll(List.of(args));
        Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
        process.getOutputStream().close();
        String output = new String(process.getInputStream().readAllBytes());
        if (!process.waitFor(60, TimeUnit.SECONDS)) {
            process.destroyForcibly();
            throw new AssertionError("the child as nobody did not exit: " + output);
        }
        return new Run(process.exitValue(), output);
    }

    private static void copy(Path from, Path to) throws IOException {
        if (!Files.isDirectory(from)) {
            Files.copy(from, to);
            return;
        }
        try (Stream<Path> tree = Files.walk(from)) {
            for (Path p : (Iterable<Path>) tree::iterator) {
                Path target = to.resolve(from.relativize(p).toString());
                if (Files.isDirectory(p)) {
                    Files.createDirectories(target);
                } else {
                    Files.copy(p, target);
                }
            }
        }
    }

    /** Opens {@code folder}, and everything in it, for reading by all (folders also for entering). */
    private static void readableByAll(Path folder) throws IOException {
        try (Stream<Path> tree = Files.walk(folder)) {
            for (Path p : (Iterable<Path>) tree::iterator) {
                Files.setPosixFilePermissions(p, PosixFilePermissions.fromString(Files.isDirectory(p) ? "rwxr-xr-x"
                        : "rw-r--r--"));
            }
        }
    }
}
