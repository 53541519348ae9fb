package io.openshiftagent.provider.testing;

import io.fabric8.kubernetes.api.model.LabelSelector;
import io.fabric8.kubernetes.api.model.OwnerReference;
import io.fabric8.kubernetes.api.model.OwnerReferenceBuilder;
import io.fabric8.kubernetes.client.dsl.base.PatchContext;
import io.fabric8.kubernetes.client.dsl.base.PatchType;
import io.fabric8.kubernetes.client.utils.Serialization;
import io.openshiftagent.api.bootstrap.v1alpha2.BootstrapGroup;
import io.openshiftagent.api.common.ContractVersionedObjectReference;
import io.openshiftagent.api.controlplane.v1alpha3.ControlPlaneGroup;
import io.openshiftagent.api.external.ExternalKinds;
import io.openshiftagent.api.external.capi.Cluster;
import io.openshiftagent.api.external.capi.ClusterSpec;
import io.openshiftagent.api.external.capi.ClusterStatus;
import io.openshiftagent.api.external.capi.Machine;
import io.openshiftagent.api.external.capi.MachineDeployment;
import io.openshiftagent.api.external.capi.MachineReplicas;
import io.openshiftagent.api.external.capi.MachineSpec;
import io.openshiftagent.api.external.capi.MachineTemplateSpec;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.Map;

/**
 * The test playing Cluster API core: the Cluster (its spec, pause and status), the owner reference
 * it sets on the control plane, Machines as it creates them, their status conditions, and
 * MachineDeployments.
 */
public final class ClusterApi {
  private final TestWorld world;

  /** The Cluster as last written here; null until {@link #createCluster}. */
  public Cluster cluster;

  ClusterApi(TestWorld world) {
    this.world = world;
  }

  /**
   * The world's Cluster on Metal3 infrastructure, naming the control plane {@code controlPlane}:
   * paused or not, with an endpoint or not, its infrastructure provisioned or not.
   */
  public TestWorld createCluster(
      String controlPlane, boolean paused, boolean endpoint, boolean provisioned) {
    Cluster c = new Cluster();
    c.setMetadata(world.meta(world.clusterName, Map.of()));
    c.setSpec(new ClusterSpec());
    c.getSpec().paused = paused;
    c.getSpec().clusterNetwork = new ClusterSpec.ClusterNetwork();
    c.getSpec().clusterNetwork.pods = new ClusterSpec.NetworkRanges();
    c.getSpec().clusterNetwork.pods.cidrBlocks = List.of("10.128.0.0/14");
    c.getSpec().clusterNetwork.services = new ClusterSpec.NetworkRanges();
    c.getSpec().clusterNetwork.services.cidrBlocks = List.of("172.30.0.0/16");
    c.getSpec().controlPlaneRef =
        new ContractVersionedObjectReference(
            ControlPlaneGroup.GROUP, "OpenshiftAssistedControlPlane", controlPlane);
    c.getSpec().infrastructureRef =
        new ContractVersionedObjectReference(
            ExternalKinds.INFRASTRUCTURE_GROUP, "Metal3Cluster", world.clusterName);
    if (endpoint) {
      c.getSpec().controlPlaneEndpoint = new ClusterSpec.ApiEndpoint();
      c.getSpec().controlPlaneEndpoint.host = "api." + world.clusterName + ".example.com";
      c.getSpec().controlPlaneEndpoint.port = 6443;
    }
    cluster = world.client.resource(c).create();
    if (provisioned) {
      setInfrastructureProvisioned();
    }
    return world;
  }

  public void setEndpoint() {
    patchCluster(
        "{\"spec\":{\"controlPlaneEndpoint\":{\"host\":\"api.example.com\",\"port\":6443}}}");
  }

  public void setPaused(boolean paused) {
    patchCluster("{\"spec\":{\"paused\":" + paused + "}}");
  }

  private void patchCluster(String mergePatch) {
    cluster =
        world
            .client
            .resources(Cluster.class)
            .inNamespace(world.ns)
            .withName(world.clusterName)
            .patch(PatchContext.of(PatchType.JSON_MERGE), mergePatch);
  }

  public void setInfrastructureProvisioned() {
    patchClusterStatus(Map.of("initialization", Map.of("infrastructureProvisioned", true)));
  }

  public void setFailureDomains(ClusterStatus.FailureDomain... domains) {
    patchClusterStatus(Map.of("failureDomains", List.of(domains)));
  }

  public void patchClusterStatus(Map<String, Object> status) {
    cluster =
        world
            .client
            .resources(Cluster.class)
            .inNamespace(world.ns)
            .withName(world.clusterName)
            .subresource("status")
            .patch(
                PatchContext.of(PatchType.JSON_MERGE),
                Serialization.asJson(Map.of("status", status)));
  }

  /** The owner reference Cluster API core sets on the control plane. */
  public List<OwnerReference> clusterOwner() {
    return List.of(
        new OwnerReferenceBuilder()
            .withApiVersion(ExternalKinds.CAPI_GROUP + "/" + ExternalKinds.CAPI_VERSION)
            .withKind("Cluster")
            .withName(world.clusterName)
            .withUid(cluster.getMetadata().getUid())
            .build());
  }

  /**
   * A Machine of the cluster as Cluster API creates it, named like its bootstrap config and its
   * Metal3Machine, with {@code labels}.
   */
  public Machine createMachine(String name, Map<String, String> labels) {
    Machine machine = new Machine();
    machine.setMetadata(world.meta(name, labels));
    machine.setSpec(new MachineSpec());
    machine.getSpec().clusterName = world.clusterName;
    machine.getSpec().bootstrap = new MachineSpec.Bootstrap();
    machine.getSpec().bootstrap.configRef =
        new ContractVersionedObjectReference(BootstrapGroup.GROUP, "OpenshiftAssistedConfig", name);
    machine.getSpec().infrastructureRef =
        new ContractVersionedObjectReference(
            ExternalKinds.INFRASTRUCTURE_GROUP, "Metal3Machine", name);
    return world.client.resource(machine).create();
  }

  /** The Machine's Ready and Available conditions, true. */
  public void setMachineReady(Machine machine) {
    applyMachineStatus(
        machine.getMetadata().getName(),
        "capi-machine-controller",
        Map.of(
            "conditions",
            List.of(condition("Ready", true, "Ready"), condition("Available", true, "Available"))));
  }

  /**
   * Plays a Cluster API controller: server-side applies {@code status} (conditions, nodeRef,
   * nodeInfo...) of the Machine under {@code manager}, which owns exactly what it applies.
   */
  public void applyMachineStatus(String machine, String manager, Map<String, Object> status) {
    Map<String, Object> apply =
        Map.of(
            "apiVersion",
            ExternalKinds.CAPI_GROUP + "/" + ExternalKinds.CAPI_VERSION,
            "kind",
            "Machine",
            "metadata",
            Map.of("name", machine, "namespace", world.ns),
            "status",
            status);
    PatchContext ssa = PatchContext.of(PatchType.SERVER_SIDE_APPLY);
    ssa.setFieldManager(manager);
    ssa.setForce(true);
    world
        .client
        .resources(Machine.class)
        .inNamespace(world.ns)
        .withName(machine)
        .subresource("status")
        .patch(ssa, Serialization.asJson(apply));
  }

  /** A condition as Cluster API writes it. */
  public static Map<String, Object> condition(String type, boolean status, String reason) {
    return Map.of(
        "type",
        type,
        "status",
        status ? "True" : "False",
        "reason",
        reason,
        "message",
        "",
        "lastTransitionTime",
        Instant.now().truncatedTo(ChronoUnit.SECONDS).toString());
  }

  /**
   * A MachineDeployment of the cluster with {@code replicas} workers made from {@code
   * configTemplate} (null: a ready-made bootstrap data Secret).
   */
  public void createMachineDeployment(String name, int replicas, String configTemplate) {
    MachineDeployment md = new MachineDeployment();
    md.setMetadata(world.meta(name, Map.of(ExternalKinds.CLUSTER_NAME_LABEL, world.clusterName)));
    md.setSpec(new MachineReplicas.Spec());
    md.getSpec().clusterName = world.clusterName;
    md.getSpec().replicas = replicas;
    md.getSpec().selector = new LabelSelector();
    md.getSpec().template = new MachineTemplateSpec();
    md.getSpec().template.spec = new MachineSpec();
    md.getSpec().template.spec.clusterName = world.clusterName;
    md.getSpec().template.spec.bootstrap = new MachineSpec.Bootstrap();
    if (configTemplate == null) {
      md.getSpec().template.spec.bootstrap.dataSecretName = "x";
    } else {
      md.getSpec().template.spec.bootstrap.configRef =
          new ContractVersionedObjectReference(
              BootstrapGroup.GROUP, "OpenshiftAssistedConfigTemplate", configTemplate);
    }
    md.getSpec().template.spec.infrastructureRef =
        new ContractVersionedObjectReference(
            ExternalKinds.INFRASTRUCTURE_GROUP, "Metal3MachineTemplate", "w");
    world.client.resource(md).create();
  }
}
