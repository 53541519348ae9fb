package io.openshiftagent.controlplane;

import static org.assertj.core.api.Assertions.assertThat;

import io.openshiftagent.controlplane.names.Names;
import org.junit.jupiter.api.Test;

class NamesTest {
  @Test
  void imageSetNamesOfDifferentNamespacesNeverCollide() {
    // "a-b"/"c" and "a"/"b-c" would collide with a dash; namespaces hold no dots.
    assertThat(Names.clusterImageSet(Fixtures.controlPlane("a-b", "c", 1)))
        .isEqualTo("a-b.c")
        .isNotEqualTo(Names.clusterImageSet(Fixtures.controlPlane("a", "b-c", 1)));
  }

  @Test
  void longNamesAreShortenedWithAHashThatKeepsThemApart() {
    String longName = "x".repeat(70);
    String label = Names.controlPlaneLabelValue(Fixtures.controlPlane("ns", longName, 1));
    assertThat(label).hasSizeLessThanOrEqualTo(63);
    assertThat(label)
        .isNotEqualTo(Names.controlPlaneLabelValue(Fixtures.controlPlane("ns", longName + "y", 1)));
    assertThat(Names.controlPlaneLabelValue(Fixtures.controlPlane("ns", "short", 1)))
        .isEqualTo("short");
  }
}
