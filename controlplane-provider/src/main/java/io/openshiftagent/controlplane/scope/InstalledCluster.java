package io.openshiftagent.controlplane.scope;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.dsl.base.ResourceDefinitionContext;
import io.openshiftagent.controlplane.names.Names;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Supplier;
import java.util.stream.Collectors;
import java.util.stream.Stream;

/**
 * The installed cluster as one reconcile reads it, through its published kubeconfig: connected when
 * first asked, each object read at most once, the client closed with the scope. Short timeouts and
 * no retries ({@link InstalledClusterClients}): a reconcile that cannot reach the cluster reports
 * it and looks again later. Each read throws when the cluster cannot be read (or no kubeconfig is
 * published).
 */
public final class InstalledCluster implements AutoCloseable {
  static final String CONFIG_API = "config.openshift.io/v1";

  /**
   * The ClusterVersions' resource named outright: a look's new client would otherwise ask the
   * cluster's discovery for it first, each time.
   */
  private static final ResourceDefinitionContext CLUSTER_VERSIONS =
      new ResourceDefinitionContext.Builder()
          .withGroup("config.openshift.io")
          .withVersion("v1")
          .withKind("ClusterVersion")
          .withPlural("clusterversions")
          .withNamespaced(false)
          .build();

  private final Supplier<Optional<String>> kubeconfig;
  private final Map<String, Object> reads = new ConcurrentHashMap<>();
  private KubernetesClient client;

  /**
   * @param kubeconfig the published kubeconfig, read when the cluster is first reached
   */
  InstalledCluster(Supplier<Optional<String>> kubeconfig) {
    this.kubeconfig = kubeconfig;
  }

  /**
   * The installed cluster that {@code kubeconfig} reaches, outside a reconcile (its reads are kept
   * until the caller closes it).
   */
  public static InstalledCluster through(Supplier<Optional<String>> kubeconfig) {
    return new InstalledCluster(kubeconfig);
  }

  /** A client of the installed cluster, for the writes there. */
  public synchronized KubernetesClient client() {
    if (client == null) {
      String yaml =
          kubeconfig
              .get()
              .orElseThrow(
                  () ->
                      new IllegalStateException(
                          "no kubeconfig of the installed cluster is published yet"));
      client = InstalledClusterClients.connect(yaml);
    }
    return client;
  }

  /** The etcd operator's {@code Etcd/cluster} and the {@code etcd} ClusterOperator (or nulls). */
  public List<GenericKubernetesResource> etcd() {
    return read(
        "etcd",
        () ->
            Arrays.asList(
                client()
                    .genericKubernetesResources(Names.ETCD_API, Names.ETCD_KIND)
                    .withName(Names.ETCD_NAME)
                    .get(),
                client()
                    .genericKubernetesResources(CONFIG_API, "ClusterOperator")
                    .withName("etcd")
                    .get()));
  }

  /** The names of its Nodes. */
  public Set<String> nodeNames() {
    return read(
        "nodes",
        () ->
            client().nodes().list().getItems().stream()
                .map(node -> node.getMetadata().getName())
                .collect(Collectors.toSet()));
  }

  /** The Nodes labelled control-plane or master. */
  public List<Node> controlPlaneNodes() {
    return read(
        "control-plane-nodes",
        () ->
            Stream.of("node-role.kubernetes.io/control-plane", "node-role.kubernetes.io/master")
                .flatMap(label -> client().nodes().withLabel(label).list().getItems().stream())
                .toList());
  }

  /** The Node named {@code name}, if the cluster has it. */
  public Optional<Node> node(String name) {
    return read("node/" + name, () -> Optional.ofNullable(client().nodes().withName(name).get()));
  }

  /** The pods of the given namespaces, by {@code namespace/name}: one list per namespace. */
  public Map<String, Pod> pods(List<String> namespaces) {
    return read(
        "pods " + namespaces,
        () ->
            namespaces.stream()
                .flatMap(ns -> client().pods().inNamespace(ns).list().getItems().stream())
                .collect(
                    Collectors.toMap(
                        p -> p.getMetadata().getNamespace() + "/" + p.getMetadata().getName(),
                        p -> p,
                        (a, b) -> a)));
  }

  /** The cluster's {@code ClusterVersion/version}, if it has one yet. */
  public Optional<GenericKubernetesResource> clusterVersion() {
    return read(
        "clusterversion",
        () ->
            Optional.ofNullable(
                client().genericKubernetesResources(CLUSTER_VERSIONS).withName("version").get()));
  }

  @SuppressWarnings("unchecked")
  private <T> T read(String key, Supplier<T> get) {
    Object known = reads.get(key);
    if (known == null) {
      known = get.get();
      reads.put(key, known);
    }
    return (T) known;
  }

  @Override
  public synchronized void close() {
    if (client != null) {
      client.close();
    }
  }
}
