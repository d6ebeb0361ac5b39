package io.github.lockfreelog.otlp;

import io.github.lockfreelog.records.FrameBuffer;
import io.opentelemetry.api.trace.Span;
import io.opentelemetry.api.trace.SpanContext;

/**
 * The trace context of the OpenTelemetry API's current span, read on the caller's thread, for an event whose MDC holds
 * no trace ids (an application traced by the OpenTelemetry API or its Java agent, without Micrometer Tracing). The one
 * class of the module that names an OpenTelemetry type: {@link LogRecordEnvelope} touches it only when its
 * {@code OTEL_API} constant found the API on the class path, so without it this class is never loaded and each event
 * pays one test of a constant.
 */
final class OtelSpan {

    private OtelSpan() {
    }

    /**
     * Writes the current span's trace id, span id and trace flags into the record, when there is a valid span (a real
     * trace); else nothing. Allocates nothing: the ids are the span context's own strings.
     */
    static void putCurrent(FrameBuffer frame) {
        SpanContext span = Span.current().getSpanContext();
        if (!span.isValid()) {
            return;
        }
        LogRecordEnvelope.Writer.putHexId(frame, Protobuf.TRACE_ID, span.getTraceId());
        LogRecordEnvelope.Writer.putHexId(frame, Protobuf.SPAN_ID, span.getSpanId());
        Protobuf.putTag(frame, Protobuf.FLAGS, Protobuf.FIXED32);
        int flags = span.getTraceFlags().asByte() & 0xff; // W3C trace flags in the low byte, as OTLP's flags field
        for (int i = 0; i < 4; i++) {
            frame.put((byte) (flags >>> (8 * i))); // fixed32, little-endian
        }
    }
}
