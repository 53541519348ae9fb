package io.openshiftagent.controlplane;

import static io.openshiftagent.provider.testing.TestWorld.eventually;
import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.Condition;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.NodeBuilder;
import io.fabric8.kubernetes.api.model.Secret;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.dsl.base.PatchContext;
import io.fabric8.kubernetes.client.dsl.base.PatchType;
import io.javaoperatorsdk.operator.Operator;
import io.openshiftagent.api.common.LocalObjectReference;
import io.openshiftagent.api.controlplane.v1alpha3.OpenshiftAssistedControlPlane;
import io.openshiftagent.api.external.ExternalKinds;
import io.openshiftagent.controlplane.release.ReleaseImage;
import io.openshiftagent.provider.testing.TestWorld;
import io.openshiftagent.testsupport.KubeApiServerEnvironment;
import io.openshiftagent.testsupport.TestPaths;
import io.openshiftagent.testsupport.WithKubeApiServer;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;

/**
 * Installation and upgrades, with a second real API server playing the installed OpenShift cluster
 * (with OpenShift's ClusterVersion CRD); the test plays assisted-service and the Cluster Version
 * Operator. The cluster is a disconnected site's: the public release repositories, mirrored to the
 * tests' registry ({@code spec.config.imageRegistryRef}), the source unreachable.
 */
@WithKubeApiServer
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class InstallationAndUpgradeTest {
  private static Operator operator;
  private static KubernetesClient client;
  private static KubeApiServerEnvironment env;
  private static KubeApiServerEnvironment workload;

  @BeforeAll
  static void start() {
    env = KubeApiServerEnvironment.shared();
    client = env.client();
    workload = KubeApiServerEnvironment.startIndependent(List.of(TestPaths.workloadCrds()));
    operator = Fixtures.startProvider(env);
  }

  @AfterAll
  static void stop() {
    operator.stop();
  }

  private TestWorld installedCluster(String prefix) {
    TestWorld c = Fixtures.provisioned(env, prefix);
    Fixtures.createMirrorConfig(
        c, "mirrors", Fixtures.releases().host(), Fixtures.releases().caPem());
    OpenshiftAssistedControlPlane cp = Fixtures.controlPlane(c.ns, "cp", 3);
    cp.getMetadata().getAnnotations().remove(ReleaseImage.REPOSITORY_OVERRIDE_ANNOTATION);
    cp.getSpec().config.imageRegistryRef = new LocalObjectReference("mirrors");
    c.providers.createControlPlane(cp);
    eventually(() -> assertThat(c.clusterInstall("cp")).isNotNull());
    return c;
  }

  @Test
  @Order(1)
  void availableFollowsTheInstallerAndTheKubeconfigInitializesTheControlPlane() {
    TestWorld c = installedCluster("install");
    // A state in which the installer waits is named (a detail: written within the test's window),
    // without its description; one in which it makes progress is not: the AgentClusterInstall has
    // both.
    c.assisted.setInstallerState("cp", "insufficient", "Cluster is not ready for install");
    Condition waiting =
        c.awaitCondition("cp", "Available", "Installing", "installer state: insufficient");
    assertThat(waiting.getStatus()).isEqualTo("False");
    c.assisted.setInstallerState(
        "cp", "installing", "Installing: 3 of 3 hosts writing image to disk");
    Condition installing =
        c.awaitCondition(
            "cp", "Available", "Installing", "AgentClusterInstall cp has the installer's state");
    assertThat(installing.getStatus()).isEqualTo("False");
    assertThat(installing.getMessage()).doesNotContain("writing image");
    assertThat(c.awaitCondition("cp", "Initialized", "WaitingForKubeconfig").getStatus())
        .isEqualTo("False");

    c.assisted.publishAdminKubeconfig("cp", workload);
    c.awaitCondition("cp", "KubeconfigAvailable", "KubeconfigAvailable");
    Secret kubeconfig =
        client.secrets().inNamespace(c.ns).withName(c.clusterName + "-kubeconfig").get();
    assertThat(kubeconfig.getType()).isEqualTo("cluster.x-k8s.io/secret");
    assertThat(kubeconfig.getMetadata().getLabels())
        .containsEntry(ExternalKinds.CLUSTER_NAME_LABEL, c.clusterName);
    assertThat(kubeconfig.getMetadata().getOwnerReferences().get(0).getController()).isTrue();
    assertThat(kubeconfig.getMetadata().getOwnerReferences().get(0).getUid())
        .isEqualTo(c.controlPlane("cp").getMetadata().getUid());
    assertThat(
            new String(
                Base64.getDecoder().decode(kubeconfig.getData().get("value")),
                StandardCharsets.UTF_8))
        .isEqualTo(workload.kubeConfigYaml());
    eventually(
        () ->
            assertThat(c.controlPlane("cp").getStatus().initialization.controlPlaneInitialized)
                .isTrue());
    assertThat(c.awaitCondition("cp", "Initialized", "Initialized").getStatus()).isEqualTo("True");
    assertThat(c.condition("cp", "Available").orElseThrow().getStatus()).isEqualTo("False");
    // The kubeconfig is published as the installation begins: the installed cluster is not looked
    // at before assisted-service says its API server serves (written with Initialized otherwise).
    assertThat(c.condition("cp", "UpgradeCompleted")).isEmpty();
    assertThat(c.controlPlane("cp").getStatus().version).isNull();

    c.assisted.setInstallerState("cp", "finalizing", "Finalizing cluster installation");
    assertThat(c.awaitCondition("cp", "Available", "Available").getStatus()).isEqualTo("True");
    eventually(() -> assertThat(c.condition("cp", "UpgradeCompleted")).isPresent());

    c.assisted.setInstallerState("cp", "error", "Host master-1 failed to reboot");
    Condition failed = c.awaitCondition("cp", "Available", "InstallationFailed");
    assertThat(failed.getMessage()).contains("Host master-1 failed to reboot");
  }

  @Test
  @Order(2)
  void aSpecAssistedServiceRefusesIsReportedUntilItAcceptsIt() {
    TestWorld c = installedCluster("refused");
    c.assisted.setClusterInstallCondition(
        "cp",
        "SpecSynced",
        "False",
        "InputError",
        "The Spec could not be synced due to an input error: Malformed SSH key: ssh-ed25519"
            + " AAAAC3NzaC1lZDI1NTE5AAAAIArgo user@example: ssh: no key found");
    Condition refused = c.awaitCondition("cp", "ClusterInstallConfigured", "ClusterInstallRefused");
    assertThat(refused.getStatus()).isEqualTo("False");
    assertThat(refused.getMessage())
        .startsWith("assisted-service refused AgentClusterInstall cp: ")
        .contains("Malformed SSH key")
        .endsWith("; check spec.config.sshAuthorizedKey");
    assertThat(c.awaitCondition("cp", "Available", "InvalidConfiguration").getStatus())
        .isEqualTo("False");

    c.assisted.setClusterInstallCondition(
        "cp", "SpecSynced", "True", "SyncOK", "The Spec has been successfully applied");
    assertThat(c.awaitCondition("cp", "ClusterInstallConfigured", "Configured").getStatus())
        .isEqualTo("True");
    assertThat(c.awaitCondition("cp", "Available", "Installing").getStatus()).isEqualTo("False");
  }

  @Test
  @Order(2)
  void overridesTheServiceCannotCheckBeforeEveryHostReportedAreProgressNotInvalid() {
    TestWorld c = installedCluster("inventory");
    c.assisted.setClusterInstallCondition(
        "cp",
        "SpecSynced",
        "False",
        "InputError",
        "The Spec could not be synced due to an input error: Failed to parse"
            + " 'agent-install.openshift.io/install-config-overrides' annotation: error while"
            + " adding Platfom baremetal to install config, error is: unexpected end of JSON input");
    Condition waiting =
        c.awaitCondition("cp", "ClusterInstallConfigured", "WaitingForHostInventory");
    assertThat(waiting.getStatus()).isEqualTo("False");
    assertThat(waiting.getMessage())
        .contains("once every host bound to it has reported its inventory", "Platfom baremetal");
    assertThat(c.awaitCondition("cp", "Available", "Installing").getStatus()).isEqualTo("False");

    c.assisted.setClusterInstallCondition(
        "cp", "SpecSynced", "True", "SyncOK", "The Spec has been successfully applied");
    assertThat(c.awaitCondition("cp", "ClusterInstallConfigured", "Configured").getStatus())
        .isEqualTo("True");
  }

  @Test
  @Order(3)
  void upgradesThroughTheClusterVersionAndReportsWhatTheClusterRuns() {
    KubernetesClient wc = workload.client();
    createNode(wc, "master-0", "v1.33.5");
    createNode(wc, "master-1", "v1.33.4");
    createClusterVersion(wc, "4.20.0");

    TestWorld c = installedCluster("upgrade");
    c.assisted.setInstallerState("cp", "installed", "Cluster is installed");
    c.assisted.publishAdminKubeconfig("cp", workload);
    eventually(
        () -> {
          var status = c.controlPlane("cp").getStatus();
          assertThat(status.distributionVersion).isEqualTo("4.20.0");
          assertThat(status.version).isEqualTo("v1.33.4"); // the lowest control-plane node
        });
    assertThat(c.awaitCondition("cp", "UpgradeCompleted", "UpgradeCompleted").getStatus())
        .isEqualTo("True");

    c.resource(OpenshiftAssistedControlPlane.class, "cp")
        .patch(
            PatchContext.of(PatchType.JSON_MERGE),
            "{\"spec\":{\"distributionVersion\":\"4.20.1\"}}");
    // By digest in the public repository (the cluster's mirrors redirect it), and published: the
    // Cluster Version Operator verifies its signature, no force.
    eventually(
        () ->
            assertThat(desiredUpdate(wc))
                .isEqualTo(Map.of("version", "4.20.1", "image", publicImage("4.20.1"))));
    c.awaitCondition("cp", "UpgradeCompleted", "UpgradeInProgress");

    setClusterVersionStatus(
        wc,
        "4.20.0",
        "4.20.1",
        true,
        "Working towards 4.20.1: 106 of 863 done (12% complete)",
        null);
    eventually(
        () ->
            assertThat(c.condition("cp", "UpgradeCompleted").orElseThrow().getMessage())
                .contains("Working towards 4.20.1: 106 of 863 done"));
    assertThat(c.controlPlane("cp").getStatus().distributionVersion).isEqualTo("4.20.0");

    setClusterVersionStatus(
        wc,
        "4.20.0",
        "4.20.1",
        true,
        "Unable to apply 4.20.1",
        "Cluster operator etcd is degraded");
    Condition failing = c.awaitCondition("cp", "UpgradeCompleted", "UpgradeFailed");
    assertThat(failing.getMessage()).contains("Cluster operator etcd is degraded");

    setClusterVersionStatus(wc, "4.20.1", "4.20.1", false, "Cluster version is 4.20.1", null);
    assertThat(c.awaitCondition("cp", "UpgradeCompleted", "UpgradeCompleted").getStatus())
        .isEqualTo("True");
    eventually(
        () -> assertThat(c.controlPlane("cp").getStatus().distributionVersion).isEqualTo("4.20.1"));

    // A pre-release is not published (signed): requested with force.
    c.resource(OpenshiftAssistedControlPlane.class, "cp")
        .patch(
            PatchContext.of(PatchType.JSON_MERGE),
            "{\"spec\":{\"distributionVersion\":\"4.21.0-ec.2\"}}");
    eventually(
        () ->
            assertThat(desiredUpdate(wc))
                .isEqualTo(
                    Map.of(
                        "version",
                        "4.21.0-ec.2",
                        "image",
                        publicImage("4.21.0-ec.2"),
                        "force",
                        true)));
  }

  /** The x86_64 release of {@code version} by digest, in the public repository. */
  private static String publicImage(String version) {
    return "quay.io/openshift-release-dev/ocp-release@"
        + Fixtures.releases().release(version, "x86_64").digest();
  }

  private static void createNode(KubernetesClient wc, String name, String kubelet) {
    wc.resource(
            new NodeBuilder()
                .withNewMetadata()
                .withName(name)
                .addToLabels("node-role.kubernetes.io/master", "")
                .endMetadata()
                .build())
        .create();
    wc.nodes()
        .withName(name)
        .subresource("status")
        .patch(
            PatchContext.of(PatchType.JSON_MERGE),
            "{\"status\":{\"nodeInfo\":{\"kubeletVersion\":\"" + kubelet + "\"}}}");
  }

  private static void createClusterVersion(KubernetesClient wc, String version) {
    GenericKubernetesResource cv = new GenericKubernetesResource();
    cv.setApiVersion("config.openshift.io/v1");
    cv.setKind("ClusterVersion");
    cv.setMetadata(
        new io.fabric8.kubernetes.api.model.ObjectMetaBuilder().withName("version").build());
    cv.setAdditionalProperty("spec", Map.of("clusterID", "0b6f6d5e-0000-4000-8000-000000000000"));
    wc.resource(cv).create();
    setClusterVersionStatus(wc, version, version, false, "Cluster version is " + version, null);
  }

  /** Plays the Cluster Version Operator. */
  private static void setClusterVersionStatus(
      KubernetesClient wc,
      String completed,
      String desired,
      boolean progressing,
      String message,
      String failing) {
    List<Map<String, Object>> history =
        completed.equals(desired)
            ? List.of(history(desired, "Completed"))
            : List.of(history(desired, "Partial"), history(completed, "Completed"));
    Map<String, Object> status =
        Map.of(
            "observedGeneration",
            1,
            "versionHash",
            "hash",
            "availableUpdates",
            List.of(),
            "desired",
            Map.of(
                "version",
                desired,
                "image",
                "quay.io/openshift-release-dev/ocp-release:" + desired + "-x86_64"),
            "history",
            history,
            "conditions",
            List.of(
                condition("Available", "True", "Done applying " + completed),
                condition("Progressing", progressing ? "True" : "False", message),
                condition(
                    "Failing",
                    failing == null ? "False" : "True",
                    failing == null ? "" : failing)));
    // A replace, not a merge patch: the CVO writes completionTime: null, which a merge patch would
    // drop.
    GenericKubernetesResource cv =
        wc.genericKubernetesResources("config.openshift.io/v1", "ClusterVersion")
            .withName("version")
            .get();
    cv.setAdditionalProperty("status", status);
    wc.resource(cv).updateStatus();
  }

  private static Map<String, Object> history(String version, String state) {
    Map<String, Object> h = new java.util.LinkedHashMap<>();
    h.put("state", state);
    h.put("version", version);
    h.put("image", "quay.io/openshift-release-dev/ocp-release:" + version + "-x86_64");
    h.put("startedTime", "2026-01-01T00:00:00Z");
    h.put("completionTime", state.equals("Completed") ? "2026-01-01T01:00:00Z" : null);
    h.put("verified", false);
    return h;
  }

  private static Map<String, Object> condition(String type, String status, String message) {
    return Map.of(
        "type",
        type,
        "status",
        status,
        "message",
        message,
        "reason",
        "Test",
        "lastTransitionTime",
        "2026-01-01T00:00:00Z");
  }

  @SuppressWarnings("unchecked")
  private static Map<String, Object> desiredUpdate(KubernetesClient wc) {
    GenericKubernetesResource cv =
        wc.genericKubernetesResources("config.openshift.io/v1", "ClusterVersion")
            .withName("version")
            .get();
    Map<String, Object> spec = (Map<String, Object>) cv.getAdditionalProperties().get("spec");
    return (Map<String, Object>) spec.get("desiredUpdate");
  }
}
