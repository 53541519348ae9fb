package io.openshiftagent.bootstrap;

import static org.assertj.core.api.Assertions.fail;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.LabelSelectorBuilder;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.dsl.base.PatchContext;
import io.fabric8.kubernetes.client.dsl.base.PatchType;
import io.openshiftagent.api.bootstrap.v1alpha2.BootstrapGroup;
import io.openshiftagent.api.bootstrap.v1alpha2.OpenshiftAssistedConfig;
import io.openshiftagent.api.bootstrap.v1alpha2.OpenshiftAssistedConfigSpec;
import io.openshiftagent.api.common.Conditions;
import io.openshiftagent.api.common.ContractVersionedObjectReference;
import io.openshiftagent.api.controlplane.v1alpha3.ControlPlaneGroup;
import io.openshiftagent.api.external.ExternalKinds;
import io.openshiftagent.api.external.OwnedFieldsPatch;
import io.openshiftagent.api.external.assisted.Agent;
import io.openshiftagent.api.external.assisted.AgentClusterInstall;
import io.openshiftagent.api.external.assisted.AgentClusterInstallSpec;
import io.openshiftagent.api.external.assisted.AgentClusterInstallStatus;
import io.openshiftagent.api.external.assisted.AgentSpec;
import io.openshiftagent.api.external.assisted.ClusterReference;
import io.openshiftagent.api.external.assisted.DebugInfo;
import io.openshiftagent.api.external.assisted.InfraEnv;
import io.openshiftagent.api.external.assisted.InfraEnvStatus;
import io.openshiftagent.api.external.capi.Cluster;
import io.openshiftagent.api.external.capi.ClusterSpec;
import io.openshiftagent.api.external.capi.ClusterStatus;
import io.openshiftagent.api.external.capi.Machine;
import io.openshiftagent.api.external.capi.MachineSpec;
import io.openshiftagent.api.external.hive.ClusterDeployment;
import io.openshiftagent.api.external.hive.ClusterDeploymentSpec;
import io.openshiftagent.api.external.metal3.BareMetalHost;
import io.openshiftagent.api.external.metal3.BareMetalHostSpec;
import io.openshiftagent.api.external.metal3.Metal3Machine;
import io.openshiftagent.api.external.metal3.Metal3MachineSpec;
import io.openshiftagent.provider.reconcile.OwnerReferences;
import io.openshiftagent.testsupport.KubeApiServerEnvironment;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;

/**
 * One cluster in its own namespace, with the test playing Cluster API core (Cluster, Machines,
 * owner references, labels), the control-plane provider (ClusterDeployment and AgentClusterInstall
 * named after the control plane), assisted-service (InfraEnv status, Agents) and Metal3
 * (Metal3Machines that claimed BareMetalHosts).
 */
final class World {
  static final String CONTROL_PLANE = "cp-of-ocp1";
  static final String OPENSHIFT_CLUSTER_NAME = "custom-openshift-name";

  final KubernetesClient client;
  final String ns;
  final String clusterName = "ocp1";

  World(KubeApiServerEnvironment env, String prefix) {
    this.client = env.client();
    this.ns = env.createNamespace(prefix);
  }

  // ---- Cluster API core and the control-plane provider ----

  Cluster cluster(boolean paused) {
    Cluster cluster = new Cluster();
    cluster.setMetadata(meta(clusterName, Map.of()));
    cluster.setSpec(new ClusterSpec());
    cluster.getSpec().paused = paused;
    cluster.getSpec().controlPlaneRef =
        new ContractVersionedObjectReference(
            ControlPlaneGroup.GROUP, "OpenshiftAssistedControlPlane", CONTROL_PLANE);
    cluster.getSpec().infrastructureRef =
        new ContractVersionedObjectReference(
            ExternalKinds.INFRASTRUCTURE_GROUP, "Metal3Cluster", clusterName);
    return client.resource(cluster).create();
  }

  void infrastructureProvisioned() {
    client
        .resources(Cluster.class)
        .inNamespace(ns)
        .withName(clusterName)
        .editStatus(
            c -> {
              c.setStatus(new ClusterStatus());
              c.getStatus().initialization = new ClusterStatus.Initialization();
              c.getStatus().initialization.infrastructureProvisioned = true;
              return c;
            });
  }

  void setPaused(boolean paused) {
    client
        .resources(Cluster.class)
        .inNamespace(ns)
        .withName(clusterName)
        .edit(
            c -> {
              c.getSpec().paused = paused;
              return c;
            });
  }

  /** What the control-plane provider creates: both named after the control plane. */
  void clusterDeploymentAndInstall(String state) {
    ClusterDeployment cd = new ClusterDeployment();
    cd.setMetadata(meta(CONTROL_PLANE, Map.of(ExternalKinds.CLUSTER_NAME_LABEL, clusterName)));
    cd.setSpec(new ClusterDeploymentSpec());
    cd.getSpec().clusterName = OPENSHIFT_CLUSTER_NAME;
    cd.getSpec().baseDomain = "lab.example.com";
    cd.getSpec().platform = new ClusterDeploymentSpec.Platform();
    cd.getSpec().platform.agentBareMetal = new ClusterDeploymentSpec.AgentBareMetal();
    cd.getSpec().platform.agentBareMetal.agentSelector =
        new LabelSelectorBuilder()
            .addToMatchLabels(ExternalKinds.CLUSTER_NAME_LABEL, clusterName)
            .build();
    client.resource(cd).create();

    AgentClusterInstall aci = new AgentClusterInstall();
    aci.setMetadata(meta(CONTROL_PLANE, Map.of(ExternalKinds.CLUSTER_NAME_LABEL, clusterName)));
    aci.setSpec(new AgentClusterInstallSpec());
    aci.getSpec().clusterDeploymentRef =
        new io.fabric8.kubernetes.api.model.LocalObjectReference(CONTROL_PLANE);
    aci.getSpec().networking = new AgentClusterInstallSpec.Networking();
    aci.getSpec().provisionRequirements = new AgentClusterInstallSpec.ProvisionRequirements();
    aci.getSpec().provisionRequirements.controlPlaneAgents = 1;
    client.resource(aci).create();
    installationState(state);
  }

  void installationState(String state) {
    client
        .resources(AgentClusterInstall.class)
        .inNamespace(ns)
        .withName(CONTROL_PLANE)
        .editStatus(
            a -> {
              a.setStatus(new AgentClusterInstallStatus());
              a.getStatus().debugInfo = new DebugInfo();
              a.getStatus().debugInfo.state = state;
              return a;
            });
  }

  /** A Machine as Cluster API creates it, its claimed Metal3 host, and its config. */
  Host host(String name, boolean controlPlane, OpenshiftAssistedConfigSpec spec) {
    return host(name, controlPlane, spec, Map.of());
  }

  Host host(
      String name,
      boolean controlPlane,
      OpenshiftAssistedConfigSpec spec,
      Map<String, String> configAnnotations) {
    MachineHost host = machineHost(name, controlPlane);
    OpenshiftAssistedConfig config = new OpenshiftAssistedConfig();
    config.setMetadata(meta(name, host.labels()));
    config.getMetadata().setOwnerReferences(List.of(OwnerReferences.controller(host.machine())));
    config.getMetadata().setAnnotations(configAnnotations);
    config.setSpec(spec);
    config = client.resource(config).create();
    return new Host(name, host.bmh(), host.metal3Machine(), host.machine(), config);
  }

  /**
   * A Machine as Cluster API creates it, named like its config-to-be, and its claimed Metal3 host;
   * {@code labels} are those Cluster API gives the config.
   */
  MachineHost machineHost(String name, boolean controlPlane) {
    BareMetalHost bmh = new BareMetalHost();
    // Claimed by CAPM3, which labels the host with its cluster's name.
    bmh.setMetadata(meta("bmh-" + name, Map.of(ExternalKinds.CLUSTER_NAME_LABEL, clusterName)));
    bmh.setSpec(new BareMetalHostSpec());
    bmh.getSpec().online = true;
    bmh = client.resource(bmh).create();

    Map<String, String> labels =
        new HashMap<>(Map.of(ExternalKinds.CLUSTER_NAME_LABEL, clusterName));
    if (controlPlane) {
      labels.put(ExternalKinds.CONTROL_PLANE_LABEL, "");
    }
    Metal3Machine m3m = new Metal3Machine();
    m3m.setMetadata(meta(name, labels));
    m3m.getMetadata()
        .setAnnotations(
            Map.of(ExternalKinds.BAREMETALHOST_ANNOTATION, ns + "/" + bmh.getMetadata().getName()));
    m3m.setSpec(new Metal3MachineSpec());
    m3m.getSpec().image = new Metal3MachineSpec.Image();
    m3m.getSpec().image.url = "http://images.example.com/rhcos.qcow2";
    m3m.getSpec().image.checksum = "0123abcd";
    m3m.getSpec().image.checksumType = "sha256";
    m3m.getSpec().image.diskFormat = "qcow2";
    m3m.getSpec().hostSelector = new Metal3MachineSpec.HostSelector();
    m3m.getSpec().hostSelector.matchLabels = Map.of("role", controlPlane ? "cp" : "worker");
    m3m.getSpec().setUnknownField("automatedCleaningMode", "disabled");
    m3m = client.resource(m3m).create();

    Machine machine = new Machine();
    machine.setMetadata(meta(name, labels));
    machine.setSpec(new MachineSpec());
    machine.getSpec().clusterName = clusterName;
    machine.getSpec().bootstrap = new MachineSpec.Bootstrap();
    machine.getSpec().bootstrap.configRef =
        new ContractVersionedObjectReference(BootstrapGroup.GROUP, "OpenshiftAssistedConfig", name);
    machine.getSpec().infrastructureRef =
        new ContractVersionedObjectReference(
            ExternalKinds.INFRASTRUCTURE_GROUP, "Metal3Machine", name);
    machine = client.resource(machine).create();
    return new MachineHost(bmh, m3m, machine, labels);
  }

  record MachineHost(
      BareMetalHost bmh,
      Metal3Machine metal3Machine,
      Machine machine,
      Map<String, String> labels) {}

  record Host(
      String name,
      BareMetalHost bmh,
      Metal3Machine metal3Machine,
      Machine machine,
      OpenshiftAssistedConfig config) {}

  /** A merge patch of the config's metadata, as a user's kubectl annotate would do. */
  void annotateConfig(String name, String key, String value) {
    client
        .resources(OpenshiftAssistedConfig.class)
        .inNamespace(ns)
        .withName(name)
        .patch(
            io.fabric8.kubernetes.client.dsl.base.PatchContext.of(
                io.fabric8.kubernetes.client.dsl.base.PatchType.JSON_MERGE),
            new io.openshiftagent.api.external.OwnedFieldsPatch()
                .set(value, "metadata", "annotations", key)
                .toJson());
  }

  // ---- assisted-service ----

  void publishIso(String infraEnv, String url) {
    client
        .resources(InfraEnv.class)
        .inNamespace(ns)
        .withName(infraEnv)
        .editStatus(
            i -> {
              i.setStatus(new InfraEnvStatus());
              i.getStatus().isoDownloadURL = url;
              i.getStatus().bootArtifacts = new InfraEnvStatus.BootArtifacts();
              i.getStatus().bootArtifacts.discoveryIgnitionURL = url + ".ign";
              return i;
            });
  }

  /** The Agent assisted-service creates when a host booted from the InfraEnv registers. */
  Agent registerAgent(String infraEnvName, String agentName) {
    InfraEnv infraEnv = infraEnv(infraEnvName);
    Map<String, String> labels = new HashMap<>(infraEnv.getSpec().agentLabels);
    labels.put(ExternalKinds.INFRAENV_LABEL, infraEnvName);
    return agent(agentName, labels, infraEnv.getSpec().clusterRef);
  }

  Agent agent(String name, Map<String, String> labels, ClusterReference clusterRef) {
    Agent agent = new Agent();
    agent.setMetadata(meta(name, labels));
    agent.setSpec(new AgentSpec());
    agent.getSpec().approved = false;
    agent.getSpec().role = "";
    agent.getSpec().clusterDeploymentName = clusterRef;
    agent.getSpec().installationDiskID = "/dev/disk/by-id/wwn-0x6141877064533b00";
    agent.getSpec().nodeLabels = Map.of("topology.kubernetes.io/region", "eu");
    agent.getSpec().setUnknownField("machineConfigPool", "custom-pool");
    return client.resource(agent).create();
  }

  /**
   * As assisted-service reports progress: a merge patch of the status, not conditional on the
   * resourceVersion (our provider may be writing the Agent at the same moment).
   */
  void agentStage(String agent, String stage) {
    client
        .resources(Agent.class)
        .inNamespace(ns)
        .withName(agent)
        .subresource("status")
        .patch(
            PatchContext.of(PatchType.JSON_MERGE),
            new OwnedFieldsPatch().set(stage, "status", "progress", "currentStage").toJson());
  }

  // ---- reads ----

  InfraEnv infraEnv(String name) {
    return client.resources(InfraEnv.class).inNamespace(ns).withName(name).get();
  }

  OpenshiftAssistedConfig config(String name) {
    return client.resources(OpenshiftAssistedConfig.class).inNamespace(ns).withName(name).get();
  }

  Agent agent(String name) {
    return client.resources(Agent.class).inNamespace(ns).withName(name).get();
  }

  <T extends HasMetadata> T get(Class<T> type, String name) {
    return client.resources(type).inNamespace(ns).withName(name).get();
  }

  String reason(String config, String conditionType) {
    OpenshiftAssistedConfig c = config(config);
    if (c == null || c.getStatus() == null) {
      return null;
    }
    return Conditions.find(c.getStatus().conditions, conditionType)
        .map(condition -> condition.getReason())
        .orElse(null);
  }

  private io.fabric8.kubernetes.api.model.ObjectMeta meta(String name, Map<String, String> labels) {
    return new ObjectMetaBuilder().withName(name).withNamespace(ns).withLabels(labels).build();
  }

  // ---- waiting ----

  static final Duration TIMEOUT = Duration.ofSeconds(30);

  /** Polls until {@code value} returns non-null (and not false); fails after the timeout. */
  static <T> T await(String what, Supplier<T> value) {
    long deadline = System.nanoTime() + TIMEOUT.toNanos();
    while (true) {
      T result = value.get();
      if (result != null && !Boolean.FALSE.equals(result)) {
        return result;
      }
      if (System.nanoTime() > deadline) {
        fail("timed out after " + TIMEOUT + " waiting for " + what);
      }
      try {
        Thread.sleep(50);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new IllegalStateException(e);
      }
    }
  }
}
