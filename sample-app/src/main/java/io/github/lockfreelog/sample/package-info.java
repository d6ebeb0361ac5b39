/**
 * The sample application: a Spring Boot application on the starter, with {@code POST /burst} to log a burst from
 * many threads (and to try a {@code kill -9} in the middle of one) and the starter's endpoint, meters and health.
 * README's first command runs it.
 */
package io.github.lockfreelog.sample;
