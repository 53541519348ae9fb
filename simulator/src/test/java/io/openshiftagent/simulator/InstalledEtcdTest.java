package io.openshiftagent.simulator;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.NodeBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.dsl.ExecWatch;
import io.openshiftagent.testsupport.KubeApiServerEnvironment;
import io.openshiftagent.testsupport.TestPaths;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * An installed cluster's real etcd and its kubelet server, without the rest of the world: a {@code
 * kubectl exec}-style call into an etcd pod's {@code etcdctl} container, made through the cluster's
 * kube-apiserver as the control-plane provider makes it, runs the real etcdctl against that pod's
 * member; members join with {@code etcdctl member add} and leave only by {@code etcdctl member
 * remove}.
 */
class InstalledEtcdTest {
  private static KubeApiServerEnvironment workload;
  private static InstalledEtcd etcd;
  private static KwokKubelet kubelet;

  @BeforeAll
  static void start() throws Exception {
    workload =
        KubeApiServerEnvironment.startIndependent(
            List.of(TestPaths.workloadCrds()), WorkloadClusters.API_SERVER_FLAGS);
    Path dir = Files.createTempDirectory(Path.of("target"), "installed-etcd-").toAbsolutePath();
    etcd = new InstalledEtcd(dir.resolve("etcd"), "installed-etcd-test");
    KubernetesClient client = workload.client();
    client
        .namespaces()
        .resource(
            new io.fabric8.kubernetes.api.model.NamespaceBuilder()
                .withNewMetadata()
                .withName(KwokKubelet.NAMESPACE)
                .endMetadata()
                .build())
        .create();
    kubelet = KwokKubelet.start(client, workload.kubeConfigYaml(), dir.resolve("kwok"));
    for (String name : List.of("master-0", "master-1", "master-2", "master-3")) {
      Node node =
          client
              .nodes()
              .resource(new NodeBuilder().withNewMetadata().withName(name).endMetadata().build())
              .create();
      kubelet.register(node);
    }
    etcd.bootstrap(List.of("master-0", "master-1", "master-2"));
    for (String name : List.of("master-0", "master-1", "master-2")) {
      kubelet.etcdPod(name, etcd.clientUrl(name), true);
    }
  }

  @AfterAll
  static void stop() {
    if (kubelet != null) {
      kubelet.close();
    }
    if (etcd != null) {
      etcd.close();
    }
    if (workload != null) {
      workload.close();
    }
  }

  @Test
  void execThroughTheApiServerRunsTheRealEtcdctlAgainstThePodsMember() {
    String json = exec("etcd-master-1", "etcdctl", "member", "list", "-w", "json");
    assertThat(json).contains("\"name\":\"master-0\"").contains("\"name\":\"master-2\"");
    String status = exec("etcd-master-1", "etcdctl", "endpoint", "status", "-w", "json");
    assertThat(status).contains(etcd.clientUrl("master-1"));
    // A member added joins with etcd's own answer; removed by its hex ID, it is gone.
    etcd.add("master-3");
    kubelet.etcdPod("master-3", etcd.clientUrl("master-3"), true);
    InstalledEtcd.Member added =
        etcd.members().stream().filter(m -> m.name().equals("master-3")).findFirst().orElseThrow();
    etcd.stop("master-3");
    String removed = exec("etcd-master-0", "etcdctl", "member", "remove", added.hexId());
    // etcdctl pads the ID to 16 characters here ("Member %16x removed").
    assertThat(removed).containsPattern("Member +" + added.hexId() + " removed");
    assertThat(etcd.members())
        .extracting(InstalledEtcd.Member::name)
        .containsExactlyInAnyOrder("master-0", "master-1", "master-2");
  }

  @Test
  void aFailingCommandFailsTheExec() {
    assertThatThrownBy(() -> exec("etcd-master-2", "etcdctl", "member", "remove", "1"))
        .hasMessageContaining("member not found");
  }

  private static String exec(String pod, String... command) {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    ByteArrayOutputStream err = new ByteArrayOutputStream();
    try (ExecWatch watch =
        workload
            .client()
            .pods()
            .inNamespace(KwokKubelet.NAMESPACE)
            .withName(pod)
            .inContainer("etcdctl")
            .writingOutput(out)
            .writingError(err)
            .exec(command)) {
      Integer code = watch.exitCode().get(30, TimeUnit.SECONDS);
      if (code == null || code != 0) {
        throw new IllegalStateException(
            "exit " + code + ": " + err.toString(StandardCharsets.UTF_8));
      }
      return out.toString(StandardCharsets.UTF_8);
    } catch (Exception e) {
      throw new IllegalStateException(e.getMessage(), e);
    }
  }
}
