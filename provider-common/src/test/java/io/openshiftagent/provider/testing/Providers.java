package io.openshiftagent.provider.testing;

import io.fabric8.kubernetes.api.model.LabelSelectorBuilder;
import io.fabric8.kubernetes.api.model.LocalObjectReference;
import io.fabric8.kubernetes.client.dsl.base.PatchContext;
import io.fabric8.kubernetes.client.dsl.base.PatchType;
import io.openshiftagent.api.bootstrap.v1alpha2.OpenshiftAssistedConfig;
import io.openshiftagent.api.bootstrap.v1alpha2.OpenshiftAssistedConfigSpec;
import io.openshiftagent.api.bootstrap.v1alpha2.OpenshiftAssistedConfigTemplate;
import io.openshiftagent.api.controlplane.v1alpha3.OpenshiftAssistedControlPlane;
import io.openshiftagent.api.external.ExternalKinds;
import io.openshiftagent.api.external.OwnedFieldsPatch;
import io.openshiftagent.api.external.assisted.AgentClusterInstall;
import io.openshiftagent.api.external.assisted.AgentClusterInstallSpec;
import io.openshiftagent.api.external.capi.Machine;
import io.openshiftagent.api.external.hive.ClusterDeployment;
import io.openshiftagent.api.external.hive.ClusterDeploymentSpec;
import io.openshiftagent.api.external.metal3.BareMetalHost;
import io.openshiftagent.api.external.metal3.Metal3Machine;
import io.openshiftagent.provider.reconcile.OwnerReferences;
import java.util.List;
import java.util.Map;

/**
 * The objects of the two providers' kinds that a test makes in place of whoever makes them in a
 * real cluster: the user (control planes, config templates, annotations), Cluster API (a Machine's
 * config), and the provider the test does not run (the control-plane provider's ClusterDeployment
 * and AgentClusterInstall).
 */
public final class Providers {
  private final TestWorld world;

  Providers(TestWorld world) {
    this.world = world;
  }

  // ---- the bootstrap provider's kinds ----

  /** A Machine as Cluster API creates it, its claimed Metal3 host, and its config. */
  public Host host(String name, boolean controlPlane, OpenshiftAssistedConfigSpec spec) {
    return host(name, controlPlane, spec, Map.of());
  }

  public Host host(
      String name,
      boolean controlPlane,
      OpenshiftAssistedConfigSpec spec,
      Map<String, String> configAnnotations) {
    Metal3.MachineHost host = world.metal3.machineHost(name, controlPlane);
    OpenshiftAssistedConfig config = new OpenshiftAssistedConfig();
    config.setMetadata(world.meta(name, host.labels()));
    config.getMetadata().setOwnerReferences(List.of(OwnerReferences.controller(host.machine())));
    config.getMetadata().setAnnotations(configAnnotations);
    config.setSpec(spec);
    config = world.client.resource(config).create();
    return new Host(name, host.bmh(), host.metal3Machine(), host.machine(), config);
  }

  public record Host(
      String name,
      BareMetalHost bmh,
      Metal3Machine metal3Machine,
      Machine machine,
      OpenshiftAssistedConfig config) {}

  /** A merge patch of the config's metadata, as a user's kubectl annotate would do. */
  public void annotateConfig(String name, String key, String value) {
    world
        .client
        .resources(OpenshiftAssistedConfig.class)
        .inNamespace(world.ns)
        .withName(name)
        .patch(
            PatchContext.of(PatchType.JSON_MERGE),
            new OwnedFieldsPatch().set(value, "metadata", "annotations", key).toJson());
  }

  /** An OpenshiftAssistedConfigTemplate for workers of {@code cpuArchitecture}. */
  public void createConfigTemplate(String name, String cpuArchitecture) {
    OpenshiftAssistedConfigTemplate template = new OpenshiftAssistedConfigTemplate();
    template.setMetadata(world.meta(name, Map.of()));
    template.setSpec(new OpenshiftAssistedConfigTemplate.Spec());
    template.getSpec().template = new OpenshiftAssistedConfigTemplate.Resource();
    template.getSpec().template.spec = new OpenshiftAssistedConfigSpec();
    template.getSpec().template.spec.cpuArchitecture = cpuArchitecture;
    world.client.resource(template).create();
  }

  // ---- the control-plane provider's kinds ----

  /** Creates the control plane owned by the Cluster, as Cluster API core would link it. */
  public OpenshiftAssistedControlPlane createControlPlane(OpenshiftAssistedControlPlane cp) {
    cp.getMetadata().setOwnerReferences(world.capi.clusterOwner());
    return world.client.resource(cp).create();
  }

  /**
   * What the control-plane provider creates for the control plane {@code controlPlane}: its
   * ClusterDeployment (of the OpenShift cluster {@code openshiftName}) and AgentClusterInstall,
   * both named after it, the install in installer state {@code state}.
   */
  public void clusterDeploymentAndInstall(String controlPlane, String openshiftName, String state) {
    Map<String, String> labels = Map.of(ExternalKinds.CLUSTER_NAME_LABEL, world.clusterName);
    ClusterDeployment cd = new ClusterDeployment();
    cd.setMetadata(world.meta(controlPlane, labels));
    cd.setSpec(new ClusterDeploymentSpec());
    cd.getSpec().clusterName = openshiftName;
    cd.getSpec().baseDomain = "lab.example.com";
    cd.getSpec().platform = new ClusterDeploymentSpec.Platform();
    cd.getSpec().platform.agentBareMetal = new ClusterDeploymentSpec.AgentBareMetal();
    cd.getSpec().platform.agentBareMetal.agentSelector =
        new LabelSelectorBuilder()
            .addToMatchLabels(ExternalKinds.CLUSTER_NAME_LABEL, world.clusterName)
            .build();
    world.client.resource(cd).create();

    AgentClusterInstall aci = new AgentClusterInstall();
    aci.setMetadata(world.meta(controlPlane, labels));
    aci.setSpec(new AgentClusterInstallSpec());
    aci.getSpec().clusterDeploymentRef = new LocalObjectReference(controlPlane);
    aci.getSpec().networking = new AgentClusterInstallSpec.Networking();
    aci.getSpec().provisionRequirements = new AgentClusterInstallSpec.ProvisionRequirements();
    aci.getSpec().provisionRequirements.controlPlaneAgents = 1;
    world.client.resource(aci).create();
    world.assisted.setInstallerState(controlPlane, state);
  }
}
