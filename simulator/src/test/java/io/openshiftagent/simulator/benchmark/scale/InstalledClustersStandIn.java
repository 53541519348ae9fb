package io.openshiftagent.simulator.benchmark.scale;

import static io.openshiftagent.simulator.ApiVersions.AGENT_INSTALL;
import static io.openshiftagent.simulator.ApiVersions.CLUSTER_VERSION;
import static io.openshiftagent.simulator.ApiVersions.CONTROL_PLANE;
import static io.openshiftagent.simulator.ApiVersions.HIVE_EXTENSION;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.NodeBuilder;
import io.fabric8.kubernetes.api.model.NodeStatusBuilder;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.dsl.base.PatchContext;
import io.fabric8.kubernetes.client.dsl.base.PatchType;
import io.fabric8.kubernetes.client.utils.Serialization;
import io.openshiftagent.simulator.Fields;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Stands in for what runs in the installed clusters, on the one API server they share ({@link
 * WorkloadGateway} gives each its own view of it): the kubelet of a host that joined registers its
 * Node (named after the Agent's hostname, with the labels the Agent asked for and its role's, and
 * the cluster's {@link WorkloadGateway#CLUSTER_LABEL}); the Cluster Version Operator reports the
 * release installed once the installation finalizes (as ClusterVersion {@code <namespace>.<name>},
 * which the gateway serves as {@code version}).
 */
final class InstalledClustersStandIn extends StandIn {
  static final String NAME = "installed-clusters";

  private final KubernetesClient workloads;

  InstalledClustersStandIn(KubernetesClient hub, KubernetesClient workloads, Pace pace) {
    super(hub, pace);
    this.workloads = workloads;
  }

  @Override
  void register() {
    watch(AGENT_INSTALL, "Agent", this::agent);
    watch(HIVE_EXTENSION, "AgentClusterInstall", this::clusterInstall);
    watch(CONTROL_PLANE, "OpenshiftAssistedControlPlane", cp -> {});
  }

  private void agent(GenericKubernetesResource agent) {
    String stage = Fields.string(agent, "status", "progress", "currentStage");
    String hostname = Fields.string(agent, "spec", "hostname");
    String cd = Fields.string(agent, "spec", "clusterDeploymentName", "name");
    if (!("Joined".equals(stage) || "Done".equals(stage)) || hostname == null || cd == null) {
      return;
    }
    var existing = workloads.nodes().withName(hostname).get();
    if (existing != null
        && existing.getStatus() != null
        && existing.getStatus().getNodeInfo() != null
        && !existing.getStatus().getNodeInfo().getKubeletVersion().isEmpty()) {
      return;
    }
    GenericKubernetesResource cp =
        cached(CONTROL_PLANE, "OpenshiftAssistedControlPlane", namespace(agent), cd);
    String version = cp == null ? null : Fields.string(cp, "spec", "distributionVersion");
    Map<String, String> labels = new LinkedHashMap<>(Fields.stringMap(agent, "spec", "nodeLabels"));
    labels.put("kubernetes.io/hostname", hostname);
    labels.put("kubernetes.io/os", "linux");
    labels.put("kubernetes.io/arch", "amd64");
    labels.put("node-role.kubernetes.io/control-plane", "");
    labels.put("node-role.kubernetes.io/master", "");
    labels.put("node-role.kubernetes.io/worker", "");
    labels.put(WorkloadGateway.CLUSTER_LABEL, WorkloadGateway.clusterId(namespace(agent), cd));
    try {
      workloads
          .nodes()
          .resource(
              new NodeBuilder()
                  .withMetadata(
                      new ObjectMetaBuilder().withName(hostname).withLabels(labels).build())
                  .build())
          .create();
    } catch (KubernetesClientException e) {
      if (e.getCode() != 409) {
        throw e;
      }
    }
    // The kubelet's status, as its own write: the API server drops a new Node's status.
    var status =
        new NodeStatusBuilder()
            .addNewCondition()
            .withType("Ready")
            .withStatus("True")
            .withReason("KubeletReady")
            .withMessage("kubelet is posting ready status")
            .withLastHeartbeatTime(Fields.now())
            .withLastTransitionTime(Fields.now())
            .endCondition()
            .addNewAddress("192.168.222.30", "InternalIP")
            .addNewAddress(hostname, "Hostname")
            .withNewNodeInfo()
            .withArchitecture("amd64")
            .withOperatingSystem("linux")
            .withOsImage("Red Hat Enterprise Linux CoreOS " + version)
            .withKubeletVersion(kubeletVersion(version))
            .withKubeProxyVersion("")
            .withContainerRuntimeVersion("cri-o://1.33.0")
            .withKernelVersion("5.14.0-570.el9_6.x86_64")
            .withMachineID(name(agent).replace("-", ""))
            .withSystemUUID(name(agent))
            .withBootID(name(agent))
            .endNodeInfo()
            .build();
    workloads
        .nodes()
        .withName(hostname)
        .subresource("status")
        .patch(
            PatchContext.of(PatchType.JSON_MERGE), Serialization.asJson(Map.of("status", status)));
  }

  /** From {@code finalizing} on, the release the cluster runs, Completed. */
  private void clusterInstall(GenericKubernetesResource install) {
    String state = Fields.string(install, "status", "debugInfo", "state");
    if (state == null || !List.of("finalizing", "installed", "adding-hosts").contains(state)) {
      return;
    }
    String id = WorkloadGateway.clusterId(namespace(install), name(install));
    GenericKubernetesResource existing =
        workloads.genericKubernetesResources(CLUSTER_VERSION, "ClusterVersion").withName(id).get();
    if (existing != null && Fields.get(existing, "status", "history") != null) {
      return;
    }
    GenericKubernetesResource cp =
        cached(CONTROL_PLANE, "OpenshiftAssistedControlPlane", namespace(install), name(install));
    String version = cp == null ? null : Fields.string(cp, "spec", "distributionVersion");
    if (version == null) {
      return;
    }
    if (existing == null) {
      GenericKubernetesResource cv = new GenericKubernetesResource();
      cv.setApiVersion(CLUSTER_VERSION);
      cv.setKind("ClusterVersion");
      cv.setMetadata(new ObjectMetaBuilder().withName(id).build());
      cv.setAdditionalProperty(
          "spec", Map.of("clusterID", install.getMetadata().getUid(), "channel", "stable-4.20"));
      existing = workloads.resource(cv).create();
    }
    String now = Fields.now();
    String image = "quay.io/openshift-release-dev/ocp-release@sha256:" + "0".repeat(64);
    Map<String, Object> completed = new LinkedHashMap<>();
    completed.put("state", "Completed");
    completed.put("version", version);
    completed.put("image", image);
    completed.put("verified", false);
    completed.put("startedTime", now);
    completed.put("completionTime", now);
    Map<String, Object> status = new LinkedHashMap<>();
    status.put("observedGeneration", 1);
    status.put("versionHash", "standin");
    status.put("availableUpdates", null);
    status.put("desired", Map.of("version", version, "image", image));
    status.put("history", List.of(completed));
    status.put(
        "conditions",
        List.of(
            Fields.condition("Available", true, "Done", "Done applying " + version),
            Fields.condition("Progressing", false, "AsExpected", "Cluster version is " + version),
            Fields.condition("Failing", false, "AsExpected", "")));
    existing.setAdditionalProperty("status", status);
    workloads
        .genericKubernetesResources(CLUSTER_VERSION, "ClusterVersion")
        .resource(existing)
        .updateStatus();
  }

  /** OpenShift 4.N runs Kubernetes 1.(N+13). */
  static String kubeletVersion(String openshift) {
    String[] parts = openshift == null ? new String[] {"4", "20"} : openshift.split("\\.");
    return "v1." + (Integer.parseInt(parts[1]) + 13) + ".0";
  }
}
