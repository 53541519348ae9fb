package io.openshiftagent.testsupport;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import io.javaoperatorsdk.operator.Operator;
import io.javaoperatorsdk.operator.api.reconciler.ControllerConfiguration;
import io.javaoperatorsdk.operator.api.reconciler.Reconciler;
import io.javaoperatorsdk.operator.api.reconciler.UpdateControl;
import java.time.Duration;
import java.time.Instant;
import org.junit.jupiter.api.Test;

/** The metrics hook records what a real operator's reconciler throws, and only that. */
class ReconcileFailuresTest {
  @ControllerConfiguration(name = "explodes-on-boom")
  static class ExplodesOnBoom implements Reconciler<ConfigMap> {
    @Override
    public UpdateControl<ConfigMap> reconcile(
        ConfigMap configMap,
        io.javaoperatorsdk.operator.api.reconciler.Context<ConfigMap> context) {
      if (configMap.getMetadata().getName().equals("boom")) {
        throw new IllegalStateException("boom");
      }
      return UpdateControl.noUpdate();
    }
  }

  @Test
  void recordsEachThrowingReconcileOfTheResourceThatThrew() throws InterruptedException {
    KubeApiServerEnvironment env = KubeApiServerEnvironment.shared();
    String ns = env.createNamespace("failures");
    ReconcileFailures failures = new ReconcileFailures();
    Operator operator =
        new Operator(o -> o.withKubernetesClient(env.newClient()).withMetrics(failures));
    operator.register(new ExplodesOnBoom(), c -> c.settingNamespace(ns));
    operator.start();
    try {
      for (String name : new String[] {"fine", "boom"}) {
        env.client()
            .resource(
                new ConfigMapBuilder()
                    .withNewMetadata()
                    .withName(name)
                    .withNamespace(ns)
                    .endMetadata()
                    .build())
            .create();
      }
      Instant deadline = Instant.now().plus(Duration.ofSeconds(30));
      while (failures.of("ConfigMap", ns, "boom").size() < 2 && Instant.now().isBefore(deadline)) {
        Thread.sleep(100);
      }
      // JOSDK retries a failed reconcile: each attempt is recorded.
      assertThat(failures.of("ConfigMap", ns, "boom"))
          .hasSizeGreaterThanOrEqualTo(2)
          .allSatisfy(e -> assertThat(e).hasMessageContaining("boom"));
      assertThat(failures.of("ConfigMap", ns, "fine")).isEmpty();
      assertThat(failures.describe())
          .contains("ConfigMap " + ns + "/boom", "IllegalStateException");
    } finally {
      operator.stop();
    }
  }
}
