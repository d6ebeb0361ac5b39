package io.github.lockfreelog.diagnostics;

import java.util.regex.Pattern;

/**
 * Text from outside put into a message (a file's name, a link's target, an exception's text, what another user chose)
 * made printable: a control character in it is shown, never written, so that a name holding a newline cannot end the
 * message's line and start one of its own choosing in the application's log or console. A newline shows as
 * {@code \n}, a carriage return as {@code \r}, a tab as {@code \t}, any other control character (C0, DEL, C1, and the
 * line and paragraph separators) as {@code \}{@code uXXXX}. Text without any is returned as it is.
 */
public final class Printable {

    /** What reads as a credential or an address in an exception's text, and what stands for it. */
    private static final Pattern[] HIDDEN = {
        Pattern.compile("(?<=://)[^/\\s@]+@"), // user:password@ in a URL
        Pattern.compile("\\bUser:[^\\s,;)\\]]+"), // a Kafka principal
        Pattern.compile("(?i)\\b(user(?:name)?|password|passwd|secret|token|credentials?)\\s*=\\s*[^\\s,;)\\]]+"),
        Pattern.compile("(?:[A-Za-z0-9._-]+/)?\\d{1,3}(?:\\.\\d{1,3}){3}(?::\\d+)?"), // [host/]IPv4[:port]
        Pattern.compile("\\[[0-9A-Fa-f:.]*:[0-9A-Fa-f:.]*\\](?::\\d+)?"), // [IPv6][:port]
        Pattern.compile("\\b(?=[A-Za-z0-9.-]*[A-Za-z])[A-Za-z0-9][A-Za-z0-9.-]*:\\d{2,5}\\b"), // host:port
    };
    private static final String[] SHOWN = {"<credentials>@", "User:<principal>", "$1=<hidden>", "<address>",
        "<address>", "<address>"};

    private Printable() {
    }

    /**
     * An exception's text for {@code lastError} (the endpoint, health): printable ({@link #text}), and without what
     * reads as a credential or an address (a Kafka client's text can name brokers, {@code User:} principals, and a URL
     * its user and password): each is replaced by what it was ({@code <address>}, {@code User:<principal>},
     * {@code password=<hidden>}), so the cause stays readable. The full text goes to the status, which the log keeps.
     */
    public static String withoutAddresses(String text) {
        if (text == null) {
            return null;
        }
        String shown = text(text);
        for (int i = 0; i < HIDDEN.length; i++) {
            shown = HIDDEN[i].matcher(shown).replaceAll(SHOWN[i]);
        }
        return shown;
    }

    /** {@code text} with every control character shown; {@code null} stays {@code null}. */
    public static String text(String text) {
        if (text == null || isPrintable(text)) {
            return text;
        }
        StringBuilder shown = new StringBuilder(text.length() + 16);
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            switch (c) {
                case '\n' -> shown.append("\\n");
                case '\r' -> shown.append("\\r");
                case '\t' -> shown.append("\\t");
                default -> {
                    if (isControl(c)) {
                        shown.append(String.format("\\u%04x", (int) c));
                    } else {
                        shown.append(c);
                    }
                }
            }
        }
        return shown.toString();
    }

    /**
     * {@code cause} itself when its text and its causes' are printable; else a stand-in that shows the same class
     * names and texts, made printable, with the same stack traces (a status printer or a logger prints it as the
     * original would be printed).
     */
    public static Throwable cause(Throwable cause) {
        if (cause == null || isPrintableChain(cause)) {
            return cause;
        }
        return new Shown(cause);
    }

    private static boolean isPrintableChain(Throwable cause) {
        for (Throwable t = cause; t != null; t = t.getCause() == t ? null : t.getCause()) {
            if (!isPrintable(String.valueOf(t.getMessage()))) {
                return false;
            }
        }
        return true;
    }

    private static boolean isPrintable(String text) {
        for (int i = 0; i < text.length(); i++) {
            if (isControl(text.charAt(i))) {
                return false;
            }
        }
        return true;
    }

    private static boolean isControl(char c) {
        return c < 0x20 || (c >= 0x7f && c <= 0x9f) || c == '\u2028' || c == '\u2029';
    }

    /** An exception's class name and text, made printable, with its stack trace and its cause's. */
    private static final class Shown extends Exception {
        private static final long serialVersionUID = 1L;
        private final String shown;

        Shown(Throwable original) {
            super(text(original.getMessage()), original.getCause() == null || original.getCause() == original ? null
                    : new Shown(original.getCause()));
            this.shown = original.getClass().getName() + (original.getMessage() == null ? ""
                    : ": " + text(original.getMessage()));
            setStackTrace(original.getStackTrace());
        }

        @Override
        public String toString() {
            return shown;
        }
    }
}
