package io.github.lockfreelog.autoconfigure.console;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.lockfreelog.testing.PipedChild;
import java.io.IOException;
import java.nio.file.Path;
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
                .as("one WARN line that says why").hasSize(1).allMatch(l -> l.contains(" WARN "));
        assertThat(out.stream().filter(l -> l.contains(" check="))).as("Spring Boot's console wrote every line")
                .hasSize(ConsoleApplication.THREADS * 10);
    }

    @Test
    void theConsoleHasItsOwnEngineSettings() throws Exception {
        // start() sets lockfreelog.console.buffer-size=256KB; the file's settings, new names and old, are not the console's.
        PipedChild child = start(List.of("-Dlines=10"), "--lockfreelog.console.buffer-count=4",
                "--lockfreelog.file.buffer-size=128KB", "--lockfreelog.buffer-count=5");
        assertThat(child.await("CONSOLE")).contains("target=console").endsWith(" buffers=4x262144");
        child.awaitExit();
    }

    private PipedChild start(List<String> jvm, String... arguments) throws IOException {
        return startWithJournal(jvm, dir.resolve("console.journal").toString(), arguments);
    }

    private PipedChild startWithJournal(List<String> jvm, String journal, String... arguments) throws IOException {
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        List<String> command = new ArrayList<>(List.of(java, "-Xmx256m", "-XX:+UseSerialGC", "-XX:TieredStopAtLevel=1"));
        command.addAll(jvm);
        command.addAll(List.of("-cp", System.getProperty("java.class.path"), ConsoleApplication.class.getName(),
                "--lockfreelog.console.enabled=true", "--lockfreelog.console.journal=" + journal,
                "--lockfreelog.console.buffer-size=256KB", "--spring.main.banner-mode=off", "--spring.jmx.enabled=false"));
        command.addAll(List.of(arguments));
        PipedChild child = PipedChild.start(command, dir.resolve("stdout-" + children.size()), true);
        children.add(child);
        return child;
    }
}
