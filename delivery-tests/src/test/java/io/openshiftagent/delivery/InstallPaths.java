package io.openshiftagent.delivery;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import io.openshiftagent.testsupport.Command;
import io.openshiftagent.testsupport.TestPaths;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * Every way we ship the providers, rendered by the real client a user runs, as the objects it would
 * create: kustomize ({@code kubectl kustomize config/default}), the clusterctl components ({@code
 * hack/release.sh}, their variables filled in by {@code clusterctl generate yaml}) and the Helm
 * chart ({@code helm template}).
 */
enum InstallPaths {
  KUSTOMIZE,
  CLUSTERCTL,
  HELM;

  static final Path CHART = TestPaths.repoRoot().resolve("charts/openshift-agent");

  /** The manifests this path installs with its defaults; {@code work} is a scratch directory. */
  String render(Path work) {
    try {
      return switch (this) {
        case KUSTOMIZE ->
            Command.of(
                    TestPaths.kubectl(),
                    "kustomize",
                    TestPaths.repoRoot().resolve("config/default"))
                .ok();
        case CLUSTERCTL -> {
          Path release = Release.build(Release.pomReleaseVersion(), work.resolve("release"));
          Path config = Files.writeString(work.resolve("clusterctl.yaml"), "{}\n");
          Path home = Files.createDirectories(work.resolve("home"));
          StringBuilder all = new StringBuilder();
          for (String file :
              List.of("bootstrap-components.yaml", "control-plane-components.yaml")) {
            all.append(
                    Command.of(
                            TestPaths.tool("clusterctl"),
                            "generate",
                            "yaml",
                            "--config=" + config,
                            "--from",
                            release.resolve(file))
                        .env("CLUSTERCTL_DISABLE_VERSIONCHECK", "true")
                        .env("XDG_CONFIG_HOME", home.resolve(".config").toString())
                        .env("HOME", home.toString())
                        .ok())
                .append("\n---\n");
          }
          yield all.toString();
        }
        case HELM ->
            Command.run(
                    Duration.ofMinutes(2),
                    List.of(
                        TestPaths.tool("helm").toString(),
                        "template",
                        "capoa",
                        CHART.toString(),
                        "-n",
                        "capoa-system"))
                .ok();
      };
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** {@link #render} parsed into objects. */
  List<HasMetadata> objects(Path work) {
    return parse(render(work));
  }

  static List<HasMetadata> parse(String manifests) {
    try (KubernetesClient parser =
        new KubernetesClientBuilder().withConfig(Config.empty()).build()) {
      return new ArrayList<>(
          parser
              .load(new ByteArrayInputStream(manifests.getBytes(StandardCharsets.UTF_8)))
              .items());
    }
  }
}
