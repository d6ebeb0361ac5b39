package io.github.lockfreelog.benchmarks.report;

import io.github.lockfreelog.benchmarks.results.Format;
import java.util.Collection;
import java.util.List;

/**
 * The median and the range of one figure over the rounds of a point. The median of an even count is
 * the mean of the two middle values; NaN values (a round without the figure) are left out.
 */
public record Spread(double median, double min, double max, int count) {

    static final Spread NONE = new Spread(Double.NaN, Double.NaN, Double.NaN, 0);

    public static Spread of(Collection<Double> values) {
        List<Double> sorted = values.stream().filter(v -> v != null && !v.isNaN()).sorted().toList();
        int n = sorted.size();
        if (n == 0) {
            return NONE;
        }
        double median = n % 2 == 1 ? sorted.get(n / 2) : (sorted.get(n / 2 - 1) + sorted.get(n / 2)) / 2;
        return new Spread(median, sorted.get(0), sorted.get(n - 1), n);
    }

    public boolean isEmpty() {
        return count == 0;
    }

    /** "412 (398-430)" in whole nanoseconds; the median alone for one value; "-" for none. */
    String text() {
        if (isEmpty()) {
            return "-";
        }
        String median = Format.nanos(this.median);
        return count == 1 ? median : median + " (" + Format.nanos(min) + "-" + Format.nanos(max) + ")";
    }
}
