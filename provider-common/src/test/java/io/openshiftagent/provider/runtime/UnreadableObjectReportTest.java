package io.openshiftagent.provider.runtime;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.micrometer.core.instrument.Metrics;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.openshiftagent.api.bootstrap.v1alpha2.OpenshiftAssistedConfig;
import io.openshiftagent.testsupport.LogCapture;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Each version of an unreadable object is reported once, however many informers and lists skip it:
 * the bootstrap provider has two informers on configs, and every relist skips it again.
 */
class UnreadableObjectReportTest {
  @Test
  void eachVersionIsReportedOnce() {
    SimpleMeterRegistry registry = new SimpleMeterRegistry();
    Metrics.globalRegistry.add(registry);
    try (LogCapture logs = new LogCapture()) {
      UnreadableObjectReport report =
          new UnreadableObjectReport(List.of(OpenshiftAssistedConfig.class));
      assertThat(count(registry)).isZero();

      report.accept(skipped("7"));
      report.accept(skipped("7"));
      assertThat(count(registry)).isEqualTo(1);
      report.accept(skipped("8"));
      assertThat(count(registry)).isEqualTo(2);

      assertThat(logs.lines())
          .filteredOn(l -> l.contains("UnreadableObjectReport"))
          .containsExactly(
              "io.openshiftagent.provider.runtime.UnreadableObjectReport skipping"
                  + " OpenshiftAssistedConfig ns/c (resourceVersion 7): it cannot be read:"
                  + " spec.x: not a valid value of Y",
              "io.openshiftagent.provider.runtime.UnreadableObjectReport skipping"
                  + " OpenshiftAssistedConfig ns/c (resourceVersion 8): it cannot be read:"
                  + " spec.x: not a valid value of Y");
    } finally {
      Metrics.globalRegistry.remove(registry);
    }
  }

  private static double count(SimpleMeterRegistry registry) {
    return registry
        .get(UnreadableObjectReport.COUNTER)
        .tag("kind", "OpenshiftAssistedConfig")
        .counter()
        .count();
  }

  private static UnreadableObjects.Skipped skipped(String resourceVersion) {
    OpenshiftAssistedConfig config = new OpenshiftAssistedConfig();
    config.setMetadata(
        new ObjectMetaBuilder()
            .withNamespace("ns")
            .withName("c")
            .withUid("uid-c")
            .withResourceVersion(resourceVersion)
            .build());
    return new UnreadableObjects.Skipped(config, "spec.x: not a valid value of Y");
  }
}
