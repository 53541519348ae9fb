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
import io.openshiftagent.api.external.hive.ClusterDeployment;
import io.openshiftagent.api.external.hive.ClusterImageSet;
import io.openshiftagent.controlplane.cluster.ClusterImageSets;
import io.openshiftagent.controlplane.cluster.MirrorRegistryManifestsTest;
import io.openshiftagent.provider.reconcile.OwnerReferences;
import io.openshiftagent.provider.testing.TestWorld;
import io.openshiftagent.testsupport.CrdInstaller;
import io.openshiftagent.testsupport.KubeApiServerEnvironment;
import io.openshiftagent.testsupport.WithKubeApiServer;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/** Deletion of a control plane, and an operator restart in the middle of creating one. */
@WithKubeApiServer
class DeletionAndRestartTest {
  private static final String HIVE_FINALIZER = "hive.openshift.io/deprovision";

  @Test
  void deletionRemovesWhatWasCreatedAndWaitsForTheClusterDeployment(KubeApiServerEnvironment env) {
    KubernetesClient client = env.client();
    CrdInstaller.labelMetal3MachineContracts(client);
    BootstrapFinalizerStandIn.ensureRunning(env);
    Operator operator =
        ControlPlaneProvider.create(
            env.newClient(), Duration.ofSeconds(1), Fixtures.providerEnvironment());
    operator.start();
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
      client
          .resource(
              new SecretBuilder()
                  .withNewMetadata()
                  .withName(c.clusterName + "-kubeconfig")
                  .withNamespace(c.ns)
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

      c.awaitCondition("cp", "Deleting", "WaitingForClusterDeploymentDeleted");
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
    CrdInstaller.labelMetal3MachineContracts(client);
    BootstrapFinalizerStandIn.ensureRunning(env);
    Operator operator =
        ControlPlaneProvider.create(
            env.newClient(), Duration.ofSeconds(1), Fixtures.providerEnvironment());
    operator.start();
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

  @Test
  void aRestartMidwayCreatesNoDuplicatesAndRemovesHalfCreatedParts(KubeApiServerEnvironment env) {
    KubernetesClient client = env.client();
    CrdInstaller.labelMetal3MachineContracts(client);
    BootstrapFinalizerStandIn.ensureRunning(env);
    TestWorld c = new TestWorld(client, env.createNamespace("restart"), "capi-restart");
    Fixtures.prepared(c).capi.createCluster("cp", false, true, true);
    Operator first =
        ControlPlaneProvider.create(
            env.newClient(), Duration.ofSeconds(1), Fixtures.providerEnvironment());
    first.start();
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

    Operator second =
        ControlPlaneProvider.create(
            env.newClient(), Duration.ofSeconds(1), Fixtures.providerEnvironment());
    second.start();
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
}
