package io.github.lockfreelog.benchmarks.cli;

import io.github.lockfreelog.benchmarks.peers.Workload;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Paths;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.util.Locale;

/** What a run's files are named by and say about where they were measured: the stamp, the run's name, the machine. */
public final class RunEnvironment {

    private RunEnvironment() {
    }

    public static String stamp() {
        return DateTimeFormatter.ofPattern("yyyyMMdd-HHmmss").format(ZonedDateTime.now(ZoneOffset.UTC));
    }

    /** The name a run's files start with: the mode's, and for a boot-* workload the workload's too ({@code cost-boot-file}). */
    public static String runName(String mode, Arguments arguments) {
        return arguments.workload.isBoot() ? mode + "-" + arguments.workload.id() : mode;
    }

    /** The run's first line: mode (and workload), stamp, Java, CPUs, OS; and the Spring Boot version of a boot-* run. */
    public static String environment(String name, String stamp) {
        Workload.Kind workload = Workload.Kind.current();
        String boot = " (Spring Boot " + org.springframework.boot.SpringBootVersion.getVersion() + ")";
        String what = name.equals("boot-app") ? boot : ", workload " + workload.id() + (workload.isBoot() ? boot : "");
        return String.format(Locale.ROOT, "%s mode%s, %s, Java %s (%s), %s, %s", name, what, stamp,
                System.getProperty("java.version"), System.getProperty("java.vm.name"), machine(),
                System.getProperty("os.name"));
    }

    /** The CPUs this JVM may use and their model ({@code /proc/cpuinfo}; left out where it cannot be read). */
    public static String machine() {
        String model = null;
        try (java.util.stream.Stream<String> lines = Files.lines(Paths.get("/proc/cpuinfo"))) {
            model = lines.filter(l -> l.startsWith("model name")).map(l -> l.substring(l.indexOf(':') + 1).trim())
                    .findFirst().orElse(null);
        } catch (IOException | RuntimeException e) {
            // not Linux, or /proc not mounted: the count alone
        }
        int cpus = Runtime.getRuntime().availableProcessors();
        return cpus + " CPUs" + (model == null || model.isEmpty() ? "" : " (" + model + ")");
    }
}
