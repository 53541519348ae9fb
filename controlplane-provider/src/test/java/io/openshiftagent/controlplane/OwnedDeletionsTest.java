package io.openshiftagent.controlplane;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import io.fabric8.kubernetes.api.model.LocalObjectReference;
import io.fabric8.kubernetes.api.model.ObjectMeta;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.fabric8.kubernetes.api.model.SecretBuilder;
import io.fabric8.kubernetes.api.model.events.v1.Event;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.openshiftagent.api.controlplane.v1alpha3.OpenshiftAssistedControlPlane;
import io.openshiftagent.api.external.assisted.AgentClusterInstall;
import io.openshiftagent.api.external.assisted.AgentClusterInstallSpec;
import io.openshiftagent.api.external.hive.ClusterImageSet;
import io.openshiftagent.controlplane.cluster.ClusterImageSets;
import io.openshiftagent.provider.reconcile.EventRecorder;
import io.openshiftagent.provider.reconcile.OwnerReferences;
import io.openshiftagent.provider.testing.TestWorld;
import io.openshiftagent.testsupport.KubeApiServerEnvironment;
import io.openshiftagent.testsupport.WithKubeApiServer;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * The last deletions of a control plane on a real API server: only what is the control plane's
 * goes; what someone else made under its names stays, named in an Event.
 */
@WithKubeApiServer
class OwnedDeletionsTest {
  private static final String IMAGE =
      "quay.io/openshift-release-dev/ocp-release@sha256:"
          + "0f1e2d3c4b5a69788796a5b4c3d2e1f00f1e2d3c4b5a69788796a5b4c3d2e1f0";

  @Test
  void whatIsNotTheControlPlanesIsLeftInPlaceAndNamedInAnEvent(KubeApiServerEnvironment env) {
    KubernetesClient client = env.client();
    String ns = env.createNamespace("foreign");
    OpenshiftAssistedControlPlane cp = storedControlPlane(client, ns, "cp");
    // Someone else's, under the names the control plane makes.
    AgentClusterInstall foreignInstall =
        client.resource(clusterInstall(ns, "cp", ns + "-images", List.of())).create();
    client
        .resource(
            new ConfigMapBuilder()
                .withMetadata(meta(ns, "cp-registry-config", List.of()))
                .addToData("k", "v")
                .build())
        .create();
    ClusterImageSet foreignSet = new ClusterImageSet();
    foreignSet.setMetadata(new ObjectMetaBuilder().withName(ns + ".cp").build());
    foreignSet.setSpec(new ClusterImageSet.Spec(IMAGE));
    client.resource(foreignSet).create();
    // The control plane's own.
    client
        .resource(
            new SecretBuilder()
                .withMetadata(
                    meta(ns, "cp-placeholder-pull-secret", List.of(OwnerReferences.controller(cp))))
                .build())
        .create();

    new OwnedDeletions(client, new EventRecorder(client, "test", "owned-deletions-test"), Set.of())
        .deleteRest(cp);

    assertThat(client.resources(AgentClusterInstall.class).inNamespace(ns).withName("cp").get())
        .extracting(a -> a.getMetadata().getUid())
        .isEqualTo(foreignInstall.getMetadata().getUid());
    assertThat(client.configMaps().inNamespace(ns).withName("cp-registry-config").get())
        .isNotNull();
    assertThat(client.resources(ClusterImageSet.class).withName(ns + ".cp").get()).isNotNull();
    assertThat(client.secrets().inNamespace(ns).withName("cp-placeholder-pull-secret").get())
        .isNull();
    EventRecorder.flush(Duration.ofSeconds(10));
    assertThat(
            client.events().v1().events().inNamespace(ns).list().getItems().stream()
                .filter(e -> OwnedDeletions.FOREIGN_OBJECT_KEPT.equals(e.getReason()))
                .map(Event::getNote))
        .anySatisfy(note -> assertThat(note).contains("AgentClusterInstall " + ns + "/cp"))
        .anySatisfy(note -> assertThat(note).contains("ConfigMap " + ns + "/cp-registry-config"))
        .anySatisfy(note -> assertThat(note).contains("ClusterImageSet " + ns + ".cp"));
    client.resource(foreignSet).delete();
  }

  @Test
  void aTakenOverGoProviderImageSetStaysWhileAnotherControlPlaneNamesIt(
      KubeApiServerEnvironment env) {
    KubernetesClient client = env.client();
    String ns = env.createNamespace("shared-a");
    String other = env.createNamespace("shared-b");
    // The Go provider names the set after the control plane alone: unique here, as the namespace.
    String name = ns;
    OpenshiftAssistedControlPlane cp = storedControlPlane(client, ns, name);
    ClusterImageSet shared = new ClusterImageSet();
    shared.setMetadata(
        new ObjectMetaBuilder()
            .withName(name)
            .addToLabels(ClusterImageSets.NAMESPACE_LABEL, ns) // taken over from here
            .build());
    shared.setSpec(new ClusterImageSet.Spec(IMAGE));
    client.resource(shared).create();
    client.resource(clusterInstall(ns, name, name, List.of(OwnerReferences.plain(cp)))).create();
    // The control plane of the same name in another namespace, taken over there as well.
    AgentClusterInstall otherInstall =
        client.resource(clusterInstall(other, name, name, List.of())).create();
    OwnedDeletions deletions =
        new OwnedDeletions(
            client, new EventRecorder(client, "test", "owned-deletions-test"), Set.of());

    deletions.deleteRest(cp);
    assertThat(client.resources(ClusterImageSet.class).withName(name).get()).isNotNull();

    client.resource(otherInstall).delete();
    TestWorld.eventually(() -> assertThat(client.resource(otherInstall).get()).isNull());
    deletions.deleteRest(cp);
    assertThat(client.resources(ClusterImageSet.class).withName(name).get()).isNull();
  }

  /**
   * A namespaced install (--namespace) may not list AgentClusterInstalls across the hub, and the
   * namespaces it watches are not all those whose control planes may name a taken-over Go-provider
   * set: it keeps the set, even when no AgentClusterInstall names it, and asks nothing outside.
   */
  @Test
  void aNamespacedInstallKeepsATakenOverImageSetItCannotKnowIsUnused(KubeApiServerEnvironment env) {
    KubernetesClient client = env.client();
    String ns = env.createNamespace("watched");
    String name = ns;
    OpenshiftAssistedControlPlane cp = storedControlPlane(client, ns, name);
    ClusterImageSet takenOver = new ClusterImageSet();
    takenOver.setMetadata(
        new ObjectMetaBuilder()
            .withName(name)
            .addToLabels(ClusterImageSets.NAMESPACE_LABEL, ns)
            .build());
    takenOver.setSpec(new ClusterImageSet.Spec(IMAGE));
    client.resource(takenOver).create();

    new OwnedDeletions(
            client, new EventRecorder(client, "test", "owned-deletions-test"), Set.of(ns))
        .deleteRest(cp);
    assertThat(client.resources(ClusterImageSet.class).withName(name).get()).isNotNull();

    // Watching every namespace, it sees that nothing names the set, and deletes it.
    new OwnedDeletions(client, new EventRecorder(client, "test", "owned-deletions-test"), Set.of())
        .deleteRest(cp);
    assertThat(client.resources(ClusterImageSet.class).withName(name).get()).isNull();
  }

  private static OpenshiftAssistedControlPlane storedControlPlane(
      KubernetesClient client, String ns, String name) {
    return client.resource(Fixtures.controlPlane(ns, name, 1)).create();
  }

  private static ObjectMeta meta(
      String ns, String name, List<io.fabric8.kubernetes.api.model.OwnerReference> owners) {
    return new ObjectMetaBuilder()
        .withName(name)
        .withNamespace(ns)
        .withOwnerReferences(owners)
        .withLabels(Map.of())
        .build();
  }

  private static AgentClusterInstall clusterInstall(
      String ns,
      String name,
      String imageSet,
      List<io.fabric8.kubernetes.api.model.OwnerReference> owners) {
    AgentClusterInstall aci = new AgentClusterInstall();
    aci.setMetadata(meta(ns, name, owners));
    aci.setSpec(new AgentClusterInstallSpec());
    aci.getSpec().clusterDeploymentRef = new LocalObjectReference(name);
    aci.getSpec().imageSetRef = new LocalObjectReference(imageSet);
    aci.getSpec().networking = new AgentClusterInstallSpec.Networking();
    aci.getSpec().provisionRequirements = new AgentClusterInstallSpec.ProvisionRequirements();
    aci.getSpec().provisionRequirements.controlPlaneAgents = 1;
    return aci;
  }
}
