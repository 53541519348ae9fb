package io.openshiftagent.testsupport;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A real kube-apiserver started with {@link AuditLog#apiServerFlags} logs what a client did. */
class AuditLogTest {

  @Test
  void countsEachRequestOnceByUserAgentVerbAndResource(@TempDir Path dir) throws Exception {
    Path log = dir.resolve("audit.log");
    try (KubeApiServerEnvironment server =
        KubeApiServerEnvironment.startIndependent(List.of(), AuditLog.apiServerFlags(log))) {
      assertThat(server.auditLog()).contains(log);
      Config config = Config.fromKubeconfig(server.kubeConfigYaml());
      config.setUserAgent("audit-log-test/1");
      try (KubernetesClient client = new KubernetesClientBuilder().withConfig(config).build()) {
        client
            .configMaps()
            .inNamespace("default")
            .resource(
                new ConfigMapBuilder()
                    .withNewMetadata()
                    .withName("audited")
                    .endMetadata()
                    .withData(Map.of("k", "v"))
                    .build())
            .create();
        client.configMaps().inNamespace("default").withName("audited").get();
        client.configMaps().inNamespace("default").withName("audited").get();
        client.configMaps().inNamespace("default").list();
      }

      Map<AuditLog.Count, Long> expected =
          Map.of(
              new AuditLog.Count("audit-log-test/1", "create", "configmaps"), 1L,
              new AuditLog.Count("audit-log-test/1", "get", "configmaps"), 2L,
              new AuditLog.Count("audit-log-test/1", "list", "configmaps"), 1L);
      // The server writes an event when the response completes, just after the client has it.
      long deadline = System.nanoTime() + 10_000_000_000L;
      Map<AuditLog.Count, Long> ours = Map.of();
      while (!ours.equals(expected) && System.nanoTime() < deadline) {
        Thread.sleep(100);
        ours = ofUserAgent(AuditLog.read(log), "audit-log-test/1");
      }
      assertThat(ours).isEqualTo(expected);
      AuditLog.Request create =
          AuditLog.read(log).stream()
              .filter(r -> r.verb().equals("create") && r.userAgent().equals("audit-log-test/1"))
              .findFirst()
              .orElseThrow();
      assertThat(create.namespace()).isEqualTo("default");
      assertThat(create.code()).isEqualTo(201);
      assertThat(create.completed()).isAfterOrEqualTo(create.received());
    }
  }

  @Test
  void findsTheDeletesOfOneControllerInOneNamespace(@TempDir Path dir) throws Exception {
    Path log = dir.resolve("audit.log");
    try (KubeApiServerEnvironment server =
        KubeApiServerEnvironment.startIndependent(List.of(), AuditLog.apiServerFlags(log))) {
      try (KubernetesClient admin = server.newClient("audit-log-test/1");
          KubernetesClient collector = server.newClient("audit-log-test/1/collector")) {
        for (String name : List.of("collected", "deleted-by-another", "kept")) {
          admin
              .configMaps()
              .inNamespace("default")
              .resource(
                  new ConfigMapBuilder().withNewMetadata().withName(name).endMetadata().build())
              .create();
        }
        collector.configMaps().inNamespace("default").withName("collected").delete();
        // Gone already: refused with 404, not a delete that happened.
        collector.configMaps().inNamespace("default").withName("collected").delete();
        admin.configMaps().inNamespace("default").withName("deleted-by-another").delete();
        collector.configMaps().inNamespace("kube-system").withName("absent").delete();
      }
      long deadline = System.nanoTime() + 10_000_000_000L;
      List<AuditLog.Request> deletes = List.of();
      while (deletes.isEmpty() && System.nanoTime() < deadline) {
        Thread.sleep(100);
        deletes = AuditLog.deletesBy(log, "/collector", "default");
      }
      assertThat(deletes)
          .extracting(AuditLog.Request::resource, AuditLog.Request::name, AuditLog.Request::code)
          .containsExactly(org.assertj.core.groups.Tuple.tuple("configmaps", "collected", 200));
    }
  }

  private static Map<AuditLog.Count, Long> ofUserAgent(
      List<AuditLog.Request> requests, String userAgent) {
    Map<AuditLog.Count, Long> counts = new java.util.HashMap<>();
    AuditLog.countByUserAgentVerbAndResource(requests)
        .forEach(
            (count, n) -> {
              if (count.userAgent().equals(userAgent)) {
                counts.put(count, n);
              }
            });
    return counts;
  }
}
