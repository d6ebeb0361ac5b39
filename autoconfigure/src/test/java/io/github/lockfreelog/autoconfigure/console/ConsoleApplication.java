package io.github.lockfreelog.autoconfigure.console;

import io.github.lockfreelog.autoconfigure.logging.StarterAppender;
import io.github.lockfreelog.diagnostics.AppenderStatistics;
import java.util.ArrayList;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.boot.SpringApplication;
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.context.ConfigurableApplicationContext;

/**
 * The Spring Boot application that {@link LockFreeConsoleApplicationTests} runs in a child JVM whose standard output
 * is a pipe: it starts with the arguments given (the starter's properties), logs {@code --lines} numbered lines from
 * four threads while a fifth prints {@code --printed} lines with {@code System.out.println}, says on standard error
 * what the starter's console counted, and closes.
 */
@SpringBootConfiguration
@EnableAutoConfiguration
public class ConsoleApplication {

    static final int THREADS = 4;

    /** The message of line {@code n} of thread {@code thread}. */
    static String message(int thread, long n) {
        return "T" + thread + " " + n + " check=" + (n * 31 + thread);
    }

    /** Printer line {@code n}. */
    static String printed(long n) {
        return "PRINTED " + n + " " + "=".repeat(200);
    }

    public static void main(String[] args) throws InterruptedException {
        long lines = Long.getLong("lines", 5_000);
        long printedLines = Long.getLong("printed", 0);
        SpringApplication application = new SpringApplication(ConsoleApplication.class);
        application.setWebApplicationType(WebApplicationType.NONE);
        try (ConfigurableApplicationContext context = application.run(args)) {
            Logger log = LoggerFactory.getLogger("console.test");
            List<Thread> threads = new ArrayList<>();
            for (int t = 0; t < THREADS; t++) {
                int id = t;
                threads.add(new Thread(() -> {
                    for (long n = 0; n < lines; n++) {
                        log.info(message(id, n));
                    }
                }, "writer-" + t));
            }
            threads.add(new Thread(() -> {
                for (long n = 0; n < printedLines; n++) {
                    System.out.println(printed(n));
                }
            }, "printer"));
            threads.forEach(Thread::start);
            for (Thread thread : threads) {
                thread.join();
            }
            StarterAppender starter = context.getBean(StarterAppender.class);
            AppenderStatistics s = starter.console() == null ? null : starter.console().getStatistics();
            System.err.println("CONSOLE " + (s == null ? "none" : "target=" + s.target() + " file=" + s.file()
                    + " appended=" + s.appended() + " dropped=" + s.dropped() + " journal=" + s.journal()
                    + " buffers=" + s.bufferCount() + "x" + s.bufferSize()));
        }
    }
}
