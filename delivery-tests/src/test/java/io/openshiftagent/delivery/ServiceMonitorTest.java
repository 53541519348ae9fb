package io.openshiftagent.delivery;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.NamespaceBuilder;
import io.fabric8.kubernetes.api.model.Service;
import io.fabric8.kubernetes.api.model.ServicePort;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.openshiftagent.testsupport.Command;
import io.openshiftagent.testsupport.CrdInstaller;
import io.openshiftagent.testsupport.KubeApiServerEnvironment;
import io.openshiftagent.testsupport.TestPaths;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The optional ServiceMonitors (kustomize's {@code config/prometheus}, the chart's {@code
 * metrics.serviceMonitor.enabled}) select each provider's metrics Service, name its HTTPS port, and
 * are accepted by the real API server with the Prometheus operator's ServiceMonitor CRD; the
 * Service reaches the manager's {@code metrics} port.
 */
class ServiceMonitorTest {
  private static KubernetesClient client;

  @BeforeAll
  static void serviceMonitorCrd() {
    client = KubeApiServerEnvironment.shared().client();
    CrdInstaller.installFrom(client, List.of(TestPaths.openshiftHubCrds()));
  }

  @Test
  void kustomizesServiceMonitorsScrapeTheProvidersServices() {
    List<HasMetadata> installed =
        InstallPaths.parse(
            Command.of(
                    TestPaths.kubectl(),
                    "kustomize",
                    TestPaths.repoRoot().resolve("config/default"))
                .ok());
    List<HasMetadata> monitors =
        InstallPaths.parse(
            Command.of(
                    TestPaths.kubectl(),
                    "kustomize",
                    TestPaths.repoRoot().resolve("config/prometheus"))
                .ok());
    assertThat(monitors).hasSize(2);
    check(installed, monitors);
  }

  @Test
  void theChartsServiceMonitorsScrapeTheProvidersServices() {
    List<HasMetadata> installed =
        InstallPaths.parse(
            Command.run(
                    Duration.ofMinutes(2),
                    List.of(
                        TestPaths.tool("helm").toString(),
                        "template",
                        "capoa",
                        InstallPaths.CHART.toString(),
                        "-n",
                        "capoa-monitoring",
                        "--set",
                        "metrics.serviceMonitor.enabled=true"))
                .ok());
    check(installed, installed.stream().filter(o -> o.getKind().equals("ServiceMonitor")).toList());
  }

  private static void check(List<HasMetadata> installed, List<HasMetadata> monitors) {
    assertThat(monitors).hasSize(2);
    for (HasMetadata object : monitors) {
      GenericKubernetesResource monitor = (GenericKubernetesResource) object;
      String ns = monitor.getMetadata().getNamespace();
      Map<String, String> selector = monitor.get("spec", "selector", "matchLabels");
      List<Service> services =
          installed.stream()
              .filter(Service.class::isInstance)
              .map(Service.class::cast)
              .filter(s -> s.getMetadata().getLabels().entrySet().containsAll(selector.entrySet()))
              .toList();
      assertThat(services).as("the Service %s selects", monitor.getMetadata().getName()).hasSize(1);
      Service service = services.get(0);
      assertThat(service.getMetadata().getNamespace()).isEqualTo(ns);
      Map<String, Object> endpoint = monitor.get("spec", "endpoints", 0);
      assertThat(endpoint).containsEntry("scheme", "https").containsEntry("path", "/metrics");
      ServicePort port =
          service.getSpec().getPorts().stream()
              .filter(p -> p.getName().equals(endpoint.get("port")))
              .findFirst()
              .orElseThrow(() -> new AssertionError("no port " + endpoint.get("port")));
      // The Service reaches the manager's metrics port, the one --diagnostics-address serves.
      Deployment manager =
          installed.stream()
              .filter(Deployment.class::isInstance)
              .map(Deployment.class::cast)
              .filter(d -> d.getMetadata().getNamespace().equals(ns))
              .filter(
                  d ->
                      d.getSpec()
                          .getTemplate()
                          .getMetadata()
                          .getLabels()
                          .entrySet()
                          .containsAll(service.getSpec().getSelector().entrySet()))
              .findFirst()
              .orElseThrow();
      Container container = manager.getSpec().getTemplate().getSpec().getContainers().get(0);
      int target =
          container.getPorts().stream()
              .filter(p -> p.getName().equals(port.getTargetPort().getStrVal()))
              .findFirst()
              .orElseThrow()
              .getContainerPort();
      assertThat(container.getArgs()).contains("--diagnostics-address=:" + target);
      assertThat(port.getPort()).isEqualTo(target);

      if (client.namespaces().withName(ns).get() == null) {
        client
            .namespaces()
            .resource(new NamespaceBuilder().withNewMetadata().withName(ns).endMetadata().build())
            .create();
      }
      // The real schema judges it (dry run: nothing stays).
      client.resource(monitor).dryRun().create();
    }
  }
}
