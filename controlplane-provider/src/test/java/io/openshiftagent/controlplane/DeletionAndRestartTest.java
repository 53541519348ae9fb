package io.openshiftagent.controlplane;

import static io.openshiftagent.provider.testing.TestWorld.eventually;
import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.fabric8.kubernetes.api.model.SecretBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.dsl.base.PatchContext;
import io.fabric8.kubernetes.client.dsl.base.PatchType;
import io.javaoperatorsdk.operator.Operator;
import io.openshiftagent.api.bootstrap.v1alpha2.OpenshiftAssistedConfig;
import io.openshiftagent.api.bootstrap.v1alpha2.OpenshiftAssistedConfigSpec;
import io.openshiftagent.api.common.LocalObjectReference;
import io.openshiftagent.api.controlplane.v1alpha3.OpenshiftAssistedControlPlane;
import io.openshiftagent.api.external.ExternalKinds;
import io.openshiftagent.api.external.assisted.AgentClusterInstall;
import io.openshiftagent.api.external.assisted.AgentClusterInstallSpec;
import io.openshiftagent.api.external.hive.ClusterDeployment;
import io.openshiftagent.api.external.hive.ClusterImageSet;
import io.openshiftagent.controlplane.cluster.ClusterImageSets;
import io.openshiftagent.controlplane.cluster.MirrorRegistryManifestsTest;
import io.openshiftagent.provider.reconcile.EventRecorder;
import io.openshiftagent.provider.reconcile.OwnerReferences;
import io.openshiftagent.provider.testing.TestWorld;
import io.openshiftagent.testsupport.AuditLog;
import io.openshiftagent.testsupport.CrdInstaller;
import io.openshiftagent.testsupport.KubeApiServerEnvironment;
import io.openshiftagent.testsupport.WithKubeApiServer;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Deletion of a control plane, and an operator restart in the middle of creating one. */
@WithKubeApiServer
class DeletionAndRestartTest {
  private static final String HIVE_FINALIZER = "hive.openshift.io/deprovision";

  @Test
  void deletionRemovesWhatWasCreatedAndWaitsForTheClusterDeployment(KubeApiServerEnvironment env) {
    KubernetesClient client = env.client();
    Operator operator = startedProvider(env);
    try {
      TestWorld c = new TestWorld(client, env.createNamespace("delete"), "capi-delete");
      Fixtures.prepared(c).capi.createCluster("cp", false, true, true);
      client
          .resource(
              new ConfigMapBuilder()
                  .withNewMetadata()
                  .withName("mirrors")
                  .withNamespace(c.ns)
                  .endMetadata()
                  .addToData("registries.conf", MirrorRegistryManifestsTest.REGISTRIES_CONF)
                  .build())
          .create();
      OpenshiftAssistedControlPlane cp = Fixtures.controlPlane(c.ns, "cp", 3);
      cp.getSpec().config.imageRegistryRef = new LocalObjectReference("mirrors");
      c.providers.createControlPlane(cp);
      eventually(() -> assertThat(c.machines()).hasSize(3));
      eventually(() -> assertThat(c.clusterDeployment("cp")).isNotNull());
      // Hive holds the ClusterDeployment while it deprovisions.
      c.resource(ClusterDeployment.class, "cp")
          .patch(
              PatchContext.of(PatchType.JSON_MERGE),
              "{\"metadata\":{\"finalizers\":[\"" + HIVE_FINALIZER + "\"]}}");
      // The kubeconfig Secret as the provider publishes it: controlled by the control plane.
      client
          .resource(
              new SecretBuilder()
                  .withNewMetadata()
                  .withName(c.clusterName + "-kubeconfig")
                  .withNamespace(c.ns)
                  .withOwnerReferences(OwnerReferences.controller(c.controlPlane("cp")))
                  .endMetadata()
                  .build())
          .create();

      // Cluster API holds a Machine while it drains the node.
      var held = c.machines().get(0);
      client
          .resource(held)
          .patch(
              PatchContext.of(PatchType.JSON_MERGE),
              "{\"metadata\":{\"finalizers\":[\"machine.cluster.x-k8s.io\"]}}");

      c.resource(OpenshiftAssistedControlPlane.class, "cp").delete();
      var waiting = c.awaitCondition("cp", "Deleting", "WaitingForMachinesDeleted");
      assertThat(waiting.getMessage()).contains(held.getMetadata().getName());
      assertThat(c.machines()).hasSize(1);
      assertThat(c.clusterDeployment("cp").getMetadata().getDeletionTimestamp()).isNull();
      c.resource(io.openshiftagent.api.external.capi.Machine.class, held.getMetadata().getName())
          .patch(PatchContext.of(PatchType.JSON_MERGE), "{\"metadata\":{\"finalizers\":null}}");

      var heldByHive = c.awaitCondition("cp", "Deleting", "WaitingForClusterDeploymentDeleted");
      assertThat(heldByHive.getMessage())
          .as("what holds the deletion, by name")
          .contains("ClusterDeployment cp (finalizers [" + HIVE_FINALIZER + "])");
      assertThat(heldByHive.getLastTransitionTime())
          .as("since when the deletion waits: its first wait")
          .isEqualTo(waiting.getLastTransitionTime());
      assertThat(c.machines()).isEmpty();
      // Deleted; gone once the bootstrap provider (its stand-in here) has released them.
      eventually(
          () ->
              assertThat(
                      client
                          .resources(OpenshiftAssistedConfig.class)
                          .inNamespace(c.ns)
                          .list()
                          .getItems())
                  .isEmpty());
      assertThat(
              client
                  .genericKubernetesResources(
                      "infrastructure.cluster.x-k8s.io/v1beta2", "Metal3Machine")
                  .inNamespace(c.ns)
                  .list()
                  .getItems())
          .isEmpty();
      assertThat(c.get(AgentClusterInstall.class, "cp")).isNull();
      assertThat(c.clusterDeployment("cp").getMetadata().getDeletionTimestamp()).isNotNull();
      assertThat(c.controlPlane("cp")).isNotNull();
      assertThat(client.resources(ClusterImageSet.class).withName(c.ns + ".cp").get()).isNotNull();

      c.resource(ClusterDeployment.class, "cp")
          .patch(PatchContext.of(PatchType.JSON_MERGE), "{\"metadata\":{\"finalizers\":null}}");
      eventually(() -> assertThat(c.controlPlane("cp")).isNull());
      assertThat(client.resources(ClusterImageSet.class).withName(c.ns + ".cp").get()).isNull();
      assertThat(client.configMaps().inNamespace(c.ns).withName("cp-registry-config").get())
          .isNull();
      assertThat(client.secrets().inNamespace(c.ns).withName(c.clusterName + "-kubeconfig").get())
          .isNull();
    } finally {
      operator.stop();
    }
  }

  /**
   * Cluster API deletes a Cluster's workers before its control plane: meanwhile nothing new is made
   * (the deletion test of the simulator found Machines and cluster objects made for a Cluster
   * already being deleted, only to be deleted again).
   */
  @Test
  void makesNothingForAClusterBeingDeleted(KubeApiServerEnvironment env) {
    KubernetesClient client = env.client();
    Operator operator = startedProvider(env);
    try {
      TestWorld c = new TestWorld(client, env.createNamespace("cluster-deleting"), "capi-deleting");
      Fixtures.prepared(c).capi.createCluster("cp", false, true, true);
      // Cluster API's finalizer holds the Cluster while it deletes what belongs to it.
      var cluster = c.resource(io.openshiftagent.api.external.capi.Cluster.class, c.clusterName);
      cluster.patch(
          PatchContext.of(PatchType.JSON_MERGE),
          "{\"metadata\":{\"finalizers\":[\"cluster.cluster.x-k8s.io\"]}}");
      cluster.delete();

      c.providers.createControlPlane(Fixtures.controlPlane(c.ns, "cp", 3));

      var available = c.awaitCondition("cp", "Available", "ClusterDeleting");
      assertThat(available.getMessage()).contains(c.clusterName + " is being deleted");
      assertThat(c.machines()).isEmpty();
      assertThat(c.clusterDeployment("cp")).isNull();
      assertThat(c.clusterInstall("cp")).isNull();
      assertThat(client.resources(ClusterImageSet.class).withName(c.ns + ".cp").get()).isNull();
      cluster.patch(PatchContext.of(PatchType.JSON_MERGE), "{\"metadata\":{\"finalizers\":null}}");
    } finally {
      operator.stop();
    }
  }

  /**
   * A ClusterDeployment or AgentClusterInstall of the control plane's name that someone else made
   * is never used, changed or deleted: the control plane names it in a condition, and its deletion
   * leaves it (and an Event names it).
   */
  @Test
  void aForeignClusterDeploymentOrInstallInTheWayIsReportedAndSurvivesTheDeletion(
      KubeApiServerEnvironment env) {
    KubernetesClient client = env.client();
    Operator operator = startedProvider(env);
    try {
      // Both of the name made by someone else (no owner reference to the control plane).
      TestWorld both = new TestWorld(client, env.createNamespace("foreign-cd"), "capi-foreign-cd");
      Fixtures.prepared(both).capi.createCluster("cp", false, true, true);
      both.providers.clusterDeploymentAndInstall("cp", "someone-elses", "insufficient");
      ClusterDeployment foreignCd = both.clusterDeployment("cp");
      AgentClusterInstall foreignAci = both.clusterInstall("cp");
      // Only an AgentClusterInstall of the name.
      TestWorld install =
          new TestWorld(client, env.createNamespace("foreign-aci"), "capi-foreign-aci");
      Fixtures.prepared(install).capi.createCluster("cp", false, true, true);
      AgentClusterInstall foreignInstall = new AgentClusterInstall();
      foreignInstall.setMetadata(
          new ObjectMetaBuilder().withName("cp").withNamespace(install.ns).build());
      foreignInstall.setSpec(new AgentClusterInstallSpec());
      foreignInstall.getSpec().clusterDeploymentRef =
          new io.fabric8.kubernetes.api.model.LocalObjectReference("elsewhere");
      foreignInstall.getSpec().networking = new AgentClusterInstallSpec.Networking();
      foreignInstall.getSpec().provisionRequirements =
          new AgentClusterInstallSpec.ProvisionRequirements();
      foreignInstall.getSpec().provisionRequirements.controlPlaneAgents = 1;
      foreignInstall = client.resource(foreignInstall).create();

      both.providers.createControlPlane(Fixtures.controlPlane(both.ns, "cp", 1));
      install.providers.createControlPlane(Fixtures.controlPlane(install.ns, "cp", 1));

      var cdInTheWay =
          both.awaitCondition("cp", "ClusterInstallConfigured", "ClusterDeploymentNotOurs");
      assertThat(cdInTheWay.getMessage())
          .contains("ClusterDeployment cp exists and does not belong to this control plane");
      var aciInTheWay =
          install.awaitCondition("cp", "ClusterInstallConfigured", "ClusterInstallNotOurs");
      assertThat(aciInTheWay.getMessage())
          .contains("AgentClusterInstall cp exists and does not belong to this control plane");
      // Ours was made beside it: the ClusterDeployment.
      assertThat(install.clusterDeployment("cp").getMetadata().getOwnerReferences())
          .extracting(r -> r.getUid())
          .containsExactly(install.controlPlane("cp").getMetadata().getUid());

      both.resource(OpenshiftAssistedControlPlane.class, "cp").delete();
      install.resource(OpenshiftAssistedControlPlane.class, "cp").delete();
      eventually(() -> assertThat(both.controlPlane("cp")).isNull());
      eventually(() -> assertThat(install.controlPlane("cp")).isNull());

      // Untouched: the same objects, never written.
      assertThat(stored(both.clusterDeployment("cp"))).isEqualTo(stored(foreignCd));
      assertThat(stored(both.clusterInstall("cp"))).isEqualTo(stored(foreignAci));
      assertThat(stored(install.clusterInstall("cp"))).isEqualTo(stored(foreignInstall));
      eventually(() -> assertThat(install.clusterDeployment("cp")).isNull());
      EventRecorder.flush(Duration.ofSeconds(10));
      assertThat(
              client.events().v1().events().inNamespace(install.ns).list().getItems().stream()
                  .filter(e -> OwnedDeletions.FOREIGN_OBJECT_KEPT.equals(e.getReason()))
                  .map(e -> e.getNote()))
          .anySatisfy(
              note -> assertThat(note).contains("AgentClusterInstall " + install.ns + "/cp"));
    } finally {
      operator.stop();
    }
  }

  /** Which stored object, at which version; null when there is none. */
  private static String stored(io.fabric8.kubernetes.api.model.HasMetadata object) {
    return object == null
        ? null
        : object.getMetadata().getUid() + "@" + object.getMetadata().getResourceVersion();
  }

  @Test
  void aRestartMidwayCreatesNoDuplicatesAndRemovesHalfCreatedParts(KubeApiServerEnvironment env) {
    KubernetesClient client = env.client();
    TestWorld c = new TestWorld(client, env.createNamespace("restart"), "capi-restart");
    Fixtures.prepared(c).capi.createCluster("cp", false, true, true);
    Operator first = startedProvider(env);
    OpenshiftAssistedControlPlane cp =
        c.providers.createControlPlane(Fixtures.controlPlane(c.ns, "cp", 3));
    eventually(() -> assertThat(c.machines()).isNotEmpty());
    first.stop();

    // What a crash between creating a config and its Machine leaves behind.
    OpenshiftAssistedConfig orphan = new OpenshiftAssistedConfig();
    orphan.setMetadata(
        new ObjectMetaBuilder()
            .withName("cp-orphn")
            .withNamespace(c.ns)
            .addToLabels(ExternalKinds.CLUSTER_NAME_LABEL, c.clusterName)
            .addToLabels(ExternalKinds.CONTROL_PLANE_LABEL, "")
            .addToLabels(ExternalKinds.CONTROL_PLANE_NAME_LABEL, "cp")
            .withOwnerReferences(OwnerReferences.plain(cp))
            .build());
    orphan.setSpec(new OpenshiftAssistedConfigSpec());
    client.resource(orphan).create();

    Operator second = startedProvider(env);
    try {
      eventually(() -> assertThat(c.machines()).hasSize(3));
      eventually(() -> assertThat(c.get(OpenshiftAssistedConfig.class, "cp-orphn")).isNull());
      c.awaitObserved("cp");
      assertThat(c.machines()).hasSize(3);
      assertThat(
              client.resources(OpenshiftAssistedConfig.class).inNamespace(c.ns).list().getItems())
          .hasSize(3);
      assertThat(client.resources(ClusterDeployment.class).inNamespace(c.ns).list().getItems())
          .hasSize(1);
      assertThat(client.resources(AgentClusterInstall.class).inNamespace(c.ns).list().getItems())
          .hasSize(1);
      assertThat(
              client
                  .resources(ClusterImageSet.class)
                  .withLabel(ClusterImageSets.NAMESPACE_LABEL, c.ns)
                  .list()
                  .getItems())
          .hasSize(1);
    } finally {
      second.stop();
    }
  }

  @Test
  void aRestartedProviderReadsTheClusterImageSetItsInstallNamesInsteadOfCreatingIt(
      KubeApiServerEnvironment env) {
    TestWorld c = new TestWorld(env.client(), env.createNamespace("set-restart"), "capi-set");
    Fixtures.prepared(c).capi.createCluster("cp", false, true, true);
    Operator first = startedProvider(env);
    try {
      c.providers.createControlPlane(Fixtures.controlPlane(c.ns, "cp", 1));
      eventually(() -> assertThat(c.clusterInstall("cp")).isNotNull());
      c.awaitObserved("cp");
    } finally {
      first.stop();
    }
    String set = c.clusterInstall("cp").getSpec().imageSetRef.getName();
    Instant restarted = Instant.now();

    Operator second = startedProvider(env);
    try {
      // The set is read once the restarted provider reconciles the control plane; as it names the
      // release already, nothing is written to it: no create refused as a conflict, no patch.
      eventually(() -> assertThat(verbsOn(env, set, restarted)).contains("get"));
      assertThat(verbsOn(env, set, restarted)).containsOnly("get");
    } finally {
      second.stop();
    }
  }

  /** The requests to the ClusterImageSet {@code name} received from {@code since} on, by verb. */
  private static List<String> verbsOn(KubeApiServerEnvironment env, String name, Instant since) {
    return AuditLog.read(env.auditLog().orElseThrow()).stream()
        .filter(r -> !r.received().isBefore(since))
        .filter(r -> "clusterimagesets".equals(r.resource()) && name.equals(r.name()))
        .map(AuditLog.Request::verb)
        .toList();
  }

  /**
   * The control-plane provider started on the hub, with Metal3's contract labels and the stand-in
   * for the bootstrap provider's finalizer in place.
   */
  private static Operator startedProvider(KubeApiServerEnvironment env) {
    CrdInstaller.labelMetal3MachineContracts(env.client());
    BootstrapFinalizerStandIn.ensureRunning(env);
    Operator operator =
        ControlPlaneProvider.create(
            env.newClient(), Duration.ofSeconds(1), Fixtures.providerEnvironment());
    operator.start();
    return operator;
  }
}
