package io.github.lockfreelog.otlp;

import java.net.URI;
import java.time.Duration;
import java.util.Map;

/**
 * What the sink needs of the appender's settings, checked: the full URI requests go to ({@code <endpoint>/v1/logs}),
 * the headers each carries, whether its body is gzipped, how long one request may take, and the resource's
 * attributes ({@code service.name} first).
 */
record OtlpSettings(URI endpoint, Map<String, String> headers, boolean gzip, Duration timeout,
        Map<String, String> resource) {
}
