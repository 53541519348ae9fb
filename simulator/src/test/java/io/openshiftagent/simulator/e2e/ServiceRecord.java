package io.openshiftagent.simulator.e2e;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.client.utils.Serialization;
import io.openshiftagent.simulator.World;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;
import java.util.stream.Stream;

/**
 * What the real assisted-service made of a cluster's AgentClusterInstall: its own record of the
 * cluster (a row of its database), the install-config it rendered when the installation started and
 * the manifests it stored (its filesystem storage, {@code <WORK_DIR>/<cluster id>/}).
 */
final class ServiceRecord {
  private final World world;
  private final ClusterScenario cluster;

  ServiceRecord(World world, ClusterScenario cluster) {
    this.world = world;
    this.cluster = cluster;
  }

  /** The service's id of the cluster. */
  String clusterId() {
    return clusterColumns("id");
  }

  /**
   * Columns of the service's row of the cluster, separated by {@code |}.
   *
   * @param columns e.g. {@code http_proxy, no_proxy}
   */
  String clusterColumns(String columns) {
    List<String> rows =
        query(
            "SELECT "
                + columns
                + " FROM clusters WHERE kube_key_namespace = '"
                + cluster.namespace()
                + "' AND kube_key_name = '"
                + cluster.clusterName()
                + "'");
    if (rows.size() != 1) {
      throw new IllegalStateException("no single cluster of " + cluster.namespace() + ": " + rows);
    }
    return rows.get(0);
  }

  /** The rows of {@code sql} on the service's database, each row's columns separated by |. */
  List<String> query(String sql) {
    try {
      return world.assistedService().postgres().query(sql);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(e);
    }
  }

  /**
   * The install-config the service rendered as the installation started, its fields read as an
   * object's ({@link io.openshiftagent.simulator.Fields}).
   */
  GenericKubernetesResource installConfig() throws IOException {
    Path file = storage().resolve("install-config.yaml");
    return Serialization.yamlMapper()
        .readValue(Files.readString(file), GenericKubernetesResource.class);
  }

  /** The path, in the service's storage of this cluster, of each file named {@code name}. */
  List<Path> stored(String name) throws IOException {
    try (Stream<Path> files = Files.walk(storage())) {
      return files.filter(f -> f.getFileName().toString().equals(name)).toList();
    }
  }

  private Path storage() {
    return world.assistedService().workDir().resolve(clusterId());
  }

  /** Changes the control plane among the objects of a manifest before they are created. */
  static Consumer<HasMetadata> onControlPlane(Consumer<GenericKubernetesResource> edit) {
    return object -> {
      if (object instanceof GenericKubernetesResource resource
          && "OpenshiftAssistedControlPlane".equals(object.getKind())) {
        edit.accept(resource);
      }
    };
  }

  /** The control plane's {@code spec.config}, as a map that can be changed. */
  @SuppressWarnings("unchecked")
  static Map<String, Object> config(GenericKubernetesResource cp) {
    Map<String, Object> spec = (Map<String, Object>) cp.getAdditionalProperties().get("spec");
    Map<String, Object> config = new HashMap<>((Map<String, Object>) spec.get("config"));
    spec.put("config", config);
    return config;
  }
}
