package io.openshiftagent.simulator;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.NodeBuilder;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.dsl.Resource;
import io.fabric8.kubernetes.client.dsl.base.PatchContext;
import io.fabric8.kubernetes.client.dsl.base.PatchType;
import io.fabric8.kubernetes.client.utils.Serialization;
import io.openshiftagent.testsupport.KubeApiServerEnvironment;
import io.openshiftagent.testsupport.ReleaseRegistry;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Plays the installed OpenShift clusters, each a real API server of its own ({@link
 * WorkloadClusters}, started as soon as its AgentClusterInstall appears): the kubelet of each host
 * that rebooted into the installed system registers its Node (named after the hostname it was
 * installed with, with its role's labels; the labels asked for on the Agent, among them {@code
 * metal3.io/uuid} by which the real CAPM3 finds the Node, are put there by the installer's
 * controller on day 1 and by assisted-service on day 2); the Cluster Version Operator reports the
 * installed release once the installation finalizes, and moves to the release of {@code
 * spec.desiredUpdate} when that changes (history entry Partial, the kubelets updated in place pool
 * by pool by the {@link MachineConfigOperator}, then Completed).
 *
 * <p>Over 350 lines: the kubelets and the Cluster Version Operator share one view of each installed
 * cluster (its Nodes, its release, its pools), which is kept in one place.
 */
final class InstalledCluster extends Actor {
  private final WorkloadClusters workloads;
  private final SimulatedDurations durations;

  /** The UIDs of the Agents whose host registered its Node. */
  private final Set<String> joined = ConcurrentHashMap.newKeySet();

  /** The installed clusters whose ClusterVersion this actor watches (the CVO runs in each). */
  private final Set<KubeApiServerEnvironment> versionsWatched = ConcurrentHashMap.newKeySet();

  /**
   * @param hub the management cluster, watched
   * @param workloads the installed clusters, written
   */
  InstalledCluster(KubernetesClient hub, WorkloadClusters workloads, SimulatedDurations durations) {
    super(hub);
    this.workloads = workloads;
    this.durations = durations;
  }

  @Override
  void start() {
    watch(ApiVersions.HIVE_EXTENSION, "AgentClusterInstall", this::installation);
  }

  /**
   * The installed cluster of an installation: its API server starts in the background at once (it
   * is slow to start); once the installation finalizes, the CVO reports the release.
   */
  private void installation(GenericKubernetesResource install) {
    workloads.of(namespace(install), name(install));
    reportVersion(install);
  }

  /**
   * The installed cluster of the Agent {@code namespace/agent} (the discovery agent's host id),
   * once its API server runs.
   */
  Optional<KubernetesClient> workloadOfAgent(String namespace, String agent) {
    GenericKubernetesResource install = clusterInstallOfAgent(namespace, agent);
    return install == null
        ? Optional.empty()
        : workloads.ifStarted(namespace(install), name(install)).map(w -> w.client());
  }

  private GenericKubernetesResource clusterInstallOfAgent(String namespace, String agent) {
    GenericKubernetesResource cached = cached(ApiVersions.AGENT_INSTALL, "Agent", namespace, agent);
    return cached == null ? null : clusterInstallOf(this, cached);
  }

  /**
   * A machine rebooted into the installed system: its kubelet registers the Node in its cluster
   * (the host of Agent {@code namespace/agent}), Ready, with its role's labels and what the install
   * ignition passes the kubelet ({@link KubeletEnvironment}), read from the host's config drive.
   *
   * @param bareMetalHost the host as it booted, whose config drive holds its metadata
   * @param ownHostname the machine's own hostname, the Node's name unless the Agent asks for one
   */
  void kubeletRegisters(
      String namespace,
      String agent,
      boolean controlPlane,
      GenericKubernetesResource bareMetalHost,
      String ownHostname) {
    act(
        () -> {
          GenericKubernetesResource cached =
              cached(ApiVersions.AGENT_INSTALL, "Agent", namespace, agent);
          GenericKubernetesResource install =
              cached == null ? null : clusterInstallOf(this, cached);
          if (install == null) {
            log.warn("Agent {}/{} rebooted into no installation it is bound to", namespace, agent);
            return;
          }
          when(
              workloads.of(namespace(install), name(install)),
              workload ->
                  joinNode(
                      cached,
                      install,
                      controlPlane,
                      bareMetalHost,
                      ownHostname,
                      workload.client()));
        });
  }

  private void joinNode(
      GenericKubernetesResource agent,
      GenericKubernetesResource install,
      boolean controlPlane,
      GenericKubernetesResource bareMetalHost,
      String ownHostname,
      KubernetesClient workload) {
    String nodeName = hostname(agent, ownHostname);
    // A host joins once, under the name it had then; a later change of the Agent renames nothing.
    // A join cut short after the Node's creation (its status write failed) is completed.
    if (joined.contains(agent.getMetadata().getUid())) {
      return;
    }
    Node existing = workload.nodes().withName(nodeName).get();
    if (existing != null
        && existing.getStatus() != null
        && existing.getStatus().getNodeInfo() != null) {
      joined.add(agent.getMetadata().getUid());
      return;
    }
    String version = runningVersion(workload).orElse(openShiftVersion(install));
    KubeletEnvironment kubelet =
        KubeletEnvironment.of(
            Fields.string(agent, "spec", "ignitionConfigOverrides"),
            KubeletEnvironment.metadataEnv(client, bareMetalHost));
    if (!kubelet.unresolved().isEmpty()) {
      log.warn(
          "Node {}: not understood in the install ignition: {}", nodeName, kubelet.unresolved());
    }
    Map<String, String> labels = new HashMap<>(kubelet.labels());
    labels.put("kubernetes.io/hostname", nodeName);
    labels.put("kubernetes.io/os", "linux");
    labels.put("kubernetes.io/arch", "amd64");
    if (controlPlane) {
      labels.put("node-role.kubernetes.io/control-plane", "");
      labels.put("node-role.kubernetes.io/master", "");
    } else {
      labels.put("node-role.kubernetes.io/worker", "");
    }
    Node node =
        new NodeBuilder()
            .withMetadata(new ObjectMetaBuilder().withName(nodeName).withLabels(labels).build())
            .withNewSpec()
            .withProviderID(kubelet.providerID())
            .endSpec()
            .build();
    if (existing == null) {
      workload.nodes().resource(node).create();
    }
    String now = Fields.now();
    io.fabric8.kubernetes.api.model.NodeStatus status =
        new io.fabric8.kubernetes.api.model.NodeStatusBuilder()
            .addNewCondition()
            .withType("Ready")
            .withStatus("True")
            .withReason("KubeletReady")
            .withMessage("kubelet is posting ready status")
            .withLastHeartbeatTime(now)
            .withLastTransitionTime(now)
            .endCondition()
            .addNewCondition()
            .withType("MemoryPressure")
            .withStatus("False")
            .withReason("KubeletHasSufficientMemory")
            .withLastHeartbeatTime(now)
            .withLastTransitionTime(now)
            .endCondition()
            .addNewCondition()
            .withType("DiskPressure")
            .withStatus("False")
            .withReason("KubeletHasNoDiskPressure")
            .withLastHeartbeatTime(now)
            .withLastTransitionTime(now)
            .endCondition()
            .addNewCondition()
            .withType("PIDPressure")
            .withStatus("False")
            .withReason("KubeletHasSufficientPID")
            .withLastHeartbeatTime(now)
            .withLastTransitionTime(now)
            .endCondition()
            .addNewAddress()
            .withType("Hostname")
            .withAddress(nodeName)
            .endAddress()
            .withNewNodeInfo()
            .withArchitecture("amd64")
            .withBootID(agent.getMetadata().getUid())
            .withContainerRuntimeVersion("cri-o://1.33.0")
            .withKernelVersion("5.14.0-570.el9_6.x86_64")
            .withKubeProxyVersion("")
            .withKubeletVersion(kubeletVersion(version))
            .withMachineID(name(agent).replace("-", ""))
            .withOperatingSystem("linux")
            .withOsImage("Red Hat Enterprise Linux CoreOS")
            .withSystemUUID(name(agent))
            .endNodeInfo()
            .build();
    // A merge patch, not a read-modify-write: Cluster API labels a new Node at once, and the
    // conflict of an update would leave the Node without a status.
    workload
        .nodes()
        .withName(nodeName)
        .subresource("status")
        .patch(
            PatchContext.of(PatchType.JSON_MERGE), Serialization.asJson(Map.of("status", status)));
    joined.add(agent.getMetadata().getUid());
    log.info("Node {} joined the installed cluster", nodeName);
  }

  /**
   * The hostname a host was installed with: the one its Agent asks for, else its own. Its own is
   * the machine's, not the Agent's status: the service can write that status well after the host
   * has rebooted, when its writes meet conflicts.
   */
  static String hostname(GenericKubernetesResource agent, String own) {
    String requested = Fields.string(agent, "spec", "hostname");
    return requested != null && !requested.isEmpty() ? requested : own;
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
    GenericKubernetesResource cd =
        reader.cached(ApiVersions.HIVE, "ClusterDeployment", ns, deployment);
    String install = cd == null ? null : Fields.string(cd, "spec", "clusterInstallRef", "name");
    return install == null
        ? null
        : reader.cached(ApiVersions.HIVE_EXTENSION, "AgentClusterInstall", ns, install);
  }

  /** Whether the installed cluster runs: its installation finalizing, or done and adding hosts. */
  static boolean clusterIsUp(GenericKubernetesResource install) {
    String state = Fields.string(install, "status", "debugInfo", "state");
    return "finalizing".equals(state) || "adding-hosts".equals(state);
  }

  private void reportVersion(GenericKubernetesResource install) {
    if (!clusterIsUp(install)) {
      return;
    }
    when(
        workloads.of(namespace(install), name(install)),
        workload -> {
          watchClusterVersion(workload);
          reportVersion(install, workload.client());
        });
  }

  /** The CVO of an installed cluster: it reacts to its ClusterVersion from the start. */
  private void watchClusterVersion(KubeApiServerEnvironment workload) {
    if (versionsWatched.add(workload)) {
      KubernetesClient client = workload.client();
      watch(
          client,
          ApiVersions.CLUSTER_VERSION,
          "ClusterVersion",
          event -> upgrade(client),
          gone -> {});
      watch(
          client,
          ApiVersions.MACHINE_CONFIGURATION,
          "MachineConfigPool",
          event -> upgrade(client),
          gone -> {});
    }
  }

  /**
   * In {@link World.Workloads#SHARED} mode the first installation's release is reported, and
   * upgrades are not played.
   */
  private void reportVersion(GenericKubernetesResource install, KubernetesClient workload) {
    MachineConfigOperator.createPools(workload);
    var versions =
        workload.genericKubernetesResources(ApiVersions.CLUSTER_VERSION, "ClusterVersion");
    if (versions.withName("version").get() != null) {
      return;
    }
    String version = openShiftVersion(install);
    GenericKubernetesResource cv = new GenericKubernetesResource();
    cv.setApiVersion(ApiVersions.CLUSTER_VERSION);
    cv.setKind("ClusterVersion");
    cv.setMetadata(new ObjectMetaBuilder().withName("version").build());
    cv.setAdditionalProperty("spec", Map.of("clusterID", install.getMetadata().getUid()));
    cv = workload.resource(cv).create();
    String now = Fields.now();
    String image = releaseImage(install);
    Map<String, Object> completed = new LinkedHashMap<>();
    completed.put("state", "Completed");
    completed.put("version", version);
    completed.put("image", image);
    completed.put("verified", false);
    completed.put("startedTime", now);
    completed.put("completionTime", now);
    Map<String, Object> status = new LinkedHashMap<>();
    status.put("observedGeneration", 1);
    status.put("versionHash", "simulated");
    status.put("availableUpdates", null);
    status.put("desired", Map.of("version", version, "image", image));
    status.put("history", List.of(completed));
    status.put(
        "conditions",
        List.of(
            Fields.condition("Available", true, "", "Done applying " + version),
            Fields.condition("Progressing", false, "", "Cluster version is " + version),
            Fields.condition("Failing", false, "", "")));
    cv.setAdditionalProperty("status", status);
    workload
        .genericKubernetesResources(ApiVersions.CLUSTER_VERSION, "ClusterVersion")
        .resource(cv)
        .updateStatus();
    log.info("installed cluster reports OpenShift {}", version);
  }

  /**
   * The Cluster Version Operator: a desiredUpdate naming another release than the newest history
   * entry starts an upgrade (a Partial entry first in the history, status.desired, Progressing);
   * the Machine Config Operator then updates the Nodes in place (their kubelet version), pool by
   * pool, and the entry becomes Completed once the control-plane pool is updated ({@link
   * MachineConfigOperator}: a paused {@code master} pool holds the upgrade Partial). Called for
   * every change of the ClusterVersion or of a MachineConfigPool.
   */
  private void upgrade(KubernetesClient workload) {
    GenericKubernetesResource cv = clusterVersion(workload).get();
    String target = target(cv);
    List<Map<String, Object>> history = history(cv);
    if (target == null || history.isEmpty()) {
      return;
    }
    Map<String, Object> newest = history.get(0);
    if (!target.equals(newest.get("version"))) {
      startUpgrade(workload, cv, target, history); // its write brings the next call
    } else if ("Partial".equals(newest.get("state"))) {
      after(durations.installationStep(), () -> completeUpgrade(workload));
    } else {
      MachineConfigOperator.updateNodes(workload, kubeletVersion(target)); // a pool unpaused since
    }
  }

  /** The release that {@code spec.desiredUpdate} asks for, by version or by image. */
  private static String target(GenericKubernetesResource cv) {
    String image = cv == null ? null : Fields.string(cv, "spec", "desiredUpdate", "image");
    String requested = cv == null ? null : Fields.string(cv, "spec", "desiredUpdate", "version");
    return requested != null ? requested : image == null ? null : versionOfImage(image);
  }

  private void startUpgrade(
      KubernetesClient workload,
      GenericKubernetesResource cv,
      String target,
      List<Map<String, Object>> history) {
    String image = Fields.string(cv, "spec", "desiredUpdate", "image");
    String current = (String) history.get(0).get("image");
    String targetImage =
        image != null
            ? image
            : current.substring(0, current.lastIndexOf(':') + 1) + target + "-x86_64";
    Map<String, Object> partial = new LinkedHashMap<>();
    partial.put("state", "Partial");
    partial.put("version", target);
    partial.put("image", targetImage);
    partial.put("verified", false);
    partial.put("startedTime", Fields.now());
    partial.put("completionTime", null); // required, null while the update is applied
    List<Map<String, Object>> upgrading = new ArrayList<>();
    upgrading.add(partial);
    upgrading.addAll(history);
    writeVersionStatus(
        workload,
        upgrading,
        target,
        targetImage,
        List.of(
            Fields.condition(
                "Available", true, "", "Done applying " + history.get(0).get("version")),
            Fields.condition("Progressing", true, "", "Working towards " + target),
            Fields.condition("Failing", false, "", "")));
    log.info("installed cluster upgrading to OpenShift {}", target);
  }

  /** Updates the Nodes of the unpaused pools; Completed unless the control-plane pool is paused. */
  private void completeUpgrade(KubernetesClient workload) {
    GenericKubernetesResource cv = clusterVersion(workload).get();
    List<Map<String, Object>> history = history(cv);
    String target = target(cv);
    if (history.isEmpty()
        || !"Partial".equals(history.get(0).get("state"))
        || !history.get(0).get("version").equals(target)) {
      return; // completed meanwhile, or superseded by another update
    }
    MachineConfigOperator.updateNodes(workload, kubeletVersion(target));
    if (MachineConfigOperator.paused(workload, MachineConfigOperator.MASTER)) {
      log.info("upgrade to OpenShift {} held by the paused master MachineConfigPool", target);
      return; // unpausing the pool calls upgrade again
    }
    Map<String, Object> completed = new LinkedHashMap<>(history.get(0));
    completed.put("state", "Completed");
    completed.put("completionTime", Fields.now());
    List<Map<String, Object>> done = new ArrayList<>(history);
    done.set(0, completed);
    writeVersionStatus(
        workload,
        done,
        target,
        (String) completed.get("image"),
        List.of(
            Fields.condition("Available", true, "", "Done applying " + target),
            Fields.condition("Progressing", false, "", "Cluster version is " + target),
            Fields.condition("Failing", false, "", "")));
    log.info("installed cluster upgraded to OpenShift {}", target);
  }

  /**
   * A JSON patch (RFC 6902), not a merge patch: the Partial entry's {@code completionTime} must be
   * an explicit null, and a merge patch drops nulls inside lists.
   */
  private void writeVersionStatus(
      KubernetesClient workload,
      List<Map<String, Object>> history,
      String version,
      String image,
      List<Map<String, Object>> conditions) {
    List<Map<String, Object>> operations =
        List.of(
            Map.of("op", "replace", "path", "/status/history", "value", history),
            Map.of(
                "op",
                "replace",
                "path",
                "/status/desired",
                "value",
                Map.of("version", version, "image", image)),
            Map.of("op", "replace", "path", "/status/conditions", "value", conditions));
    clusterVersion(workload)
        .subresource("status")
        .patch(PatchContext.of(PatchType.JSON), Serialization.asJson(operations));
  }

  private static Resource<GenericKubernetesResource> clusterVersion(KubernetesClient workload) {
    return workload
        .genericKubernetesResources(ApiVersions.CLUSTER_VERSION, "ClusterVersion")
        .withName("version");
  }

  @SuppressWarnings("unchecked")
  private static List<Map<String, Object>> history(GenericKubernetesResource cv) {
    Object history = cv == null ? null : Fields.get(cv, "status", "history");
    return history instanceof List<?> list ? (List<Map<String, Object>>) list : List.of();
  }

  /** The release the installed cluster runs: the newest Completed entry of its history. */
  private static Optional<String> runningVersion(KubernetesClient workload) {
    return history(clusterVersion(workload).get()).stream()
        .filter(h -> "Completed".equals(h.get("state")))
        .map(h -> (String) h.get("version"))
        .findFirst();
  }

  private String releaseImage(GenericKubernetesResource install) {
    String imageSet = Fields.string(install, "spec", "imageSetRef", "name");
    GenericKubernetesResource set =
        imageSet == null
            ? null
            : client
                .genericKubernetesResources(ApiVersions.HIVE, "ClusterImageSet")
                .withName(imageSet)
                .get();
    return set == null ? null : Fields.string(set, "spec", "releaseImage");
  }

  /** The release's version, from the ClusterImageSet's release image. */
  private String openShiftVersion(GenericKubernetesResource install) {
    String image = releaseImage(install);
    return image == null || !image.contains(":") ? "0.0.0" : versionOfImage(image);
  }

  /**
   * The version a release image carries: of a reference by digest, what the release registry's
   * catalog says that digest is (a release image's metadata names its version; a mirror holds the
   * same digests); else the version in its tag, {@code 4.20.0} of {@code
   * ...ocp-release:4.20.0-x86_64}.
   */
  static String versionOfImage(String image) {
    if (image.contains("@sha256:")) {
      return ReleaseRegistry.shared()
          .byDigest(image)
          .map(ReleaseRegistry.Release::version)
          .orElseThrow(() -> new IllegalStateException("no release in the registry is " + image));
    }
    return image
        .substring(image.lastIndexOf(':') + 1)
        .replaceAll("-(x86_64|aarch64|ppc64le|s390x|multi)$", "");
  }

  /** OpenShift 4.N ships Kubernetes 1.(N+13). */
  static String kubeletVersion(String openShiftVersion) {
    String[] parts = openShiftVersion == null ? new String[0] : openShiftVersion.split("\\.");
    int minor = parts.length > 1 && parts[1].matches("\\d+") ? Integer.parseInt(parts[1]) : 20;
    return "v1." + (minor + 13) + ".0";
  }
}
