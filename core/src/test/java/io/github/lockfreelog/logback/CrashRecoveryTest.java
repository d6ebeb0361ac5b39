package io.github.lockfreelog.logback;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Kills a logging child JVM with SIGKILL at random moments, again and again, and checks that
 * every event whose {@code append} had returned is in the log file exactly once, intact, in order
 * per thread, with each restart's lines after the lines it recovered. Buffer sizes alternate
 * between runs, so a journal of other buffer sizes is recovered too.
 */
class CrashRecoveryTest {

    static final int RUNS = 20;

    @TempDir
    Path dir;

    @Test
    void everyAcknowledgedEventSurvivesKillNineExactlyOnce() throws Exception {
        killAndCheck(RUNS, null);
    }

    /** The same while the log rolls every 256 KB: no event is lost or doubled across a roll. */
    @Test
    void everyAcknowledgedEventSurvivesKillNineExactlyOnceAcrossRolls() throws Exception {
        killAndCheck(10, dir.resolve("crash.%d{yyyy-MM-dd}.%i.log").toString());
    }

    private void killAndCheck(int runs, String rollingPattern) throws Exception {
        long seed = System.nanoTime();
        Random random = new Random(seed);
        Path log = dir.resolve("crash.log");
        long[][] acks = new long[runs][];
        long recoveredTotal = 0;
        for (int run = 0; run < runs; run++) {
            Path ackFile = dir.resolve("ack-" + run);
            Child child = Child.start(log, ackFile, run, run % 2 == 0 ? "64KB" : "128KB", "log", rollingPattern);
            recoveredTotal += child.awaitRecovered();
            child.await("READY");
            Thread.sleep(30 + random.nextInt(300));
            child.process.destroyForcibly(); // SIGKILL on Linux
            assertThat(child.process.waitFor(30, TimeUnit.SECONDS)).isTrue();
            acks[run] = readAcks(ackFile);
        }
        Child last = Child.start(log, dir.resolve("ack-last"), runs, "64KB", "recover", rollingPattern);
        recoveredTotal += last.awaitRecovered();
        last.await("STOPPED");
        assertThat(last.process.waitFor(30, TimeUnit.SECONDS)).isTrue();
        assertThat(last.process.exitValue()).isZero();

        List<Path> files = new ArrayList<>();
        if (rollingPattern != null) {
            files.addAll(RollingTest.listArchives(dir));
            assertThat(files).as("the log rolled").hasSizeGreaterThan(3);
        }
        files.add(log);
        List<String> lines = new ArrayList<>();
        for (Path file : files) {
            byte[] content = Files.readAllBytes(file);
            assertThat(content).as("seed %d: no NUL byte in %s", seed, file).doesNotContain((byte) 0);
            assertThat(content[content.length - 1]).as("%s ends with a whole line", file).isEqualTo((byte) '\n');
            lines.addAll(List.of(new String(content, StandardCharsets.US_ASCII).split("\n")));
        }
        Map<String, Long> next = new HashMap<>();
        int lastRun = 0;
        for (String line : lines) {
            String[] parts = line.split(" ");
            int run = Integer.parseInt(parts[0].substring(1));
            int thread = Integer.parseInt(parts[1].substring(1));
            long n = Long.parseLong(parts[2]);
            assertThat(line).as("seed %d: intact line", seed).isEqualTo(CrashChild.line(run, thread, n));
            assertThat(run).as("seed %d: a restart's lines follow the recovered ones", seed).isGreaterThanOrEqualTo(lastRun);
            lastRun = run;
            String key = run + "/" + thread;
            long expected = next.getOrDefault(key, 0L);
            assertThat(n).as("seed %d: %s exactly once, in order", seed, key).isEqualTo(expected);
            next.put(key, expected + 1);
        }
        for (int run = 0; run < runs; run++) {
            for (int t = 0; t < CrashChild.THREADS; t++) {
                long written = next.getOrDefault(run + "/" + t, 0L);
                assertThat(written - 1).as("seed %d: run %d thread %d acknowledged %d", seed, run, t, acks[run][t])
                        .isGreaterThanOrEqualTo(acks[run][t]);
            }
        }
        assertThat(recoveredTotal).as("recovery had work to do").isPositive();
        System.out.printf("crash test (%s): seed %d, %d kills, %d lines, %d events recovered at restarts%n",
                rollingPattern == null ? "no rolling" : "rolling", seed, runs,
                next.values().stream().mapToLong(Long::longValue).sum(), recoveredTotal);
    }

    private static long[] readAcks(Path ackFile) throws IOException {
        ByteBuffer bytes = ByteBuffer.wrap(Files.readAllBytes(ackFile)).order(ByteOrder.LITTLE_ENDIAN);
        long[] acks = new long[CrashChild.THREADS];
        for (int t = 0; t < acks.length; t++) {
            acks[t] = bytes.getLong(t * CrashChild.SLOT);
        }
        return acks;
    }

    /** A child JVM and the lines it prints. */
    static final class Child {
        final Process process;
        final BlockingQueue<String> lines = new LinkedBlockingQueue<>();
        final List<String> seen = new ArrayList<>();

        private Child(Process process) {
            this.process = process;
            Thread reader = new Thread(() -> {
                try (BufferedReader in = new BufferedReader(new InputStreamReader(process.getInputStream(),
                        StandardCharsets.UTF_8))) {
                    for (String line; (line = in.readLine()) != null;) {
                        lines.add(line);
                    }
                } catch (IOException e) {
                    lines.add("IO " + e);
                }
            });
            reader.setDaemon(true);
            reader.start();
        }

        static Child start(Path log, Path ackFile, int run, String bufferSize, String mode, String rollingPattern)
                throws IOException {
            String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
            List<String> command = new ArrayList<>(List.of(java, "-Xmx256m", "-XX:+UseSerialGC", "-Xshare:auto", "-cp",
                    System.getProperty("java.class.path"), CrashChild.class.getName(), log.toString(),
                    ackFile.toString(), Integer.toString(run), bufferSize, mode));
            if (rollingPattern != null) {
                command.add(rollingPattern);
            }
            ProcessBuilder builder = new ProcessBuilder(command);
            builder.redirectErrorStream(true);
            return new Child(builder.start());
        }

        long awaitRecovered() throws InterruptedException {
            String line = await("RECOVERED");
            return Long.parseLong(line.split(" ")[1]);
        }

        String await(String prefix) throws InterruptedException {
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
            while (System.nanoTime() < deadline) {
                String line = lines.poll(100, TimeUnit.MILLISECONDS);
                if (line != null) {
                    seen.add(line);
                    if (line.startsWith(prefix)) {
                        return line;
                    }
                }
            }
            throw new AssertionError("child never printed " + prefix + "; it printed " + seen);
        }
    }
}
