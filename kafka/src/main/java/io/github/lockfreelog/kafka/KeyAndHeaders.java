package io.github.lockfreelog.kafka;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * The {@code key} and {@code headers} settings of a {@link LockFreeKafkaAppender}, read into what each record carries:
 * a key of one {@link KeyKind}, and the {@code level} and {@code logger} headers or not.
 */
final class KeyAndHeaders {

    /** What each record's key is. */
    enum KeyKind { NONE, CONSTANT, MDC, THREAD }

    private KeyAndHeaders() {
    }

    /** {@code {kind, argument}} of a key setting, or {@code null} when it is not one. */
    static String[] parseKey(String key) {
        String text = key == null ? "none" : key.trim();
        String lower = text.toLowerCase(Locale.ROOT);
        if (lower.equals("none") || lower.isEmpty()) {
            return new String[] {KeyKind.NONE.name(), null};
        }
        if (lower.equals("thread")) {
            return new String[] {KeyKind.THREAD.name(), null};
        }
        if (lower.startsWith("constant:") && text.length() > "constant:".length()) {
            return new String[] {KeyKind.CONSTANT.name(), text.substring("constant:".length())};
        }
        if (lower.startsWith("mdc:") && !text.substring("mdc:".length()).isBlank()) {
            return new String[] {KeyKind.MDC.name(), text.substring("mdc:".length()).trim()};
        }
        return null;
    }

    /** The header names of a headers setting, or {@code null} when it names others. */
    static List<String> parseHeaders(String headers) {
        List<String> names = new ArrayList<>();
        if (headers == null || headers.isBlank()) {
            return names;
        }
        for (String part : headers.split(",")) {
            String name = part.trim().toLowerCase(Locale.ROOT);
            if (!name.equals(LockFreeKafkaAppender.LEVEL_HEADER) && !name.equals(LockFreeKafkaAppender.LOGGER_HEADER)) {
                return null;
            }
            names.add(name);
        }
        return names;
    }

    /** The envelope that writes records with {@code key} and {@code headers}, both checked by {@link #parseKey} and
     * {@link #parseHeaders} before. */
    static RecordEnvelope.Writer writer(String key, String headers) {
        String[] parsedKey = parseKey(key);
        List<String> wanted = parseHeaders(headers);
        return new RecordEnvelope.Writer(KeyKind.valueOf(parsedKey[0]), parsedKey[1],
                wanted.contains(LockFreeKafkaAppender.LEVEL_HEADER), wanted.contains(LockFreeKafkaAppender.LOGGER_HEADER));
    }
}
