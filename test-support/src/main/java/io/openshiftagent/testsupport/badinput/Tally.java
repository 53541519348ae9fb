package io.openshiftagent.testsupport.badinput;

import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Collectors;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Counts what happened to the variants of one property, for its summary line: how many were refused
 * at admission, and how many were admitted and ended in which condition reason.
 */
public final class Tally {
  private static final Logger LOG = LoggerFactory.getLogger(Tally.class);

  private final String name;
  private final AtomicInteger refused = new AtomicInteger();
  private final AtomicInteger refusedTooLarge = new AtomicInteger();
  private final AtomicInteger admitted = new AtomicInteger();
  private final Map<String, Integer> outcomes = new TreeMap<>();

  public Tally(String name) {
    this.name = name;
  }

  public void refused() {
    refused.incrementAndGet();
  }

  /** Refused because the stored object would exceed etcd's limit (see StoredSize). */
  public void refusedTooLarge() {
    refusedTooLarge.incrementAndGet();
  }

  /** Admitted; {@code outcome} is where reconciling it ended (a condition reason), or null. */
  public synchronized void admitted(String outcome) {
    admitted.incrementAndGet();
    if (outcome != null) {
      outcomes.merge(outcome, 1, Integer::sum);
    }
  }

  public int tried() {
    return refused.get() + refusedTooLarge.get() + admitted.get();
  }

  /** Logs and prints the summary line (surefire keeps it with the test's output). */
  public synchronized String summary() {
    String line =
        "bad input ["
            + name
            + "]: "
            + tried()
            + " variants tried: "
            + refused.get()
            + " refused at admission naming the field, "
            + (refusedTooLarge.get() == 0
                ? ""
                : refusedTooLarge.get() + " refused as too large for etcd, ")
            + admitted.get()
            + " admitted"
            + (outcomes.isEmpty()
                ? ""
                : " and reconciled to a condition ("
                    + outcomes.entrySet().stream()
                        .map(e -> e.getKey() + " " + e.getValue())
                        .collect(Collectors.joining(", "))
                    + ")");
    LOG.info(line);
    return line;
  }
}
