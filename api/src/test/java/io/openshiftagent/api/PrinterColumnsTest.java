package io.openshiftagent.api;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.GenericKubernetesResourceBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.openshiftagent.testsupport.Command;
import io.openshiftagent.testsupport.KubeApiServerEnvironment;
import io.openshiftagent.testsupport.TestPaths;
import io.openshiftagent.testsupport.WithKubeApiServer;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code kubectl get} shows each kind's columns in the order the model declares them, AGE last:
 * read from the real kubectl against the committed CRDs on the real API server.
 */
@WithKubeApiServer
class PrinterColumnsTest {
  @TempDir Path dir;

  @Test
  void kubectlGetShowsTheDeclaredColumnsInTheirOrder(KubeApiServerEnvironment env)
      throws IOException {
    KubernetesClient client = env.client();
    String ns = env.createNamespace("columns");
    List<GenericKubernetesResource> manifests = Manifests.load(client, "manifests/multinode.yaml");
    GenericKubernetesResource controlPlane =
        Manifests.find(manifests, "OpenshiftAssistedControlPlane");
    GenericKubernetesResource configTemplate =
        Manifests.find(manifests, "OpenshiftAssistedConfigTemplate");
    client.resource(controlPlane).inNamespace(ns).create();
    client.resource(configTemplate).inNamespace(ns).create();
    client
        .resource(
            new GenericKubernetesResourceBuilder()
                .withApiVersion(configTemplate.getApiVersion())
                .withKind("OpenshiftAssistedConfig")
                .withNewMetadata()
                .withName("columns")
                .endMetadata()
                .withAdditionalProperties(
                    Map.of("spec", configTemplate.get("spec", "template", "spec")))
                .build())
        .inNamespace(ns)
        .create();
    client
        .resource(
            new GenericKubernetesResourceBuilder()
                .withApiVersion(controlPlane.getApiVersion())
                .withKind("OpenshiftAssistedControlPlaneTemplate")
                .withNewMetadata()
                .withName("columns")
                .endMetadata()
                .withAdditionalProperties(
                    Map.of(
                        "spec",
                        Map.of(
                            "template",
                            Map.of(
                                "spec",
                                Map.of(
                                    "distributionVersion",
                                    controlPlane.get("spec", "distributionVersion"),
                                    "config",
                                    controlPlane.get("spec", "config"))))))
                .build())
        .inNamespace(ns)
        .create();

    Path kubeconfig = Files.writeString(dir.resolve("kubeconfig"), env.kubeConfigYaml());
    PrinterColumnOrder.MODELS.forEach(
        (plural, model) -> {
          List<String> declared =
              PrinterColumnOrder.declared(model).stream()
                  .map(n -> n.toUpperCase(Locale.ROOT))
                  .toList();
          List<String> wide = header(kubeconfig, ns, plural, "-o", "wide");
          assertThat(wide).as("kubectl get %s -o wide", plural).isEqualTo(concat("NAME", declared));
          assertThat(wide).last().isEqualTo("AGE");
          List<String> standard = header(kubeconfig, ns, plural);
          assertThat(standard).as("kubectl get %s", plural).first().isEqualTo("NAME");
          assertThat(wide).containsSubsequence(standard);
        });
  }

  /**
   * The column headers of {@code kubectl get}. Headers are separated by two or more spaces; a
   * header may hold one (DESIRED VERSION).
   */
  private static List<String> header(Path kubeconfig, String ns, String plural, String... more) {
    List<String> args =
        new ArrayList<>(
            List.of(
                TestPaths.kubectl().toString(),
                "--kubeconfig=" + kubeconfig,
                "get",
                plural,
                "-n",
                ns));
    args.addAll(Arrays.asList(more));
    String out = Command.of(args.toArray()).ok();
    return Arrays.asList(out.lines().findFirst().orElseThrow().trim().split("\\s{2,}"));
  }

  private static List<String> concat(String first, List<String> rest) {
    List<String> all = new ArrayList<>();
    all.add(first);
    all.addAll(rest);
    return all;
  }
}
