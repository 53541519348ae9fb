package io.openshiftagent.testsupport;

import io.fabric8.kubernetes.api.model.NamespaceBuilder;
import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceDefinition;
import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/**
 * A real kube-apiserver (with its etcd) that tests talk to as cluster admin: {@link
 * KubeApiServerEnvironment}, or a {@link RestartableKubeApiServer} for tests that restart it.
 */
public interface ApiServer extends AutoCloseable {
  /** A kubeconfig with cluster-admin rights. */
  String kubeConfigYaml();

  /** A client with cluster-admin rights; shared, do not close it. */
  KubernetesClient client();

  /** A new client of its own (for a component under test that closes its client). */
  default KubernetesClient newClient() {
    return new KubernetesClientBuilder()
        .withConfig(Config.fromKubeconfig(kubeConfigYaml()))
        .build();
  }

  /** A new client of its own that names itself {@code userAgent} in requests (and audit logs). */
  default KubernetesClient newClient(String userAgent) {
    Config config = Config.fromKubeconfig(kubeConfigYaml());
    config.setUserAgent(userAgent);
    return new KubernetesClientBuilder().withConfig(config).build();
  }

  /** The CRDs installed so far, in the order they were installed. */
  List<CustomResourceDefinition> installedCrds();

  /**
   * Creates a namespace with a unique name; namespaces are never deleted (no controller-manager
   * runs).
   */
  default String createNamespace(String prefix) {
    String name =
        (prefix.toLowerCase(Locale.ROOT).replaceAll("[^a-z0-9-]", "-")
                + "-"
                + NamespaceCounter.NEXT.incrementAndGet())
            .replaceAll("^-+", "");
    if (name.length() > 63) {
      name = name.substring(name.length() - 63).replaceAll("^-+", "");
    }
    client()
        .namespaces()
        .resource(new NamespaceBuilder().withNewMetadata().withName(name).endMetadata().build())
        .create();
    return name;
  }

  /** Where this server writes its audit log, when it was started with one. */
  default Optional<Path> auditLog() {
    return Optional.empty();
  }

  /** Stops the server. */
  @Override
  void close();
}
