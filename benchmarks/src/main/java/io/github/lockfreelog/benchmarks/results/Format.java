package io.github.lockfreelog.benchmarks.results;

import java.util.Locale;

/** How numbers are written in the tables and charts: abbreviated counts, ratios, rates, microseconds. */
public final class Format {

    private Format() {
    }

    /** 1234567 -> "1.23M"; 12345 -> "12.3k"; 123 -> "123"; NaN -> "-". */
    public static String si(double value) {
        if (Double.isNaN(value)) {
            return "-";
        }
        double abs = Math.abs(value);
        if (abs >= 1e9) {
            return fixed(value / 1e9, 2) + "G";
        }
        if (abs >= 1e6) {
            return fixed(value / 1e6, 2) + "M";
        }
        if (abs >= 1e4) {
            return fixed(value / 1e3, 1) + "k";
        }
        return fixed(value, abs >= 100 || value == Math.rint(value) ? 0 : 1);
    }

    /** 1.234 -> "1.23x"; NaN -> "-". */
    public static String ratio(double ratio) {
        return Double.isNaN(ratio) ? "-" : fixed(ratio, 2) + "x";
    }

    /** An events-per-second rate as it names a point: 10000 -> "10k", 2500 -> "2.5k", 1000000 -> "1M". */
    public static String rate(long perSecond) {
        if (perSecond >= 1_000_000 && perSecond % 100_000 == 0) {
            return compact(perSecond / 1e6) + "M";
        }
        if (perSecond >= 1_000 && perSecond % 100 == 0) {
            return compact(perSecond / 1e3) + "k";
        }
        return Long.toString(perSecond);
    }

    /** Nanoseconds as microseconds: one decimal below 1 ms ("0.3", "78.5"), whole with separators above ("3,503"). */
    public static String micros(long nanos) {
        double micros = nanos / 1000.0;
        return micros < 1000 ? fixed(micros, 1) : String.format(Locale.ROOT, "%,.0f", micros);
    }

    /** Nanoseconds per line or call, whole, with separators: 412.4 -> "412", 1234.5 -> "1,235"; NaN -> "-". */
    public static String nanos(double nanos) {
        return Double.isNaN(nanos) ? "-" : String.format(Locale.ROOT, "%,.0f", nanos);
    }

    /** "1 thread", "4 threads". */
    public static String threads(int threads) {
        return threads + (threads == 1 ? " thread" : " threads");
    }

    public static String fixed(double value, int decimals) {
        return String.format(Locale.ROOT, "%." + decimals + "f", value);
    }

    private static String compact(double value) {
        return value == Math.rint(value) ? Long.toString((long) value) : fixed(value, 1);
    }
}
