/**
 * Spring Boot 3 support: the {@code lockfreelog} health indicator for Spring Boot 3's health API
 * ({@code org.springframework.boot.actuate.health}). Everything else of the starter works on
 * Spring Boot 3 and 4 alike from {@code io.github.lockfreelog.autoconfigure}.
 */
package io.github.lockfreelog.autoconfigure.boot3;

