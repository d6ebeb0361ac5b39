/**
 * The boot-app mode: a Spring Boot application with the starter ({@code BootApp}), run in a JVM per sink by
 * {@code BootAppRunner}; {@code BootCommands} is what the command line loads by name. (The boot-* workloads of the
 * file modes configure Logback through Spring Boot in the peers package: they need no application.)
 */
package io.github.lockfreelog.benchmarks.boot;
