package io.github.lockfreelog.autoconfigure.console;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.lockfreelog.testsupport.PipedChild;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.ObjectMapper;
import tools.jackson.databind.json.JsonMapper;

/**
 * The lock-free console from Spring Boot ({@code lockfreelog.console.enabled=true}), in a child JVM whose standard
 * output is a pipe this test reads ({@link ConsoleApplication}), as a container runtime would: Spring Boot's CONSOLE
 * replaced from the first start-up line on, with its format; every line once, whole, in order per thread, while
 * another thread prints; Spring Boot's structured format; a journal that cannot be made.
 */
class LockFreeConsoleApplicationTests {

    private static final ObjectMapper JSON = JsonMapper.builder().build();

    /** A line of Spring Boot's console pattern: date, level, pid, application, thread, logger, message. */
    private static final Pattern BOOT_LINE = Pattern.compile(
            "\\d{4}-\\d{2}-\\d{2}T\\d{2}:\\d{2}:\\d{2}\\.\\d{3}\\S* +(TRACE|DEBUG|INFO|WARN|ERROR) \\d+ --- .* : (.*)");

    @TempDir
    Path dir;

    private final List<PipedChild> children = new ArrayList<>();

    @AfterEach
    void killLeftovers() {
        children.forEach(PipedChild::kill);
    }

    @Test
    void springBootsConsoleIsReplacedFromTheFirstLineAndEveryLineArrivesOnceWholeAndInOrder() throws Exception {
        int lines = 5_000;
        int printed = 5_000;
        PipedChild child = start(List.of("-Dlines=" + lines, "-Dprinted=" + printed));
        String console = child.await("CONSOLE");
        child.awaitExit();
        assertThat(console).contains("target=console file=stdout").contains("dropped=0")
                .contains("journal=" + dir.resolve("console.journal"));

        List<String> out = child.output();
        Map<Integer, Long> next = new HashMap<>();
        long printedSeen = 0;
        boolean sawStarting = false;
        for (String line : out) {
            if (line.startsWith("PRINTED ")) {
                assertThat(line).as("printed line, whole, in order").isEqualTo(ConsoleApplication.printed(printedSeen++));
                continue;
            }
            Matcher m = BOOT_LINE.matcher(line);
            assertThat(m.matches()).as("a whole line in Spring Boot's console format: %s", line).isTrue();
            String message = m.group(2);
            sawStarting |= message.startsWith("Starting ConsoleApplication");
            if (message.startsWith("T") && message.contains(" check=")) {
                String[] parts = message.split(" ");
                int thread = Integer.parseInt(parts[0].substring(1));
                long n = Long.parseLong(parts[1]);
                long expected = next.getOrDefault(thread, 0L);
                assertThat(message).as("thread %d: once, in order", thread).isEqualTo(ConsoleApplication.message(thread, expected));
                next.put(thread, n + 1);
            }
        }
        assertThat(sawStarting).as("Spring Boot's first start-up line, on the lock-free console").isTrue();
        for (int t = 0; t < ConsoleApplication.THREADS; t++) {
            assertThat(next.get(t)).as("thread %d", t).isEqualTo(lines);
        }
        assertThat(printedSeen).isEqualTo(printed);
    }

    @Test
    void springBootsStructuredConsoleFormatMakesEveryLineOneJsonDocument() throws Exception {
        int lines = 2_000;
        PipedChild child = start(List.of("-Dlines=" + lines), "--logging.structured.format.console=ecs");
        assertThat(child.await("CONSOLE")).contains("target=console");
        child.awaitExit();
        long logged = 0;
        for (String line : child.output()) {
            JsonNode node = JSON.readTree(line);
            assertThat(node.isObject()).as(line).isTrue();
            if (node.path("message").asString("").contains(" check=")) {
                logged++;
            }
        }
        assertThat(logged).isEqualTo(ConsoleApplication.THREADS * (long) lines);
    }

    @Test
    void aJournalThatCannotBeMadeLeavesSpringBootsConsoleWithOneWarning() throws Exception {
        PipedChild child = startWithJournal(List.of("-Dlines=10"), "/proc/lockfreelog/console.journal");
        assertThat(child.await("CONSOLE")).isEqualTo("CONSOLE none");
        child.awaitExit();
        List<String> out = child.output();
        assertThat(out.stream().filter(l -> l.contains("lockfreelog: the console stays Spring Boot's own")))
                .as("one WARN line that says why").singleElement().satisfies(l -> assertThat(l).contains(" WARN ")
                        .contains("Cannot create the directory /proc/lockfreelog").contains("may not write there")
                        .contains("set lockfreelog.console.journal to a folder it may write")
                        .doesNotContain("<journal>", "chmod"));
        assertThat(out.stream().filter(l -> l.contains(" check="))).as("Spring Boot's console wrote every line")
                .hasSize(ConsoleApplication.THREADS * 10);
    }

    /**
     * README's container recipe, as written there, on a folder as a Kubernetes {@code emptyDir} is mounted (mode
     * 0777, owned by root, or by whoever runs the test): the console is lock-free, with no WARN and no ERROR, its journal
     * in this user's own folder inside the volume.
     */
    @Test
    void readmesContainerRecipeOnAFolderOfMode777GivesALockFreeConsoleWithoutAWarning() throws Exception {
        String recipe = readmeBlock("yaml", "console:");
        String journal = recipe.replaceAll("(?s).*journal: *(\\S+).*", "$1");
        Path readmeFolder = Path.of(journal).getParent();
        Path volume = Files.createDirectory(dir.resolve("volume"));
        Files.setPosixFilePermissions(volume, PosixFilePermissions.fromString("rwxrwxrwx"));
        Path yaml = dir.resolve("application-container.yml");
        Files.writeString(yaml, recipe.replace(readmeFolder.toString(), volume.toString()));
        PipedChild child = startWithJournal(List.of("-Dlines=10"), "", "--spring.config.additional-location=" + yaml);
        int uid = (Integer) Files.getAttribute(Path.of("/proc/self"), "unix:uid");
        Path own = volume.resolve(".lockfreelog-uid-" + uid);
        assertThat(child.await("CONSOLE")).contains("target=console")
                .contains("journal=" + own.resolve(Path.of(journal).getFileName()));
        child.awaitExit();
        List<String> out = child.output();
        assertThat(out).as("no WARN, no ERROR").noneMatch(l -> l.contains(" WARN ") || l.contains(" ERROR "));
        assertThat(out.stream().filter(l -> l.contains(" check="))).as("every line, on the lock-free console")
                .hasSize(ConsoleApplication.THREADS * 10);
        assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(own))).isEqualTo("rwx------");
    }

    /** The first fenced block of README.md in {@code language} that contains {@code text}. */
    private static String readmeBlock(String language, String text) throws IOException {
        Matcher block = Pattern.compile("(?s)```" + language + "\n(.*?)```").matcher(Files.readString(Path.of("../README.md")));
        while (block.find()) {
            if (block.group(1).contains(text)) {
                return block.group(1);
            }
        }
        throw new AssertionError("README.md has no " + language + " block with " + text);
    }

    @Test
    void theConsoleHasItsOwnEngineSettings() throws Exception {
        // start() sets lockfreelog.console.buffer-size=256KB; the file's settings are not the console's.
        PipedChild child = start(List.of("-Dlines=10"), "--lockfreelog.console.buffer-count=4",
                "--lockfreelog.file.buffer-size=128KB", "--lockfreelog.file.buffer-count=5");
        assertThat(child.await("CONSOLE")).contains("target=console").endsWith(" buffers=4x262144");
        child.awaitExit();
    }

    private PipedChild start(List<String> jvm, String... arguments) throws IOException {
        return startWithJournal(jvm, dir.resolve("console.journal").toString(), arguments);
    }

    private PipedChild startWithJournal(List<String> jvm, String journal, String... arguments) throws IOException {
        List<String> jvmArgs = new ArrayList<>(List.of("-Xmx256m", "-XX:+UseSerialGC", "-XX:TieredStopAtLevel=1"));
        jvmArgs.addAll(jvm);
        List<String> args = new ArrayList<>(List.of("--lockfreelog.console.buffer-size=256KB",
                "--spring.main.banner-mode=off", "--spring.jmx.enabled=false"));
        if (!journal.isEmpty()) { // else the arguments name a configuration file that enables the console
            args.addAll(List.of("--lockfreelog.console.enabled=true", "--lockfreelog.console.journal=" + journal));
        }
        args.addAll(List.of(arguments));
        PipedChild child = PipedChild.start(ConsoleApplication.class.getName(), jvmArgs, args,
                dir.resolve("stdout-" + children.size()), true);
        children.add(child);
        return child;
    }
}
