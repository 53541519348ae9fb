package io.openshiftagent.simulator;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.NamespaceBuilder;
import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.fabric8.kubernetes.api.model.SecretBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.dsl.base.PatchContext;
import io.fabric8.kubernetes.client.dsl.base.PatchType;
import io.fabric8.kubernetes.client.utils.Serialization;
import io.openshiftagent.testsupport.KubeApiServerEnvironment;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Function;
import java.util.stream.Collectors;

/**
 * Stands in for OpenShift's cluster-etcd-operator in each installed cluster (there is no etcd of
 * OpenShift's here, nor a kubelet): it keeps the membership of the cluster's etcd and reports it as
 * the operator does, in the conditions of {@code etcds.operator.openshift.io/cluster} and of the
 * {@code etcd} ClusterOperator. Once the installation finalizes, the members are the control-plane
 * Nodes that are Ready; afterwards a control-plane Node that becomes Ready is added, with its peer,
 * serving and metrics Secrets in {@code openshift-etcd}, unless a member is unhealthy (the operator
 * adds no member then). A member whose Node is gone is unhealthy (its host was deprovisioned), and
 * is removed once its Secrets are deleted: the first step of OpenShift's procedure for removing a
 * member, which the control-plane provider takes; its second step, {@code etcdctl member remove} in
 * an etcd pod, needs a kubelet to exec into and is not played. Tests degrade a member with {@link
 * #setDegraded}. Not played in {@link World.Workloads#SHARED} mode (one API server for all
 * clusters).
 */
final class EtcdOperator extends Actor {
  static final String NAMESPACE = "openshift-etcd";
  private static final String ETCD_API = "operator.openshift.io/v1";
  private static final String CONTROL_PLANE_LABEL = "node-role.kubernetes.io/control-plane";

  private final WorkloadClusters workloads;
  private final Map<KubeApiServerEnvironment, Members> played = new ConcurrentHashMap<>();

  /** One installed cluster's etcd. */
  private static final class Members {
    final Set<String> names = new LinkedHashSet<>();
    final List<String> removed = new ArrayList<>();
    final Set<String> degraded = ConcurrentHashMap.newKeySet();
    String reported = "";
  }

  EtcdOperator(KubernetesClient hub, WorkloadClusters workloads) {
    super(hub);
    this.workloads = workloads;
  }

  @Override
  void start() {
    if (workloads.mode() == World.Workloads.PER_CLUSTER) {
      watch(ApiVersions.HIVE_EXTENSION, "AgentClusterInstall", this::play);
    }
  }

  /** The members of the cluster's etcd, in the order they joined. */
  List<String> members(String namespace, String clusterInstall) {
    return read(namespace, clusterInstall, members -> members.names);
  }

  /**
   * The members removed from the cluster's etcd so far, in order (a host reused later joins under
   * the same name as a new member).
   */
  List<String> removed(String namespace, String clusterInstall) {
    return read(namespace, clusterInstall, members -> members.removed);
  }

  private List<String> read(
      String namespace, String clusterInstall, Function<Members, Collection<String>> what) {
    Members members = workloads.ifStarted(namespace, clusterInstall).map(played::get).orElse(null);
    if (members == null) {
      return List.of();
    }
    synchronized (members) {
      return List.copyOf(what.apply(members));
    }
  }

  /** Marks a member unhealthy (etcd on its host fails) or healthy again. */
  void setDegraded(String namespace, String clusterInstall, String member, boolean degraded) {
    KubeApiServerEnvironment workload = workloads.of(namespace, clusterInstall).join();
    Members members = played.get(workload);
    if (members == null) {
      throw new IllegalStateException("etcd of " + namespace + "/" + clusterInstall + " not up");
    }
    if (degraded) {
      members.degraded.add(member);
    } else {
      members.degraded.remove(member);
    }
    act(() -> reconcile(workload.client(), members));
  }

  /** From the installation's finalizing on: its etcd is up. */
  private void play(GenericKubernetesResource install) {
    if (!InstalledCluster.clusterIsUp(install)) {
      return;
    }
    when(
        workloads.of(namespace(install), name(install)),
        workload -> {
          if (played.containsKey(workload)) {
            return;
          }
          Members members = new Members();
          played.put(workload, members);
          KubernetesClient client = workload.client();
          if (client.namespaces().withName(NAMESPACE).get() == null) {
            client
                .namespaces()
                .resource(
                    new NamespaceBuilder()
                        .withNewMetadata()
                        .withName(NAMESPACE)
                        .endMetadata()
                        .build())
                .create();
          }
          // The installer bootstraps etcd on every control-plane host at once.
          synchronized (members) {
            for (Node node : controlPlaneNodes(client)) {
              if (isReady(node)) {
                join(client, members, node.getMetadata().getName());
              }
            }
          }
          Runnable look = () -> reconcile(client, members);
          watch(client, "v1", "Node", node -> look.run(), gone -> look.run());
          watch(client, "v1", "Secret", secret -> {}, gone -> look.run());
          look.run();
        });
  }

  private void reconcile(KubernetesClient workload, Members members) {
    synchronized (members) {
      List<Node> nodes = controlPlaneNodes(workload);
      Set<String> present =
          nodes.stream().map(n -> n.getMetadata().getName()).collect(Collectors.toSet());
      Set<String> secrets =
          workload.secrets().inNamespace(NAMESPACE).list().getItems().stream()
              .map(s -> s.getMetadata().getName())
              .collect(Collectors.toSet());
      for (String member : List.copyOf(members.names)) {
        if (!present.contains(member) && secretsOf(member).stream().noneMatch(secrets::contains)) {
          members.names.remove(member);
          members.removed.add(member);
          log.info("etcd member {} removed", member);
        }
      }
      if (unhealthy(members, present).isEmpty()) {
        for (Node node : nodes) {
          String name = node.getMetadata().getName();
          if (isReady(node) && !members.names.contains(name)) {
            join(workload, members, name);
            log.info("etcd member {} added", name);
          }
        }
      }
      report(workload, members, unhealthy(members, present));
    }
  }

  private static List<String> unhealthy(Members members, Set<String> nodes) {
    return members.names.stream()
        .filter(m -> !nodes.contains(m) || members.degraded.contains(m))
        .toList();
  }

  private static void join(KubernetesClient workload, Members members, String node) {
    for (String secret : secretsOf(node)) {
      if (workload.secrets().inNamespace(NAMESPACE).withName(secret).get() == null) {
        workload
            .secrets()
            .inNamespace(NAMESPACE)
            .resource(
                new SecretBuilder()
                    .withMetadata(
                        new ObjectMetaBuilder().withName(secret).withNamespace(NAMESPACE).build())
                    .withType("kubernetes.io/tls")
                    .addToStringData("tls.crt", "simulated")
                    .addToStringData("tls.key", "simulated")
                    .build())
            .create();
      }
    }
    members.names.add(node);
  }

  /** The Secrets the etcd operator makes for a member's Node. */
  static List<String> secretsOf(String node) {
    return List.of("etcd-peer-" + node, "etcd-serving-" + node, "etcd-serving-metrics-" + node);
  }

  /** The operator's member conditions and ClusterOperator, written when they change. */
  private void report(KubernetesClient workload, Members members, List<String> unhealthy) {
    int count = members.names.size();
    int healthy = count - unhealthy.size();
    boolean quorate = healthy >= count / 2 + 1;
    String available =
        unhealthy.isEmpty()
            ? count + " members are available"
            : healthy
                + " of "
                + count
                + " members are available"
                + unhealthy.stream()
                    .map(m -> ", " + m + " is unhealthy")
                    .collect(Collectors.joining());
    if (available.equals(members.reported)) {
      return;
    }
    List<Map<String, Object>> conditions = new ArrayList<>();
    conditions.add(
        Fields.condition(
            "EtcdMembersAvailable", quorate, quorate ? "EtcdQuorate" : "NoQuorum", available));
    conditions.add(
        Fields.condition(
            "EtcdMembersDegraded",
            !unhealthy.isEmpty(),
            unhealthy.isEmpty() ? "AsExpected" : "UnhealthyMembers",
            unhealthy.isEmpty() ? "No unhealthy members found" : available));
    conditions.add(
        Fields.condition(
            "EtcdMembersProgressing", false, "AsExpected", "No unstarted etcd members found"));
    conditions.add(
        Fields.condition(
            "NodeInstallerProgressing",
            false,
            "AllNodesAtLatestRevision",
            "all nodes are at revision 3"));
    writeStatus(
        workload, ETCD_API, "Etcd", "cluster", Map.of("managementState", "Managed"), conditions);
    writeStatus(
        workload,
        ApiVersions.CLUSTER_VERSION,
        "ClusterOperator",
        "etcd",
        Map.of(),
        List.of(
            Fields.condition(
                "Available",
                quorate,
                quorate ? "AsExpected" : "EtcdMembersNotAvailable",
                "StaticPodsAvailable: " + healthy + " nodes are active"),
            Fields.condition(
                "Degraded",
                !unhealthy.isEmpty(),
                unhealthy.isEmpty() ? "AsExpected" : "EtcdMembers_UnhealthyMembers",
                unhealthy.isEmpty() ? "" : "EtcdMembersDegraded: " + available),
            Fields.condition("Progressing", false, "AsExpected", "")));
    members.reported = available;
    log.info("etcd reports: {}", available);
  }

  private static void writeStatus(
      KubernetesClient workload,
      String apiVersion,
      String kind,
      String name,
      Map<String, Object> spec,
      List<Map<String, Object>> conditions) {
    var objects = workload.genericKubernetesResources(apiVersion, kind);
    if (objects.withName(name).get() == null) {
      GenericKubernetesResource object = new GenericKubernetesResource();
      object.setApiVersion(apiVersion);
      object.setKind(kind);
      object.setMetadata(new ObjectMetaBuilder().withName(name).build());
      object.setAdditionalProperty("spec", spec);
      workload.resource(object).create();
    }
    objects
        .withName(name)
        .subresource("status")
        .patch(
            PatchContext.of(PatchType.JSON_MERGE),
            Serialization.asJson(Map.of("status", Map.of("conditions", conditions))));
  }

  private static List<Node> controlPlaneNodes(KubernetesClient workload) {
    return workload.nodes().withLabel(CONTROL_PLANE_LABEL).list().getItems();
  }

  private static boolean isReady(Node node) {
    return node.getStatus() != null
        && node.getStatus().getConditions() != null
        && node.getStatus().getConditions().stream()
            .anyMatch(c -> "Ready".equals(c.getType()) && "True".equals(c.getStatus()));
  }
}
