package io.github.lockfreelog.otlp;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeParseException;
import java.util.Locale;
import java.util.concurrent.TimeUnit;
import java.util.zip.GZIPInputStream;

/**
 * A collector's answer to one request, read from its HTTP response: the status; for a 2xx, the
 * {@code ExportLogsServiceResponse}'s {@code partial_success} (records rejected, and why); for an error, the message
 * of its {@code google.rpc.Status} body (or the body's text, cut short); {@code Retry-After}, in seconds or as a
 * date. Status {@code -1}: no answer came (the message says why).
 */
record Answer(int status, String message, long retryAfterNanos, long rejected) {

    private static final int MAX_MESSAGE = 300;
    /** A {@code Retry-After} beyond this is taken as this. */
    private static final long MAX_RETRY_AFTER_NANOS = TimeUnit.MINUTES.toNanos(5);

    static Answer of(HttpResponse<byte[]> response) {
        int status = response.statusCode();
        byte[] body = response.body() == null ? new byte[0] : response.body();
        if (response.headers().firstValue("Content-Encoding").map(v -> v.equalsIgnoreCase("gzip")).orElse(false)) {
            body = gunzip(body);
        }
        boolean protobuf = response.headers().firstValue("Content-Type").map(v -> v.startsWith("application/x-protobuf"))
                .orElse(false);
        long retryAfter = response.headers().firstValue("Retry-After").map(Answer::retryAfterNanos).orElse(-1L);
        if (status / 100 == 2) {
            if (!protobuf || body.length == 0) {
                return new Answer(status, "", -1, 0);
            }
            long[] rejected = {0};
            String[] message = {""};
            try {
                Reader partial = new Reader(body).field(Protobuf.RESPONSE_PARTIAL_SUCCESS);
                if (partial != null) {
                    rejected[0] = partial.varint(Protobuf.PARTIAL_REJECTED);
                    Reader text = partial.field(Protobuf.PARTIAL_MESSAGE);
                    message[0] = text == null ? "" : text.text();
                }
            } catch (RuntimeException e) {
                message[0] = "an answer that is not an ExportLogsServiceResponse (" + e.getMessage() + ")";
            }
            return new Answer(status, cut(message[0]), -1, rejected[0]);
        }
        String message;
        if (protobuf) {
            Reader text;
            try {
                text = new Reader(body).field(2); // google.rpc.Status.message
            } catch (RuntimeException e) {
                text = null;
            }
            message = text == null ? "" : text.text();
        } else {
            message = new String(body, StandardCharsets.UTF_8).strip();
        }
        return new Answer(status, cut(message.isEmpty() ? "no message" : message), retryAfter, 0);
    }

    /** {@code Retry-After} as nanoseconds from now: seconds, or an HTTP date; -1 when it is neither. */
    static long retryAfterNanos(String value) {
        String text = value.trim();
        try {
            long seconds = Long.parseLong(text);
            return seconds < 0 ? -1 : Math.min(MAX_RETRY_AFTER_NANOS, TimeUnit.SECONDS.toNanos(seconds));
        } catch (NumberFormatException e) {
            try {
                ZonedDateTime at = ZonedDateTime.parse(text, DateTimeFormatter.RFC_1123_DATE_TIME.withLocale(Locale.ROOT));
                long nanos = Duration.between(ZonedDateTime.now(at.getZone()), at).toNanos();
                return Math.max(0, Math.min(MAX_RETRY_AFTER_NANOS, nanos));
            } catch (DateTimeParseException | ArithmeticException notADate) {
                return -1;
            }
        }
    }

    private static String cut(String message) {
        return message.length() <= MAX_MESSAGE ? message : message.substring(0, MAX_MESSAGE) + "...";
    }

    private static byte[] gunzip(byte[] body) {
        try (InputStream in = new GZIPInputStream(new ByteArrayInputStream(body))) {
            return in.readAllBytes();
        } catch (IOException e) {
            return body;
        }
    }

    /** Reads the fields of one protobuf message, skipping those it is not asked for. */
    static final class Reader {
        private final byte[] bytes;
        private final int from;
        private final int to;

        Reader(byte[] bytes) {
            this(bytes, 0, bytes.length);
        }

        private Reader(byte[] bytes, int from, int to) {
            this.bytes = bytes;
            this.from = from;
            this.to = to;
        }

        /** The last length-delimited field {@code number}, as a reader of its bytes; {@code null} when absent. */
        Reader field(int number) {
            Reader found = null;
            int[] at = {from};
            while (at[0] < to) {
                long tag = varint(at);
                int wire = (int) (tag & 7);
                if (wire == Protobuf.LEN) {
                    int length = (int) varint(at);
                    if (length < 0 || at[0] + length > to) {
                        throw new IllegalArgumentException("a field longer than its message");
                    }
                    if (tag >>> 3 == number) {
                        found = new Reader(bytes, at[0], at[0] + length);
                    }
                    at[0] += length;
                } else {
                    skip(wire, at);
                }
            }
            return found;
        }

        /** The last varint field {@code number}; 0 when absent. */
        long varint(int number) {
            long found = 0;
            int[] at = {from};
            while (at[0] < to) {
                long tag = varint(at);
                int wire = (int) (tag & 7);
                if (wire == Protobuf.VARINT && tag >>> 3 == number) {
                    found = varint(at);
                } else if (wire == Protobuf.LEN) {
                    int length = (int) varint(at); // read first: "at[0] += varint(at)" would add to the old at[0]
                    at[0] += length;
                } else {
                    skip(wire, at);
                }
            }
            return found;
        }

        String text() {
            return new String(bytes, from, to - from, StandardCharsets.UTF_8);
        }

        private void skip(int wire, int[] at) {
            switch (wire) {
                case Protobuf.VARINT -> varint(at);
                case Protobuf.FIXED64 -> at[0] += 8;
                case Protobuf.FIXED32 -> at[0] += 4;
                default -> throw new IllegalArgumentException("wire type " + wire);
            }
        }

        private long varint(int[] at) {
            long value = 0;
            for (int shift = 0; shift < 64; shift += 7) {
                if (at[0] >= to) {
                    throw new IllegalArgumentException("a varint cut short");
                }
                byte b = bytes[at[0]++];
                value |= (long) (b & 0x7F) << shift;
                if ((b & 0x80) == 0) {
                    return value;
                }
            }
            throw new IllegalArgumentException("a varint of more than ten bytes");
        }
    }
}
