package io.openshiftagent.simulator.benchmark;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/** p50, p95 and max of a set of values, by the nearest-rank method. */
public record Percentiles(int count, long p50, long p95, long max) {

  public static Percentiles of(List<Long> values) {
    if (values.isEmpty()) {
      return new Percentiles(0, 0, 0, 0);
    }
    List<Long> sorted = new ArrayList<>(values);
    Collections.sort(sorted);
    return new Percentiles(
        sorted.size(), rank(sorted, 50), rank(sorted, 95), sorted.get(sorted.size() - 1));
  }

  /** The smallest value that at least {@code percent}% of the values are at or below. */
  private static long rank(List<Long> sorted, int percent) {
    int index = (int) Math.ceil(percent / 100.0 * sorted.size()) - 1;
    return sorted.get(Math.max(0, index));
  }
}
