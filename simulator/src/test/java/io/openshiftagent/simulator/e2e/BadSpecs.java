package io.openshiftagent.simulator.e2e;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.HasMetadata;
import java.util.HashMap;
import java.util.Map;
import java.util.function.Consumer;

/**
 * The mistakes a user makes in {@code sno.yaml}, as edits for {@link ClusterScenario#apply}: both
 * provider pairs are given the same ones ({@link BadSpecTest}, {@link GoProviderBadSpecTest}).
 */
final class BadSpecs {
  /** A pull secret no Secret of the namespace has. */
  static final String MISSING_PULL_SECRET = "no-such-secret";

  /** A release no registry has. */
  static final String UNKNOWN_RELEASE = "4.99.0";

  private BadSpecs() {}

  /** {@code sno.yaml} with {@code mistake}, applied on one host of a namespace of its own. */
  static ClusterScenario singleNodeCluster(
      E2eWorld world, String namespace, Consumer<HasMetadata> mistake) {
    ClusterScenario cluster = world.scenario(namespace, "test-sno");
    cluster.enrolHosts(1);
    cluster.apply("/e2e/sno.yaml", Map.of(), mistake);
    return cluster;
  }

  /** The control plane names {@link #MISSING_PULL_SECRET} as its pull secret. */
  @SuppressWarnings("unchecked")
  static Consumer<HasMetadata> missingPullSecret() {
    return onControlPlaneSpec(
        spec -> {
          Map<String, Object> config = new HashMap<>((Map<String, Object>) spec.get("config"));
          config.put("pullSecretRef", Map.of("name", MISSING_PULL_SECRET));
          spec.put("config", config);
        });
  }

  /** The control plane asks for {@link #UNKNOWN_RELEASE}. */
  static Consumer<HasMetadata> unknownRelease() {
    return onControlPlaneSpec(spec -> spec.put("distributionVersion", UNKNOWN_RELEASE));
  }

  @SuppressWarnings("unchecked")
  private static Consumer<HasMetadata> onControlPlaneSpec(Consumer<Map<String, Object>> edit) {
    return object -> {
      if (object instanceof GenericKubernetesResource resource
          && "OpenshiftAssistedControlPlane".equals(object.getKind())) {
        edit.accept((Map<String, Object>) resource.getAdditionalProperties().get("spec"));
      }
    };
  }
}
