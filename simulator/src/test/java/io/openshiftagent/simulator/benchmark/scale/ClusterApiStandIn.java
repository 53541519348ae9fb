package io.openshiftagent.simulator.benchmark.scale;

import static io.openshiftagent.simulator.ApiVersions.BOOTSTRAP;
import static io.openshiftagent.simulator.ApiVersions.CAPI;
import static io.openshiftagent.simulator.ApiVersions.CONTROL_PLANE;
import static io.openshiftagent.simulator.ApiVersions.METAL3_INFRASTRUCTURE;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.openshiftagent.api.external.ExternalKinds;
import io.openshiftagent.api.external.OwnedFieldsPatch;
import io.openshiftagent.simulator.Fields;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * Stands in for the Cluster API core manager's Cluster and Machine controllers: owner references
 * and cluster-name labels on the objects a Cluster or Machine names, finalizers, the Cluster's
 * control-plane endpoint from its infrastructure, the bootstrap data Secret's name and the provider
 * ID copied onto the Machine, the Machine's Node, and both kinds' status (phase, initialization,
 * conditions, the control plane's replicas) as they change. What it reads of the installed clusters
 * (the Nodes) it watches on their API server, as Cluster API's ClusterCache does.
 */
final class ClusterApiStandIn extends StandIn {
  static final String NAME = "cluster-api";
  private static final String NODES_BY_PROVIDER_ID = "nodes-by-provider-id";
  private static final String MACHINES_BY_PROVIDER_ID = "machines-by-provider-id";
  private static final String MACHINES_BY_CLUSTER = "machines-by-cluster";

  private final KubernetesClient workloads;

  ClusterApiStandIn(KubernetesClient hub, KubernetesClient workloads, Pace pace) {
    super(hub, pace);
    this.workloads = workloads;
  }

  @Override
  void register() {
    watch(CAPI, "Cluster", this::cluster);
    watch(CAPI, "Machine", this::machine);
    // A Cluster is Available once its Machines run.
    onChange(
        CAPI,
        "Machine",
        m -> requeue(CAPI, "Cluster", namespace(m), Fields.string(m, "spec", "clusterName")));
    index(
        CAPI,
        "Machine",
        MACHINES_BY_PROVIDER_ID,
        m -> listOf(Fields.string(m, "spec", "providerID")));
    index(
        CAPI,
        "Machine",
        MACHINES_BY_CLUSTER,
        m -> listOf(namespace(m) + "/" + Fields.string(m, "spec", "clusterName")));
    // What the Cluster and the Machines wait for: their references' status, the Nodes.
    watch(METAL3_INFRASTRUCTURE, "Metal3Cluster", m3c -> requeueOwners(m3c, "Cluster"));
    watch(CONTROL_PLANE, "OpenshiftAssistedControlPlane", cp -> requeueOwners(cp, "Cluster"));
    watch(BOOTSTRAP, "OpenshiftAssistedConfig", config -> requeueOwners(config, "Machine"));
    watch(METAL3_INFRASTRUCTURE, "Metal3Machine", m3m -> requeueOwners(m3m, "Machine"));
    watch(workloads, "v1", "Node", this::node);
    index(
        workloads,
        "v1",
        "Node",
        NODES_BY_PROVIDER_ID,
        n -> listOf(Fields.string(n, "spec", "providerID")));
    watch("v1", "Secret", this::kubeconfig);
  }

  // ---- Cluster ----

  private void cluster(GenericKubernetesResource cluster) {
    if (cluster.getMetadata().getDeletionTimestamp() != null) {
      return;
    }
    holdFinalizer(cluster, "cluster.cluster.x-k8s.io");
    String ns = namespace(cluster);
    GenericKubernetesResource infra =
        cached(
            METAL3_INFRASTRUCTURE,
            "Metal3Cluster",
            ns,
            Fields.string(cluster, "spec", "infrastructureRef", "name"));
    GenericKubernetesResource cp =
        cached(
            CONTROL_PLANE,
            "OpenshiftAssistedControlPlane",
            ns,
            Fields.string(cluster, "spec", "controlPlaneRef", "name"));
    if (infra != null) {
      adopt(infra, cluster, true, name(cluster));
    }
    if (cp != null) {
      adopt(cp, cluster, true, name(cluster));
    }
    boolean infraProvisioned =
        infra != null && Fields.isTrue(infra, "status", "initialization", "provisioned");
    if (infraProvisioned && Fields.get(cluster, "spec", "controlPlaneEndpoint", "host") == null) {
      patch(
          cluster,
          new OwnedFieldsPatch()
              .set(
                  Fields.get(infra, "spec", "controlPlaneEndpoint"),
                  "spec",
                  "controlPlaneEndpoint"));
    }
    boolean cpInitialized =
        cp != null && Fields.isTrue(cp, "status", "initialization", "controlPlaneInitialized");
    boolean cpAvailable = cp != null && Fields.conditionTrue(cp, "Available");
    List<GenericKubernetesResource> machines =
        indexed(CAPI, "Machine", MACHINES_BY_CLUSTER, ns + "/" + name(cluster));
    boolean machinesRunning =
        !machines.isEmpty()
            && machines.stream()
                .allMatch(m -> "Running".equals(Fields.string(m, "status", "phase")));
    boolean remote = cached("v1", "Secret", ns, name(cluster) + "-kubeconfig") != null;
    boolean available = infraProvisioned && cpAvailable && machinesRunning && remote;
    List<Map<String, Object>> conditions =
        List.of(
            condition("InfrastructureReady", infraProvisioned, "Metal3Cluster"),
            condition("ControlPlaneInitialized", cpInitialized, "control plane"),
            condition("ControlPlaneAvailable", cpAvailable, "control plane"),
            condition("WorkersAvailable", true, "workers"),
            condition("RemoteConnectionProbe", remote, "kubeconfig"),
            condition("Available", available, "Cluster"));
    String phase = !infraProvisioned ? "Provisioning" : "Provisioned";
    Map<String, Object> initialization = new LinkedHashMap<>();
    initialization.put("infrastructureProvisioned", infraProvisioned);
    initialization.put("controlPlaneInitialized", cpInitialized);
    Object replicas = cp == null ? null : controlPlaneReplicas(cp);
    if (phase.equals(Fields.string(cluster, "status", "phase"))
        && hasConditions(cluster, conditions)
        && initialization.equals(Fields.get(cluster, "status", "initialization"))
        && Objects.equals(replicas, Fields.get(cluster, "status", "controlPlane"))) {
      return;
    }
    OwnedFieldsPatch status =
        new OwnedFieldsPatch()
            .requireResourceVersion(cluster.getMetadata().getResourceVersion())
            .set(phase, "status", "phase")
            .set(initialization, "status", "initialization")
            .set(withConditions(cluster, conditions), "status", "conditions")
            .set(cluster.getMetadata().getGeneration(), "status", "observedGeneration");
    if (replicas != null) {
      status.set(replicas, "status", "controlPlane");
    }
    patchStatus(cluster, status);
  }

  private static Map<String, Object> controlPlaneReplicas(GenericKubernetesResource cp) {
    Map<String, Object> replicas = new LinkedHashMap<>();
    for (String field :
        List.of("replicas", "readyReplicas", "availableReplicas", "upToDateReplicas")) {
      Object value = Fields.get(cp, "status", field);
      if (value != null) {
        replicas.put(field, value);
      }
    }
    Object desired = Fields.get(cp, "spec", "replicas");
    if (desired != null) {
      replicas.put("desiredReplicas", desired);
    }
    return replicas;
  }

  // ---- Machine ----

  private void machine(GenericKubernetesResource machine) {
    if (machine.getMetadata().getDeletionTimestamp() != null) {
      return;
    }
    holdFinalizer(machine, "machine.cluster.x-k8s.io");
    String ns = namespace(machine);
    String cluster = Fields.string(machine, "spec", "clusterName");
    GenericKubernetesResource config =
        cached(
            BOOTSTRAP,
            "OpenshiftAssistedConfig",
            ns,
            Fields.string(machine, "spec", "bootstrap", "configRef", "name"));
    GenericKubernetesResource m3m =
        cached(
            METAL3_INFRASTRUCTURE,
            "Metal3Machine",
            ns,
            Fields.string(machine, "spec", "infrastructureRef", "name"));
    if (config != null) {
      adopt(config, machine, true, cluster);
    }
    if (m3m != null) {
      adopt(m3m, machine, true, cluster);
    }
    boolean bootstrapReady =
        config != null && Fields.isTrue(config, "status", "initialization", "dataSecretCreated");
    String dataSecret = config == null ? null : Fields.string(config, "status", "dataSecretName");
    OwnedFieldsPatch spec = new OwnedFieldsPatch();
    if (bootstrapReady
        && dataSecret != null
        && Fields.string(machine, "spec", "bootstrap", "dataSecretName") == null) {
      spec.set(dataSecret, "spec", "bootstrap", "dataSecretName");
    }
    String providerId = m3m == null ? null : Fields.string(m3m, "spec", "providerID");
    if (providerId != null && Fields.string(machine, "spec", "providerID") == null) {
      spec.set(providerId, "spec", "providerID");
    }
    if (!spec.isEmpty()) {
      patch(machine, spec);
      return; // its event brings the status
    }
    boolean infraReady =
        m3m != null && Fields.isTrue(m3m, "status", "initialization", "provisioned");
    GenericKubernetesResource node =
        providerId == null
            ? null
            : indexed(workloads, "v1", "Node", NODES_BY_PROVIDER_ID, providerId).stream()
                .findFirst()
                .orElse(null);
    String phase =
        node != null
            ? "Running"
            : infraReady ? "Provisioned" : bootstrapReady ? "Provisioning" : "Pending";
    List<Map<String, Object>> conditions =
        List.of(
            condition("BootstrapConfigReady", bootstrapReady, "OpenshiftAssistedConfig"),
            condition("InfrastructureReady", infraReady, "Metal3Machine"),
            condition("NodeReady", node != null, "Node"),
            condition("NodeHealthy", node != null, "Node"),
            condition("Ready", node != null, "Machine"),
            condition("Available", node != null, "Machine"));
    Map<String, Object> initialization = new LinkedHashMap<>();
    initialization.put("bootstrapDataSecretCreated", bootstrapReady);
    initialization.put("infrastructureProvisioned", infraReady);
    if (phase.equals(Fields.string(machine, "status", "phase"))
        && hasConditions(machine, conditions)
        && initialization.equals(Fields.get(machine, "status", "initialization"))) {
      return;
    }
    OwnedFieldsPatch status =
        new OwnedFieldsPatch()
            .requireResourceVersion(machine.getMetadata().getResourceVersion())
            .set(phase, "status", "phase")
            .set(initialization, "status", "initialization")
            .set(withConditions(machine, conditions), "status", "conditions")
            .set(machine.getMetadata().getGeneration(), "status", "observedGeneration");
    if (m3m != null && Fields.get(m3m, "status", "addresses") != null) {
      status.set(Fields.get(m3m, "status", "addresses"), "status", "addresses");
    }
    if (node != null) {
      status.set(Map.of("name", name(node)), "status", "nodeRef");
      status.set(Fields.get(node, "status", "nodeInfo"), "status", "nodeInfo");
    }
    patchStatus(machine, status);
  }

  private void node(GenericKubernetesResource node) {
    String providerId = Fields.string(node, "spec", "providerID");
    if (providerId != null) {
      requeue(indexed(CAPI, "Machine", MACHINES_BY_PROVIDER_ID, providerId));
    }
  }

  /** A Cluster's kubeconfig Secret is what its remote connection is made with. */
  private void kubeconfig(GenericKubernetesResource secret) {
    String cluster = Fields.label(secret, ExternalKinds.CLUSTER_NAME_LABEL);
    if (cluster != null && name(secret).equals(cluster + "-kubeconfig")) {
      requeue(CAPI, "Cluster", namespace(secret), cluster);
    }
  }

  private void requeueOwners(GenericKubernetesResource object, String kind) {
    object.getMetadata().getOwnerReferences().stream()
        .filter(
            r ->
                kind.equals(r.getKind())
                    && r.getApiVersion().startsWith(ExternalKinds.CAPI_GROUP + "/"))
        .forEach(r -> requeue(CAPI, kind, namespace(object), r.getName()));
  }

  private static Map<String, Object> condition(String type, boolean status, String subject) {
    return Fields.condition(
        type, status, status ? type : "Not" + type, status ? "" : "waiting for " + subject);
  }

  private static List<String> listOf(String value) {
    return value == null ? List.of() : List.of(value);
  }
}
