package io.openshiftagent.simulator;

import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.condition.EnabledIfSystemProperty;

/**
 * The checkout of the Go provider's repository that {@code -Dworld.providers=go:<checkout>} names
 * ({@code git clone
 * https://github.com/openshift-assisted/cluster-api-provider-openshift-assisted}). CI has none, so
 * the tests that run the Go pair are skipped there.
 */
public final class GoProviderCheckout {
  public static final String PROPERTY = "world.providers";
  private static final String PREFIX = "go:";

  /** Why a test that runs the Go pair is skipped, and what to give it. */
  public static final String HOW =
      "runs the Go provider pair: give a checkout of its repository with -D"
          + PROPERTY
          + "=go:<checkout> (git clone"
          + " https://github.com/openshift-assisted/cluster-api-provider-openshift-assisted)";

  /**
   * On a test class: skipped (with {@link #HOW}) unless {@code -Dworld.providers=go:<checkout>}.
   */
  @Target(ElementType.TYPE)
  @Retention(RetentionPolicy.RUNTIME)
  @EnabledIfSystemProperty(named = PROPERTY, matches = PREFIX + ".+", disabledReason = HOW)
  public @interface Required {}

  private GoProviderCheckout() {}

  /** The checkout, when the property names one. */
  public static Optional<Path> given() {
    String value = System.getProperty(PROPERTY, "");
    if (!value.startsWith(PREFIX) || value.length() == PREFIX.length()) {
      return Optional.empty();
    }
    return Optional.of(Path.of(value.substring(PREFIX.length())).toAbsolutePath());
  }

  /** The checkout; without one (or when it is missing) the calling test is skipped, saying why. */
  public static Path assumeGiven() {
    Optional<Path> checkout = given();
    Assumptions.assumeTrue(checkout.isPresent(), HOW);
    Assumptions.assumeTrue(
        Files.isDirectory(checkout.get()),
        "-D" + PROPERTY + " names " + checkout.get() + ", which does not exist");
    return checkout.get();
  }
}
