package io.openshiftagent.controlplane.release;

import static io.openshiftagent.controlplane.Fixtures.condition;
import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.Condition;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.openshiftagent.api.controlplane.v1alpha3.OpenshiftAssistedControlPlane;
import io.openshiftagent.api.controlplane.v1alpha3.OpenshiftAssistedControlPlaneStatus;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * What a control plane reports while the registries are asked again ({@link
 * ReleaseImagePhase#storedFailure}): the failure its status already gives for this spec, so that
 * the condition does not flip to {@code Resolving} and back at every retry; otherwise {@code
 * Resolving}.
 */
class ReleaseImagePhaseTest {
  private static final String NOT_FOUND =
      "cannot resolve quay.io/openshift-release-dev/ocp-release:4.18.50-x86_64 to a digest: manifest"
          + " unknown";

  static Stream<Arguments> rows() {
    return Stream.of(
        Arguments.of("no status yet: Resolving", null, 3L, List.of(), "-"),
        Arguments.of(
            "the failure written for this spec stands",
            3L,
            3L,
            List.of(condition("ReleaseImageResolved", "False", "ReleaseImageNotFound", NOT_FOUND)),
            "ReleaseImageNotFound: " + NOT_FOUND),
        Arguments.of(
            "a failure written for an older spec does not: the spec changed since",
            2L,
            3L,
            List.of(condition("ReleaseImageResolved", "False", "ReleaseImageNotFound", NOT_FOUND)),
            "-"),
        Arguments.of(
            "a lookup already under way is no failure",
            3L,
            3L,
            List.of(condition("ReleaseImageResolved", "False", "Resolving", "asking")),
            "-"),
        Arguments.of(
            "a resolved release is no failure",
            3L,
            3L,
            List.of(condition("ReleaseImageResolved", "True", "Resolved", "")),
            "-"),
        Arguments.of(
            "no ReleaseImageResolved condition",
            3L,
            3L,
            List.of(condition("Available", "False", "WaitingForReleaseImage", "")),
            "-"));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("rows")
  void whileTheRegistriesAreAskedAgain(
      String description,
      Long observedGeneration,
      long generation,
      List<Condition> conditions,
      String expected) {
    OpenshiftAssistedControlPlane cp = new OpenshiftAssistedControlPlane();
    cp.setMetadata(new ObjectMetaBuilder().withName("cp").withGeneration(generation).build());
    if (observedGeneration != null) {
      OpenshiftAssistedControlPlaneStatus status = new OpenshiftAssistedControlPlaneStatus();
      status.observedGeneration = observedGeneration;
      status.conditions = new ArrayList<>(conditions);
      cp.setStatus(status);
    }
    Optional<ReleaseImageResolution.Wait> kept = ReleaseImagePhase.storedFailure(cp);
    assertThat(kept.map(w -> w.reason() + ": " + w.message()).orElse("-")).isEqualTo(expected);
    kept.ifPresent(w -> assertThat(w.lookedUp()).as("no second Warning Event").isFalse());
  }
}
