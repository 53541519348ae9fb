package io.openshiftagent.simulator;

import static io.openshiftagent.simulator.Hosts.AGENT_API;
import static io.openshiftagent.simulator.Metal3.name;
import static io.openshiftagent.simulator.Metal3.namespace;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.SecretBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.openshiftagent.api.external.ExternalKinds;
import io.openshiftagent.api.external.OwnedFieldsPatch;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Plays assisted-service's Kubernetes API: InfraEnv images, the AgentClusterInstall state machine
 * (insufficient → ready → preparing-for-installation → installing → finalizing → adding-hosts), the
 * Agents' install stages, the admin kubeconfig of the installed cluster, and day-2 hosts.
 */
final class AssistedService extends Actor {
  static final String HIVE_API = ExternalKinds.HIVE_GROUP + "/" + ExternalKinds.HIVE_VERSION;
  static final String ACI_API =
      ExternalKinds.HIVE_EXTENSION_GROUP + "/" + ExternalKinds.HIVE_EXTENSION_VERSION;
  static final String IMAGE_SERVICE = "https://assisted-image-service.simulator.invalid";

  /** The install stages a host goes through, as the assisted installer reports them. */
  static final List<String> STAGES =
      List.of(
          "Starting installation",
          "Installing",
          "Writing image to disk",
          "Rebooting",
          "Configuring",
          "Joined",
          "Done");

  private final SimulatedDurations durations;
  private final WorkloadClusters workloads;
  private final Set<String> installsStarted = ConcurrentHashMap.newKeySet();
  private final Set<String> installsFinished = ConcurrentHashMap.newKeySet();
  private final Set<String> hostsInstalling = ConcurrentHashMap.newKeySet();

  /**
   * @param workloads the clusters the installations "produce": their admin kubeconfigs
   */
  AssistedService(
      KubernetesClient client, SimulatedDurations durations, WorkloadClusters workloads) {
    super(client);
    this.durations = durations;
    this.workloads = workloads;
  }

  @Override
  void start() {
    watch(AGENT_API, "InfraEnv", this::publishImage);
    watch(ACI_API, "AgentClusterInstall", this::reconcileInstall);
    watch(AGENT_API, "Agent", this::agentChanged);
  }

  private void publishImage(GenericKubernetesResource infraEnv) {
    if (Fields.string(infraEnv, "status", "isoDownloadURL") != null) {
      return;
    }
    String id = infraEnv.getMetadata().getUid();
    String base = IMAGE_SERVICE + "/byid/" + id;
    mergePatchStatus(
        resource(AGENT_API, "InfraEnv", namespace(infraEnv), name(infraEnv)),
        new OwnedFieldsPatch()
            .set(base + "/4.20/x86_64/full.iso", "status", "isoDownloadURL")
            .set(Fields.now(), "status", "createdTime")
            .set(
                Map.of(
                    "discoveryIgnitionURL", base + "/discovery.ign",
                    "kernel", IMAGE_SERVICE + "/boot-artifacts/kernel",
                    "initrd", base + "/pxe-initrd",
                    "rootfs", IMAGE_SERVICE + "/boot-artifacts/rootfs",
                    "ipxeScript", base + "/ipxe-script"),
                "status",
                "bootArtifacts")
            .set(
                Map.of("eventsURL", "https://assisted-service.simulator.invalid/events/" + id),
                "status",
                "debugInfo")
            .set(
                List.of(
                    Map.of(
                        "type", "ImageCreated",
                        "status", "True",
                        "reason", "ImageCreated",
                        "message", "Image has been created",
                        "lastTransitionTime", Fields.now())),
                "status",
                "conditions"));
  }

  private void agentChanged(GenericKubernetesResource agent) {
    GenericKubernetesResource install = clusterInstallOf(this, agent);
    if (install != null) {
      reconcileInstall(install);
    }
  }

  private void reconcileInstall(GenericKubernetesResource install) {
    String key = namespace(install) + "/" + name(install);
    // The installed cluster's API server starts in the background now; it is slow to start.
    workloads.of(namespace(install), name(install));
    String state = state(install);
    List<GenericKubernetesResource> approved =
        boundAgents(install).stream().filter(a -> Fields.isTrue(a, "spec", "approved")).toList();
    switch (state) {
      case "", "insufficient", "ready" -> {
        long masters = approved.stream().filter(a -> "master".equals(role(a))).count();
        long workers = approved.stream().filter(a -> "worker".equals(role(a))).count();
        boolean enough =
            masters
                    >= Fields.integer(
                        install, 1, "spec", "provisionRequirements", "controlPlaneAgents")
                && workers
                    >= Fields.integer(install, 0, "spec", "provisionRequirements", "workerAgents");
        String next = enough ? "ready" : "insufficient";
        if (!next.equals(state)) {
          setState(
              install, next, enough ? "Cluster is ready for installation" : "Waiting for hosts");
        }
        if (enough && installsStarted.add(key)) {
          after(durations.installationStep(), () -> startInstallation(install, approved));
        }
      }
      case "installing" -> {
        if (!approved.isEmpty()
            && approved.stream().allMatch(a -> "Done".equals(stage(a)))
            && installsFinished.add(key)) {
          when(
              workloads.of(namespace(install), name(install)),
              workload -> finish(install, workload.kubeConfigYaml()));
        }
      }
      case "adding-hosts" ->
          // Day 2: a host approved into an installed cluster is installed on its own.
          approved.stream().filter(a -> stage(a) == null).forEach(this::installHost);
      default -> {}
    }
  }

  private void startInstallation(
      GenericKubernetesResource install, List<GenericKubernetesResource> hosts) {
    setState(install, "preparing-for-installation", "Preparing cluster for installation");
    after(
        durations.installationStep(),
        () -> {
          setState(install, "installing", "Installation in progress");
          hosts.forEach(this::installHost);
        });
  }

  private void installHost(GenericKubernetesResource agent) {
    if (hostsInstalling.add(namespace(agent) + "/" + name(agent))) {
      advance(agent, 0);
    }
  }

  private void advance(GenericKubernetesResource agent, int stage) {
    after(
        durations.installationStep(),
        () -> {
          boolean last = stage == STAGES.size() - 1;
          mergePatchStatus(
              resource(AGENT_API, "Agent", namespace(agent), name(agent)),
              new OwnedFieldsPatch()
                  .set(STAGES.get(stage), "status", "progress", "currentStage")
                  .set(Fields.now(), "status", "progress", "stageStartTime")
                  .set(
                      last ? "installed" : "installing-in-progress",
                      "status",
                      "debugInfo",
                      "state"));
          if (!last) {
            advance(agent, stage + 1);
          }
        });
  }

  /** Installation done: the admin kubeconfig, the cluster metadata, then day-2 mode. */
  private void finish(GenericKubernetesResource install, String workloadKubeconfig) {
    String ns = namespace(install);
    String secret = name(install) + "-admin-kubeconfig";
    client
        .resource(
            new SecretBuilder()
                .withNewMetadata()
                .withName(secret)
                .withNamespace(ns)
                .endMetadata()
                .addToData(
                    "kubeconfig",
                    Base64.getEncoder()
                        .encodeToString(workloadKubeconfig.getBytes(StandardCharsets.UTF_8)))
                .build())
        .serverSideApply();
    Map<String, Object> metadata =
        Map.of(
            "clusterID", install.getMetadata().getUid(),
            "infraID", name(install) + "-infra",
            "adminKubeconfigSecretRef", Map.of("name", secret));
    mergePatch(
        resource(ACI_API, "AgentClusterInstall", ns, name(install)),
        new OwnedFieldsPatch().set(metadata, "spec", "clusterMetadata"));
    String deployment = Fields.string(install, "spec", "clusterDeploymentRef", "name");
    if (deployment != null
        && resource(HIVE_API, "ClusterDeployment", ns, deployment).get() != null) {
      mergePatch(
          resource(HIVE_API, "ClusterDeployment", ns, deployment),
          new OwnedFieldsPatch()
              .set(true, "spec", "installed")
              .set(metadata, "spec", "clusterMetadata"));
    }
    setState(install, "finalizing", "Finalizing cluster installation");
    after(
        durations.installationStep(),
        () -> setState(install, "adding-hosts", "Cluster is installed; hosts can be added"));
  }

  private void setState(GenericKubernetesResource install, String state, String info) {
    log.info("AgentClusterInstall {}/{}: {}", namespace(install), name(install), state);
    mergePatchStatus(
        resource(ACI_API, "AgentClusterInstall", namespace(install), name(install)),
        new OwnedFieldsPatch()
            .set(state, "status", "debugInfo", "state")
            .set(info, "status", "debugInfo", "stateInfo"));
  }

  /**
   * The AgentClusterInstall of the ClusterDeployment an Agent is bound to, from the reader's cache.
   */
  static GenericKubernetesResource clusterInstallOf(Actor reader, GenericKubernetesResource agent) {
    String deployment = Fields.string(agent, "spec", "clusterDeploymentName", "name");
    String ns = Fields.string(agent, "spec", "clusterDeploymentName", "namespace");
    if (deployment == null) {
      return null;
    }
    ns = ns == null ? namespace(agent) : ns;
    GenericKubernetesResource cd = reader.cached(HIVE_API, "ClusterDeployment", ns, deployment);
    String install = cd == null ? null : Fields.string(cd, "spec", "clusterInstallRef", "name");
    return install == null ? null : reader.cached(ACI_API, "AgentClusterInstall", ns, install);
  }

  /** The Agents bound to the installation's ClusterDeployment (in its namespace, as here). */
  private List<GenericKubernetesResource> boundAgents(GenericKubernetesResource install) {
    String deployment = Fields.string(install, "spec", "clusterDeploymentRef", "name");
    return cachedIn(AGENT_API, "Agent", namespace(install)).stream()
        .filter(a -> deployment != null)
        .filter(a -> deployment.equals(Fields.string(a, "spec", "clusterDeploymentName", "name")))
        .filter(
            a -> {
              String ns = Fields.string(a, "spec", "clusterDeploymentName", "namespace");
              return namespace(install).equals(ns == null ? namespace(a) : ns);
            })
        .toList();
  }

  static String state(GenericKubernetesResource install) {
    String state = Fields.string(install, "status", "debugInfo", "state");
    return state == null ? "" : state;
  }

  private static String role(GenericKubernetesResource agent) {
    return Fields.string(agent, "spec", "role");
  }

  static String stage(GenericKubernetesResource agent) {
    return Fields.string(agent, "status", "progress", "currentStage");
  }
}
