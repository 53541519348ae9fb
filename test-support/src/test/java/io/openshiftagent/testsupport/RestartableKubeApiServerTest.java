package io.openshiftagent.testsupport;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.ConfigBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import io.fabric8.kubernetes.client.KubernetesClientException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.api.parallel.Execution;
import org.junit.jupiter.api.parallel.ExecutionMode;

/**
 * The restartable API server keeps its data, address and credentials across restarts, so clients
 * made before a restart work after it. Each test starts a server of its own in a directory of its
 * own: they run side by side, most of their time waiting for etcd and the API server to start.
 */
@Execution(ExecutionMode.CONCURRENT)
class RestartableKubeApiServerTest {

  @Test
  void aRestartKeepsTheDataTheAddressAndTheCredentials(@TempDir Path dir) {
    Path crds = TestPaths.ourCrds().resolve("bootstrap");
    try (RestartableKubeApiServer server = RestartableKubeApiServer.start(dir, List.of());
        KubernetesClient before = server.newClient()) {
      server.installCrds(List.of(crds));
      String ns = server.createNamespace("restart");
      before.configMaps().inNamespace(ns).resource(configMap("kept", "before")).create();
      String url = server.url();

      server.restart();

      assertThat(server.url()).isEqualTo(url);
      assertThat(before.configMaps().inNamespace(ns).withName("kept").get().getData())
          .containsEntry("written", "before");
      assertThat(server.installedCrds()).isNotEmpty();
      assertThat(
              before
                  .apiextensions()
                  .v1()
                  .customResourceDefinitions()
                  .withName(server.installedCrds().get(0).getMetadata().getName())
                  .get())
          .isNotNull();
      before.configMaps().inNamespace(ns).resource(configMap("new", "after")).create();
      assertThat(server.client().configMaps().inNamespace(ns).withName("new").get()).isNotNull();
    }
    assertThat(dir.resolve("etcd")).doesNotExist();
    assertThat(dir.resolve("kube-apiserver.log")).exists();
  }

  @Test
  void whileTheApiServerIsStoppedRequestsFailAndAStartServesTheSameData(@TempDir Path dir)
      throws Exception {
    try (RestartableKubeApiServer server = RestartableKubeApiServer.start(dir, List.of())) {
      KubernetesClient client = server.client();
      String ns = server.createNamespace("stopped");
      client.configMaps().inNamespace(ns).resource(configMap("kept", "before")).create();

      server.stopApiServer();
      try (KubernetesClient impatient =
          new KubernetesClientBuilder()
              .withConfig(
                  new ConfigBuilder(Config.fromKubeconfig(server.kubeConfigYaml()))
                      .withRequestRetryBackoffLimit(0)
                      .build())
              .build()) {
        assertThatThrownBy(() -> impatient.configMaps().inNamespace(ns).withName("kept").get())
            .isInstanceOf(KubernetesClientException.class);
      }

      server.startApiServer();
      assertThat(client.configMaps().inNamespace(ns).withName("kept").get()).isNotNull();
    }
  }

  /**
   * A restartable management cluster is the one a world of its own gets: every hub CRD, the
   * requests in its audit log across a restart; an earlier run's etcd data is not in its way.
   */
  @Test
  void aRestartableHubHasTheHubsCrdsAndAuditLogAcrossARestart(@TempDir Path dir) throws Exception {
    Files.createDirectories(dir.resolve("etcd"));
    try (RestartableKubeApiServer hub = RestartableKubeApiServer.startRestartableHub(dir)) {
      assertThat(hub.auditLog()).contains(dir.resolve("audit.log").toAbsolutePath());
      assertThat(hub.installedCrds())
          .extracting(crd -> crd.getMetadata().getName())
          .contains(
              "openshiftassistedconfigs.bootstrap.cluster.x-k8s.io",
              "agents.agent-install.openshift.io",
              "clusterdeployments.hive.openshift.io");
      hub.restart();
      String ns = hub.createNamespace("audited");
      assertThat(Files.readString(hub.auditLog().orElseThrow())).contains(ns);
    }
  }

  @Test
  void aDirectoryWithEtcdDataIsRefused(@TempDir Path dir) throws Exception {
    Files.createDirectories(dir.resolve("etcd"));
    assertThatThrownBy(() -> RestartableKubeApiServer.start(dir, List.of()))
        .hasMessageContaining("start from a fresh directory");
  }

  private static ConfigMap configMap(String name, String written) {
    return new ConfigMapBuilder()
        .withNewMetadata()
        .withName(name)
        .endMetadata()
        .withData(Map.of("written", written))
        .build();
  }
}
