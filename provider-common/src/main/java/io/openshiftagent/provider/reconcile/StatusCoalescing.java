package io.openshiftagent.provider.reconcile;

import io.fabric8.kubernetes.api.model.HasMetadata;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Supplier;

/**
 * When a changed status is written. A change of details only (what each provider says no controller
 * acts on: a condition's message, a wait's reason, a count) within the window of the object's last
 * status write (or, before this process wrote it, within {@link #FIRST_WINDOW} of its creation)
 * waits for the window's end, and goes out with whatever else changed by then: an installation's
 * states, the waits of a new config and the Machines becoming Ready come in bursts. The window is
 * {@link #WINDOW} after a write of anything else, and doubles with each write of details only in a
 * row, up to {@link #LONGEST_WINDOW}: a long installation whose messages keep changing costs a
 * bounded number of writes, not one per window. Any other change is written at once.
 */
public final class StatusCoalescing {
  /**
   * The system property that sets {@link #WINDOW} (an ISO-8601 duration such as {@code PT5S}): the
   * providers' in-process tests use a short one, so that each wait they check is reported within a
   * second; the end-to-end world runs the providers' jars with the default.
   */
  public static final String WINDOW_PROPERTY = "openshift-agent.status-details-window";

  /** At most one write of details per object in this time: 15 s unless {@link #WINDOW_PROPERTY}. */
  public static final Duration WINDOW =
      Duration.parse(System.getProperty(WINDOW_PROPERTY, "PT15S"));

  /**
   * A new object's window, from its creation until this process first writes its status, unless its
   * kind has its own ({@link #StatusCoalescing(Supplier, Duration)}).
   */
  public static final Duration FIRST_WINDOW = WINDOW.multipliedBy(2);

  /**
   * The longest window, after three or more writes of details only in a row: 8 {@link #WINDOW}s.
   */
  public static final Duration LONGEST_WINDOW = WINDOW.multipliedBy(8);

  /**
   * An object's last status write by this process, and how many writes of details only came in a
   * row up to it (that one included).
   */
  public record LastWrite(Instant at, int detailsInARow) {
    /** How long a change of details waits after this write. */
    public Duration window() {
      return WINDOW.multipliedBy(1L << Math.min(detailsInARow, 3));
    }

    /** The write after {@code previous} (none: this process's first), made {@code now}. */
    public static LastWrite after(Optional<LastWrite> previous, Instant now, boolean detailsOnly) {
      int inARow = detailsOnly ? previous.map(LastWrite::detailsInARow).orElse(0) + 1 : 0;
      return new LastWrite(now, inARow);
    }
  }

  private final Supplier<Instant> now;
  private final Duration firstWindow;
  private final Map<String, LastWrite> lastWrite = new ConcurrentHashMap<>();

  /**
   * @param now the time now (a clock's instant)
   */
  public StatusCoalescing(Supplier<Instant> now) {
    this(now, FIRST_WINDOW);
  }

  /**
   * @param firstWindow a new object's window, from its creation until its first write: for a kind
   *     whose first waits are the normal course of its creation for longer than {@link
   *     #FIRST_WINDOW}
   */
  public StatusCoalescing(Supplier<Instant> now, Duration firstWindow) {
    this.now = now;
    this.firstWindow = firstWindow;
  }

  /**
   * Empty: write the changed status of {@code object} now; otherwise how long to wait before
   * looking again.
   *
   * @param detailsOnly whether the change is of details only
   */
  public Optional<Duration> deferral(HasMetadata object, boolean detailsOnly) {
    return deferral(
        object,
        detailsOnly,
        Optional.ofNullable(lastWrite.get(object.getMetadata().getUid())),
        now.get(),
        firstWindow);
  }

  /**
   * {@link #deferral(HasMetadata, boolean)} for a caller that keeps the last write itself.
   *
   * @param lastWrite this process's last write of the object's status
   * @param firstWindow the object's window from its creation until its first write
   */
  public static Optional<Duration> deferral(
      HasMetadata object,
      boolean detailsOnly,
      Optional<LastWrite> lastWrite,
      Instant now,
      Duration firstWindow) {
    Instant last = lastWrite.map(LastWrite::at).orElse(null);
    Duration window = lastWrite.map(LastWrite::window).orElse(WINDOW);
    if (last == null) {
      // Not written by this process yet: from the object's creation, for longer. A new object's
      // first waits pass as what it waits for comes up (a new cluster's config waits for the
      // infrastructure, the control plane, the AgentClusterInstall, the discovery ISO).
      last = created(object);
      window = firstWindow;
    }
    if (last == null || !detailsOnly) {
      return Optional.empty();
    }
    Duration left = window.minus(Duration.between(last, now));
    return left.isNegative() || left.isZero() ? Optional.empty() : Optional.of(left);
  }

  private static Instant created(HasMetadata object) {
    String timestamp = object.getMetadata().getCreationTimestamp();
    return timestamp == null ? null : Instant.parse(timestamp);
  }

  /**
   * The status of {@code object} was written now.
   *
   * @param detailsOnly whether the write changed details only
   */
  public void written(HasMetadata object, boolean detailsOnly) {
    lastWrite.compute(
        object.getMetadata().getUid(),
        (uid, previous) -> LastWrite.after(Optional.ofNullable(previous), now.get(), detailsOnly));
  }

  /** {@code object} is gone. */
  public void forget(HasMetadata object) {
    lastWrite.remove(object.getMetadata().getUid());
  }

  /** The earlier of two optional delays. */
  public static Optional<Duration> earliest(Optional<Duration> a, Optional<Duration> b) {
    return a.isEmpty() || b.isPresent() && b.get().compareTo(a.get()) < 0 ? b : a;
  }
}
