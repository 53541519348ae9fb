package io.openshiftagent.simulator;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.openshiftagent.testsupport.KubeApiServerEnvironment;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.stream.Collectors;

/**
 * Plays OpenShift's cluster-etcd-operator in each installed cluster around its real etcd ({@link
 * InstalledEtcd}), whose pods' {@code etcdctl} containers a kubelet server ({@link KwokKubelet})
 * lets the cluster's kube-apiserver exec into. From the installation's finalizing, the Ready
 * control-plane Nodes are members, bootstrapped at once; a control-plane Node Ready later joins
 * ({@code etcdctl member add}, its Secrets, etcd and pod) unless a member is unhealthy. A Node that
 * is gone takes its etcd with it (its host was deprovisioned); its member stays, unhealthy, until
 * {@code etcdctl member remove}, which only the control-plane provider runs here. The operator's
 * reports ({@link EtcdOperatorWrites}) come from etcd's member list. It looks on every Node event
 * and, while a member is unhealthy, every 2 s as the operator's controllers resync: that member's
 * removal is no Kubernetes event. It keeps the other static pods ({@link ControlPlaneStaticPods}).
 * A deleted cluster's etcd stops. Tests stop a member with {@link #setDegraded}. Not played in
 * {@link World.Workloads#SHARED} mode.
 */
final class EtcdOperator extends Actor {
  static final String NAMESPACE = "openshift-etcd";
  private static final String CONTROL_PLANE_LABEL = "node-role.kubernetes.io/control-plane";
  private static final Duration RESYNC = Duration.ofSeconds(2);

  private final WorkloadClusters workloads;
  private final Path dir;
  private final Map<KubeApiServerEnvironment, Members> played = new ConcurrentHashMap<>();
  private volatile boolean closed;

  /** One installed cluster's etcd. */
  private static final class Members {
    final InstalledEtcd etcd;
    final KwokKubelet kubelet;
    List<InstalledEtcd.Member> listed = List.of();
    final List<InstalledEtcd.Member> removed = new ArrayList<>();
    final Set<String> degraded = ConcurrentHashMap.newKeySet();
    String reported = "";
    boolean resyncing;
    boolean stopped;

    Members(InstalledEtcd etcd, KwokKubelet kubelet) {
      this.etcd = etcd;
      this.kubelet = kubelet;
    }
  }

  EtcdOperator(KubernetesClient hub, WorkloadClusters workloads, Path dir) {
    super(hub);
    this.workloads = workloads;
    this.dir = dir;
  }

  @Override
  void start() {
    if (workloads.mode() == World.Workloads.PER_CLUSTER) {
      watch(client, ApiVersions.HIVE_EXTENSION, "AgentClusterInstall", this::play, this::stop);
    }
  }

  /** The cluster's etcd members by name, as {@code etcdctl member list} shows them now. */
  List<String> members(String namespace, String clusterInstall) {
    return ofCluster(namespace, clusterInstall)
        .filter(m -> !m.etcd.runningClientUrls().isEmpty())
        .map(m -> names(m.etcd.members()))
        .orElse(List.of());
  }

  /**
   * The members etcd removed so far, in order (a host reused later joins under the same name as a
   * new member, with a new ID).
   */
  List<InstalledEtcd.Member> removed(String namespace, String clusterInstall) {
    return ofCluster(namespace, clusterInstall)
        .map(
            m -> {
              synchronized (m) {
                if (!m.stopped && !m.etcd.runningClientUrls().isEmpty()) {
                  noticeRemovals(m, m.etcd.members());
                }
                return List.copyOf(m.removed);
              }
            })
        .orElse(List.of());
  }

  /** Runs the real etcdctl against the cluster's running members; its output. */
  String etcdctl(String namespace, String clusterInstall, String... args) {
    return ofCluster(namespace, clusterInstall)
        .orElseThrow(() -> new IllegalStateException("etcd of " + clusterInstall + " not up"))
        .etcd
        .etcdctl(args);
  }

  private Optional<Members> ofCluster(String namespace, String clusterInstall) {
    return workloads.ifStarted(namespace, clusterInstall).map(played::get);
  }

  /** Makes a member's etcd fail (its process stopped, its pod not Ready), or run again. */
  void setDegraded(String namespace, String clusterInstall, String member, boolean degraded) {
    KubeApiServerEnvironment workload = workloads.of(namespace, clusterInstall).join();
    Members members = played.get(workload);
    if (members == null) {
      throw new IllegalStateException("etcd of " + namespace + "/" + clusterInstall + " not up");
    }
    synchronized (members) {
      if (degraded) {
        members.degraded.add(member);
        members.etcd.stop(member);
      } else {
        members.degraded.remove(member);
        members.etcd.restart(member);
      }
      members.kubelet.etcdPod(member, members.etcd.clientUrl(member), !degraded);
    }
    act(() -> reconcile(workload.client(), members));
  }

  /** From the installation's finalizing on: its etcd is up. */
  private void play(GenericKubernetesResource install) {
    if (!InstalledCluster.clusterIsUp(install)) {
      return;
    }
    String cluster = namespace(install) + "-" + name(install);
    when(
        workloads.of(namespace(install), name(install)),
        workload -> {
          if (played.containsKey(workload) || closed) {
            return;
          }
          KubernetesClient client = workload.client();
          EtcdOperatorWrites.createNamespace(client);
          Path clusterDir = dir.resolve(cluster);
          Members members =
              new Members(
                  new InstalledEtcd(clusterDir.resolve("etcd"), cluster),
                  KwokKubelet.start(client, workload.kubeConfigYaml(), clusterDir.resolve("kwok")));
          played.put(workload, members);
          watch(
              client,
              "v1",
              "Node",
              node -> reconcile(client, members),
              gone -> reconcile(client, members));
          reconcile(client, members);
        });
  }

  /** A deleted installation's hosts are gone: so is its etcd. */
  private void stop(GenericKubernetesResource install) {
    workloads
        .ifStarted(namespace(install), name(install))
        .map(played::remove)
        .ifPresent(
            members -> {
              synchronized (members) {
                members.stopped = true;
                members.etcd.close();
                members.kubelet.close();
              }
            });
  }

  private void reconcile(KubernetesClient workload, Members members) {
    synchronized (members) {
      if (closed || members.stopped) {
        return;
      }
      List<Node> nodes = workload.nodes().withLabel(CONTROL_PLANE_LABEL).list().getItems();
      Set<String> present =
          nodes.stream().map(n -> n.getMetadata().getName()).collect(Collectors.toSet());
      nodes.forEach(members.kubelet::register);
      if (members.etcd.hosts().isEmpty()) {
        // The installer bootstraps etcd on every control-plane host at once.
        List<String> ready =
            nodes.stream()
                .filter(EtcdOperator::isReady)
                .map(n -> n.getMetadata().getName())
                .toList();
        if (ready.isEmpty()) {
          return;
        }
        ready.forEach(node -> EtcdOperatorWrites.createSecrets(workload, node));
        members.etcd.bootstrap(ready);
        ready.forEach(node -> members.kubelet.etcdPod(node, members.etcd.clientUrl(node), true));
      }
      for (String host : members.etcd.hosts()) {
        if (!present.contains(host) && members.etcd.running(host)) {
          members.etcd.stop(host);
          members.kubelet.deleteEtcdPod(host);
        }
      }
      try {
        ControlPlaneStaticPods.sync(workload, nodes);
        membership(workload, members, nodes, present);
      } catch (RuntimeException e) {
        log.warn("{} cannot be reconciled yet: {}", members.etcd, e.getMessage());
        lookAgain(workload, members);
      }
    }
  }

  /** Notes the members etcd removed, adds the Ready Nodes that are not members, and reports. */
  private void membership(
      KubernetesClient workload, Members members, List<Node> nodes, Set<String> present) {
    List<InstalledEtcd.Member> listed = members.etcd.members();
    noticeRemovals(members, listed);
    List<String> names = names(listed);
    List<String> unhealthy = unhealthy(members, names, present);
    if (unhealthy.isEmpty()) {
      for (Node node : nodes) {
        String name = node.getMetadata().getName();
        if (isReady(node) && !names.contains(name)) {
          EtcdOperatorWrites.createSecrets(workload, name);
          members.etcd.add(name);
          members.kubelet.etcdPod(name, members.etcd.clientUrl(name), true);
          log.info("etcd member {} added", name);
        }
      }
      noticeRemovals(members, members.etcd.members());
      names = names(members.listed);
    }
    unhealthy = unhealthy(members, names, present);
    members.reported =
        EtcdOperatorWrites.report(workload, members.reported, names.size(), unhealthy);
    // Only an unhealthy member is removed by someone else (etcdctl, no Kubernetes event): look
    // again shortly while there is one.
    if (!unhealthy.isEmpty()) {
      lookAgain(workload, members);
    }
  }

  /** Notes the members listed before and not now: etcd removed them. */
  private void noticeRemovals(Members members, List<InstalledEtcd.Member> listed) {
    for (InstalledEtcd.Member before : members.listed) {
      if (!before.name().isEmpty()
          && listed.stream().noneMatch(m -> m.hexId().equals(before.hexId()))) {
        members.removed.add(before);
        members.etcd.forget(before.name());
        members.kubelet.deleteEtcdPod(before.name());
        log.info("etcd member {} ({}) removed", before.name(), before.hexId());
      }
    }
    members.listed = listed;
  }

  private void lookAgain(KubernetesClient workload, Members members) {
    if (!members.resyncing) {
      members.resyncing = true;
      after(
          RESYNC,
          () -> {
            synchronized (members) {
              members.resyncing = false;
            }
            reconcile(workload, members);
          });
    }
  }

  private static List<String> names(List<InstalledEtcd.Member> listed) {
    return listed.stream().map(InstalledEtcd.Member::name).filter(n -> !n.isEmpty()).toList();
  }

  private static List<String> unhealthy(Members members, List<String> names, Set<String> nodes) {
    return names.stream()
        .filter(m -> !nodes.contains(m) || members.degraded.contains(m) || !members.etcd.running(m))
        .toList();
  }

  @Override
  public void close() {
    closed = true;
    super.close();
    for (Members members : played.values()) {
      members.etcd.close();
      members.kubelet.close();
    }
  }

  private static boolean isReady(Node node) {
    return node.getStatus() != null
        && node.getStatus().getConditions() != null
        && node.getStatus().getConditions().stream()
            .anyMatch(c -> "Ready".equals(c.getType()) && "True".equals(c.getStatus()));
  }
}
