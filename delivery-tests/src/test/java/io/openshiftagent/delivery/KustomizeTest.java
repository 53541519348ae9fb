package io.openshiftagent.delivery;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.OwnerReferenceBuilder;
import io.fabric8.kubernetes.api.model.SecretBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.dsl.base.PatchContext;
import io.fabric8.kubernetes.client.dsl.base.PatchType;
import io.javaoperatorsdk.operator.Operator;
import io.openshiftagent.api.bootstrap.v1alpha2.BootMode;
import io.openshiftagent.bootstrap.BootstrapProvider;
import io.openshiftagent.controlplane.ControlPlaneProvider;
import io.openshiftagent.provider.runtime.ControllerScope;
import io.openshiftagent.provider.runtime.ProviderOperator;
import io.openshiftagent.testsupport.Command;
import io.openshiftagent.testsupport.CrdInstaller;
import io.openshiftagent.testsupport.KubeApiServerEnvironment;
import io.openshiftagent.testsupport.TestPaths;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A user installs both providers with {@code kubectl apply --server-side -k config/default}; once
 * the operators have reconciled a cluster, the user's manifests still match the cluster exactly.
 */
class KustomizeTest {
  private static final Duration TIMEOUT = Duration.ofSeconds(60);

  @TempDir Path work;

  @Test
  void applyThenReconcileLeavesNoDiffAgainstTheUsersManifests() throws IOException {
    // A management cluster of its own, with the upstream CRDs but not ours: those come from the
    // user's manifests.
    try (KubeApiServerEnvironment env =
        KubeApiServerEnvironment.startIndependent(List.of(TestPaths.upstreamCrds()))) {
      installReconcileAndDiff(env);
    }
  }

  private void installReconcileAndDiff(KubeApiServerEnvironment env) throws IOException {
    KubernetesClient client = env.client();
    Path kubeconfig = Files.writeString(work.resolve("kubeconfig"), env.kubeConfigYaml());
    Path clusterctlConfig = Files.writeString(work.resolve("clusterctl.yaml"), "{}\n");
    Clients clients =
        new Clients(kubeconfig, clusterctlConfig, Files.createDirectories(work.resolve("home")));
    Path manifests = TestPaths.repoRoot().resolve("config/default");

    clients.kubectl("apply", "--server-side", "-k", manifests).ok();
    CrdInstaller.awaitEstablished(
        client,
        Duration.ofSeconds(60),
        client.apiextensions().v1().customResourceDefinitions().list().getItems().stream()
            .map(crd -> crd.getMetadata().getName())
            .toList());
    assertThat(
            client
                .apps()
                .deployments()
                .inNamespace("openshift-agent-bootstrap-system")
                .withName("bootstrap-openshift-agent-controller-manager")
                .get())
        .isNotNull();
    assertThat(
            client
                .apps()
                .deployments()
                .inNamespace("openshift-agent-control-plane-system")
                .withName("control-plane-openshift-agent-controller-manager")
                .get())
        .isNotNull();

    Operator bootstrap = ProviderOperator.create(env.newClient(), o -> {});
    BootstrapProvider.register(
        bootstrap,
        env.newClient(),
        (namespace, url, events) -> "{}",
        BootMode.LIVE_ISO,
        "kustomize-test",
        ControllerScope.EVERYTHING);
    Operator controlPlane =
        ControlPlaneProvider.create(env.newClient(), Duration.ofMinutes(1), Map.of());
    bootstrap.start();
    controlPlane.start();
    try {
      String ns = env.createNamespace("kustomize");
      reconcileSampleCluster(client, clients, ns);
    } finally {
      controlPlane.stop();
      bootstrap.stop();
    }

    Command.Result diff = clients.kubectl("diff", "--server-side", "-k", manifests).run();
    assertThat(diff.exitCode()).as(diff.describe()).isZero();
  }

  /**
   * Creates the single-node flavor as {@code clusterctl generate cluster} renders it, plays Cluster
   * API core (owner reference, endpoint, infrastructure provisioned) and waits until the control
   * plane has created its ClusterDeployment and Machine and the bootstrap provider has reported on
   * the Machine's config.
   */
  private static void reconcileSampleCluster(KubernetesClient client, Clients clients, String ns) {
    String cluster =
        clients
            .clusterctl(
                "generate",
                "cluster",
                "sample",
                "--target-namespace",
                ns,
                "--from",
                TestPaths.repoRoot().resolve("templates/cluster-template-sno.yaml"))
            .env(
                Map.of(
                    "OPENSHIFT_VERSION", "4.20.0",
                    // No registry here: the ClusterImageSet keeps the release's tag.
                    "RELEASE_IMAGE_REFERENCE", "tag",
                    "BASE_DOMAIN", "lab.example.com",
                    "NODE_IP", "192.168.222.30",
                    "SSH_AUTHORIZED_KEY",
                        "ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIExample user@example",
                    "IMAGE_URL", "https://example.com/rhcos.qcow2",
                    "IMAGE_CHECKSUM", "https://example.com/rhcos.qcow2.sha256sum"))
            .ok();
    client
        .secrets()
        .inNamespace(ns)
        .resource(
            new SecretBuilder()
                .withNewMetadata()
                .withName("pull-secret")
                .endMetadata()
                .withType("kubernetes.io/dockerconfigjson")
                .addToStringData(".dockerconfigjson", "{\"auths\":{}}")
                .build())
        .create();
    clients.kubectl("apply", "--server-side", "-f", "-").stdin(cluster).ok();

    // Cluster API core's part: the contract label clusterctl puts on infrastructure CRDs, the
    // control plane's owner reference to its Cluster, the endpoint and provisioned infrastructure.
    CrdInstaller.labelMetal3MachineContracts(client);
    var clusters = client.genericKubernetesResources("cluster.x-k8s.io/v1beta2", "Cluster");
    GenericKubernetesResource capiCluster = clusters.inNamespace(ns).withName("sample").get();
    client
        .genericKubernetesResources(
            "controlplane.cluster.x-k8s.io/v1alpha3", "OpenshiftAssistedControlPlane")
        .inNamespace(ns)
        .withName("sample")
        .patch(
            PatchContext.of(PatchType.JSON_MERGE),
            "{\"metadata\":{\"ownerReferences\":[{\"apiVersion\":\"cluster.x-k8s.io/v1beta2\","
                + "\"kind\":\"Cluster\",\"name\":\"sample\",\"uid\":\""
                + capiCluster.getMetadata().getUid()
                + "\"}]}}");
    clusters
        .inNamespace(ns)
        .withName("sample")
        .patch(
            PatchContext.of(PatchType.JSON_MERGE),
            "{\"spec\":{\"controlPlaneEndpoint\":{\"host\":\"192.168.222.30\",\"port\":6443}}}");
    clusters
        .inNamespace(ns)
        .withName("sample")
        .subresource("status")
        .patch(
            PatchContext.of(PatchType.JSON_MERGE),
            "{\"status\":{\"initialization\":{\"infrastructureProvisioned\":true}}}");

    await(
        "the control plane's ClusterDeployment",
        () ->
            client
                    .genericKubernetesResources("hive.openshift.io/v1", "ClusterDeployment")
                    .inNamespace(ns)
                    .withName("sample")
                    .get()
                != null);
    await(
        "a control-plane Machine",
        () ->
            !client
                .genericKubernetesResources("cluster.x-k8s.io/v1beta2", "Machine")
                .inNamespace(ns)
                .list()
                .getItems()
                .isEmpty());
    // Cluster API's Machine controller links each bootstrap config to its Machine; the bootstrap
    // provider leaves a config alone until then, as Cluster API's kubeadm provider does.
    GenericKubernetesResource machine =
        client
            .genericKubernetesResources("cluster.x-k8s.io/v1beta2", "Machine")
            .inNamespace(ns)
            .list()
            .getItems()
            .get(0);
    client
        .genericKubernetesResources(
            "bootstrap.cluster.x-k8s.io/v1alpha2", "OpenshiftAssistedConfig")
        .inNamespace(ns)
        .withName(machine.get("spec", "bootstrap", "configRef", "name"))
        .edit(
            config -> {
              config
                  .getMetadata()
                  .getOwnerReferences()
                  .add(
                      new OwnerReferenceBuilder()
                          .withApiVersion("cluster.x-k8s.io/v1beta2")
                          .withKind("Machine")
                          .withName(machine.getMetadata().getName())
                          .withUid(machine.getMetadata().getUid())
                          .withController(true)
                          .build());
              return config;
            });
    await(
        "the bootstrap provider's conditions on the Machine's OpenshiftAssistedConfig",
        () ->
            client
                .genericKubernetesResources(
                    "bootstrap.cluster.x-k8s.io/v1alpha2", "OpenshiftAssistedConfig")
                .inNamespace(ns)
                .list()
                .getItems()
                .stream()
                .anyMatch(c -> c.get("status", "conditions") != null));
  }

  private static void await(String what, Supplier<Boolean> condition) {
    Instant deadline = Instant.now().plus(TIMEOUT);
    while (!condition.get()) {
      if (Instant.now().isAfter(deadline)) {
        throw new AssertionError("timed out after " + TIMEOUT + " waiting for " + what);
      }
      try {
        Thread.sleep(200);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new AssertionError(e);
      }
    }
  }
}
