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
 */
@SpringBootApplication
public class SampleApplication {

    public static void main(String[] args) {
        SpringApplication.run(SampleApplication.class, args);
    }
}
