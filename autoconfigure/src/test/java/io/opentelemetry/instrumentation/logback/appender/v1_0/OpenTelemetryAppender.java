package io.opentelemetry.instrumentation.logback.appender.v1_0;

import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.AppenderBase;

/**
 * A stand-in with the name of the OpenTelemetry Logback appender (opentelemetry-logback-appender-1.0), which the
 * starter recognises by its class name alone: the test declares it in a Logback configuration, as a user would the
 * real one, without the instrumentation library and its SDK.
 */
public class OpenTelemetryAppender extends AppenderBase<ILoggingEvent> {

    @Override
    protected void append(ILoggingEvent event) {
    }
}
