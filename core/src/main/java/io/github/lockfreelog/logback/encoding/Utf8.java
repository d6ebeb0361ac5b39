package io.github.lockfreelog.logback.encoding;

/**
 * Writes characters as UTF-8 into a byte array, byte for byte as {@code String.getBytes(UTF_8)}
 * does, without allocating.
 */
final class Utf8 {

    private Utf8() {
    }

    /**
     * Writes {@code chars[0..n)} as UTF-8 at {@code out[o..)}, which has room for 3 bytes per
     * character; a lone surrogate becomes {@code '?'}. Returns the end position.
     */
    static int write(char[] chars, int n, byte[] out, int o) {
        int any = 0;
        for (int i = 0; i < n; i++) {
            any |= chars[i];
        }
        if (any < 0x80) { // all ASCII, the common case: two branch-free loops the JIT can vectorize
            for (int i = 0; i < n; i++) {
                out[o + i] = (byte) chars[i];
            }
            return o + n;
        }
        int i = 0;
        while (i < n) {
            char c = chars[i];
            if (c < 0x80) {
                out[o++] = (byte) c;
                i++;
                continue;
            }
            if (c < 0x800) {
                out[o++] = (byte) (0xC0 | (c >> 6));
                out[o++] = (byte) (0x80 | (c & 0x3F));
            } else if (Character.isSurrogate(c)) {
                if (Character.isHighSurrogate(c) && i + 1 < n && Character.isLowSurrogate(chars[i + 1])) {
                    int cp = Character.toCodePoint(c, chars[++i]);
                    out[o++] = (byte) (0xF0 | (cp >> 18));
                    out[o++] = (byte) (0x80 | ((cp >> 12) & 0x3F));
                    out[o++] = (byte) (0x80 | ((cp >> 6) & 0x3F));
                    out[o++] = (byte) (0x80 | (cp & 0x3F));
                } else {
                    out[o++] = '?';
                }
            } else {
                out[o++] = (byte) (0xE0 | (c >> 12));
                out[o++] = (byte) (0x80 | ((c >> 6) & 0x3F));
                out[o++] = (byte) (0x80 | (c & 0x3F));
            }
            i++;
        }
        return o;
    }
}
