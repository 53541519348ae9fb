package io.openshiftagent.simulator;

import static io.openshiftagent.simulator.Hosts.AGENT_API;
import static io.openshiftagent.simulator.Metal3.BMH_API;
import static io.openshiftagent.simulator.Metal3.name;
import static io.openshiftagent.simulator.Metal3.namespace;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.NodeBuilder;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.openshiftagent.api.external.ExternalKinds;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Plays the installed OpenShift clusters, each a real API server of its own ({@link
 * WorkloadClusters}): each host that finished installing joins its cluster as a Node (the labels
 * its Agent asked for; the provider ID CAPM3 gives it), and the Cluster Version Operator reports
 * the installed release once the installation finalizes.
 */
final class InstalledCluster extends Actor {
  private final WorkloadClusters workloads;

  /**
   * @param hub the management cluster, watched
   * @param workloads the installed clusters, written
   */
  InstalledCluster(KubernetesClient hub, WorkloadClusters workloads) {
    super(hub);
    this.workloads = workloads;
  }

  @Override
  void start() {
    watch(AGENT_API, "Agent", this::joinNode);
    watch(AssistedService.ACI_API, "AgentClusterInstall", this::reportVersion);
  }

  private void joinNode(GenericKubernetesResource agent) {
    String stage = AssistedService.stage(agent);
    if (!"Joined".equals(stage) && !"Done".equals(stage)) {
      return;
    }
    GenericKubernetesResource install = AssistedService.clusterInstallOf(this, agent);
    if (install == null) {
      return;
    }
    when(
        workloads.of(namespace(install), name(install)),
        workload -> joinNode(agent, install, workload.client()));
  }

  private void joinNode(
      GenericKubernetesResource agent,
      GenericKubernetesResource install,
      KubernetesClient workload) {
    String nodeName = Fields.string(agent, "spec", "hostname");
    if (nodeName == null) {
      nodeName = Fields.string(agent, "status", "inventory", "hostname");
    }
    if (workload.nodes().withName(nodeName).get() != null) {
      return;
    }
    String version = openShiftVersion(install);
    Map<String, String> labels = new HashMap<>(Fields.stringMap(agent, "spec", "nodeLabels"));
    labels.put("kubernetes.io/hostname", nodeName);
    labels.put("kubernetes.io/os", "linux");
    labels.put("kubernetes.io/arch", "amd64");
    labels.put(
        "master".equals(Fields.string(agent, "spec", "role"))
            ? "node-role.kubernetes.io/control-plane"
            : "node-role.kubernetes.io/worker",
        "");
    Node node =
        new NodeBuilder()
            .withMetadata(new ObjectMetaBuilder().withName(nodeName).withLabels(labels).build())
            .withNewSpec()
            .withProviderID(providerId(agent))
            .endSpec()
            .build();
    workload.nodes().resource(node).create();
    String now = Fields.now();
    workload
        .nodes()
        .withName(nodeName)
        .editStatus(
            n -> {
              n.setStatus(
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
                      .withAddress(n.getMetadata().getName())
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
                      .build());
              return n;
            });
    log.info("Node {} joined the installed cluster", nodeName);
  }

  /**
   * What CAPM3 sets on the Node it finds by the {@code metal3.io/uuid} label: the provider ID of
   * the Metal3Machine that consumed that BareMetalHost.
   */
  private String providerId(GenericKubernetesResource agent) {
    String hostUid =
        Fields.stringMap(agent, "spec", "nodeLabels").get(ExternalKinds.METAL3_UUID_LABEL);
    return cachedIn(BMH_API, "BareMetalHost", namespace(agent)).stream()
        .filter(h -> h.getMetadata().getUid().equals(hostUid))
        .filter(h -> Fields.string(h, "spec", "consumerRef", "name") != null)
        .map(
            h ->
                Metal3.providerId(
                    namespace(h), name(h), Fields.string(h, "spec", "consumerRef", "name")))
        .findFirst()
        .orElse(null);
  }

  private void reportVersion(GenericKubernetesResource install) {
    String state = AssistedService.state(install);
    if (!"finalizing".equals(state) && !"adding-hosts".equals(state)) {
      return;
    }
    when(
        workloads.of(namespace(install), name(install)),
        workload -> reportVersion(install, workload.client()));
  }

  /** In {@link World.Workloads#SHARED} mode the first installation's release is reported. */
  private void reportVersion(GenericKubernetesResource install, KubernetesClient workload) {
    var versions = workload.genericKubernetesResources("config.openshift.io/v1", "ClusterVersion");
    if (versions.withName("version").get() != null) {
      return;
    }
    String version = openShiftVersion(install);
    GenericKubernetesResource cv = new GenericKubernetesResource();
    cv.setApiVersion("config.openshift.io/v1");
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
        .genericKubernetesResources("config.openshift.io/v1", "ClusterVersion")
        .resource(cv)
        .updateStatus();
    log.info("installed cluster reports OpenShift {}", version);
  }

  private String releaseImage(GenericKubernetesResource install) {
    String imageSet = Fields.string(install, "spec", "imageSetRef", "name");
    GenericKubernetesResource set =
        imageSet == null
            ? null
            : client
                .genericKubernetesResources(AssistedService.HIVE_API, "ClusterImageSet")
                .withName(imageSet)
                .get();
    return set == null ? null : Fields.string(set, "spec", "releaseImage");
  }

  /** The release's version, from the tag of the ClusterImageSet's release image. */
  private String openShiftVersion(GenericKubernetesResource install) {
    String image = releaseImage(install);
    if (image == null || !image.contains(":")) {
      return "0.0.0";
    }
    return image
        .substring(image.lastIndexOf(':') + 1)
        .replaceAll("-(x86_64|aarch64|ppc64le|s390x)$", "");
  }

  /** OpenShift 4.N ships Kubernetes 1.(N+13). */
  static String kubeletVersion(String openShiftVersion) {
    String[] parts = openShiftVersion == null ? new String[0] : openShiftVersion.split("\\.");
    int minor = parts.length > 1 && parts[1].matches("\\d+") ? Integer.parseInt(parts[1]) : 20;
    return "v1." + (minor + 13) + ".0";
  }
}
