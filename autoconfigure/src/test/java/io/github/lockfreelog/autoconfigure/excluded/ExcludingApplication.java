package io.github.lockfreelog.autoconfigure.excluded;

import io.github.lockfreelog.autoconfigure.LockFreeLogAutoConfiguration;
import org.springframework.boot.autoconfigure.SpringBootApplication;

/** An application that turns the starter off as Spring Boot's documentation shows: in its own annotation. */
@SpringBootApplication(exclude = LockFreeLogAutoConfiguration.class)
public class ExcludingApplication {
}
