/**
 * The lockfreelog Spring Boot starter holds no code of its own: it brings the auto-configuration, the engine and
 * Spring Boot's logging and actuator starters together, so that one dependency gives the lock-free log file, its
 * endpoint, meters and health. This package exists so that the starter's sources and Javadoc jars, which Maven
 * Central asks of every jar, say so.
 */
package io.github.lockfreelog.starter;
