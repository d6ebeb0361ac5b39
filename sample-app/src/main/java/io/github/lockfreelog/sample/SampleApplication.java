package io.github.lockfreelog.sample;

import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.SpringBootApplication;

/**
 * A web application that logs through the lock-free appender. Try:
 *
 * <pre>
 * curl -X POST 'http://localhost:8080/burst?events=100000&amp;threads=8'
 * curl http://localhost:8080/actuator/lockfreelog
 * curl http://localhost:8080/actuator/health
 * </pre>
 *
 * Spring Boot's own appenders against lockfreelog's, one sink at a time (standard output into a pipe, as in a
 * container; repeat the burst a few times and keep the best):
 *
 * <pre>
 * java -jar sample-app.jar --lockfreelog.enabled=false --logging.file.name= | cat &gt; /dev/null           # Boot's CONSOLE
 * java -jar sample-app.jar --lockfreelog.console.enabled=true --logging.file.name= | cat &gt; /dev/null     # lockfreelog's console
 * java -jar sample-app.jar --lockfreelog.enabled=false --logging.threshold.console=OFF | cat &gt; /dev/null # Boot's FILE
 * java -jar sample-app.jar --lockfreelog.console.enabled=false --logging.threshold.console=OFF | cat &gt; /dev/null # lockfreelog's file
 * curl -X POST 'http://localhost:8080/burst?events=300000&amp;threads=4'
 * </pre>
 */
@SpringBootApplication
public class SampleApplication {

    public static void main(String[] args) {
        SpringApplication.run(SampleApplication.class, args);
    }
}
