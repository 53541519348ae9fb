package io.openshiftagent.provider.testing;

import io.fabric8.kubernetes.api.model.SecretBuilder;
import io.fabric8.kubernetes.client.dsl.base.PatchContext;
import io.fabric8.kubernetes.client.dsl.base.PatchType;
import io.fabric8.kubernetes.client.utils.Serialization;
import io.openshiftagent.api.external.ExternalKinds;
import io.openshiftagent.api.external.OwnedFieldsPatch;
import io.openshiftagent.api.external.assisted.Agent;
import io.openshiftagent.api.external.assisted.AgentClusterInstall;
import io.openshiftagent.api.external.assisted.AgentSpec;
import io.openshiftagent.api.external.assisted.ClusterReference;
import io.openshiftagent.api.external.assisted.InfraEnv;
import io.openshiftagent.testsupport.KubeApiServerEnvironment;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The test playing assisted-service: the InfraEnv's discovery image, the Agents of the hosts that
 * booted it and their progress, and the AgentClusterInstall's status and admin kubeconfig. Its
 * status writes are merge patches, not conditional on the resourceVersion, as assisted-service's
 * are (the provider may be writing the object at the same moment).
 */
public final class AssistedService {
  private final TestWorld world;

  AssistedService(TestWorld world) {
    this.world = world;
  }

  /** The InfraEnv's discovery ISO and ignition, at {@code url}. */
  public void publishIso(String infraEnv, String url) {
    patchStatus(
        InfraEnv.class,
        infraEnv,
        Map.of(
            "isoDownloadURL", url, "bootArtifacts", Map.of("discoveryIgnitionURL", url + ".ign")));
  }

  /** The Agent assisted-service creates when a host booted from the InfraEnv registers. */
  public Agent registerAgent(String infraEnvName, String agentName) {
    InfraEnv infraEnv = world.infraEnv(infraEnvName);
    Map<String, String> labels = new HashMap<>(infraEnv.getSpec().agentLabels);
    labels.put(ExternalKinds.INFRAENV_LABEL, infraEnvName);
    return agent(agentName, labels, infraEnv.getSpec().clusterRef);
  }

  /** An unapproved Agent, with fields the provider does not own that must survive its writes. */
  public Agent agent(String name, Map<String, String> labels, ClusterReference clusterRef) {
    Agent agent = new Agent();
    agent.setMetadata(world.meta(name, labels));
    agent.setSpec(new AgentSpec());
    agent.getSpec().approved = false;
    agent.getSpec().role = "";
    agent.getSpec().clusterDeploymentName = clusterRef;
    agent.getSpec().installationDiskID = "/dev/disk/by-id/wwn-0x6141877064533b00";
    agent.getSpec().nodeLabels = Map.of("topology.kubernetes.io/region", "eu");
    agent.getSpec().setUnknownField("machineConfigPool", "custom-pool");
    return world.client.resource(agent).create();
  }

  /**
   * The disks the host's discovery agent reported, in the Agent's inventory, each as
   * assisted-service writes it ({@code id}, {@code path}, {@code driveType}, {@code sizeBytes},
   * {@code installationEligibility}...).
   */
  public void reportDisks(String agent, List<Map<String, Object>> disks) {
    patchStatus(Agent.class, agent, Map.of("inventory", Map.of("disks", disks)));
  }

  public void agentStage(String agent, String stage) {
    world
        .client
        .resources(Agent.class)
        .inNamespace(world.ns)
        .withName(agent)
        .subresource("status")
        .patch(
            PatchContext.of(PatchType.JSON_MERGE),
            new OwnedFieldsPatch().set(stage, "status", "progress", "currentStage").toJson());
  }

  /** The installer's state of the AgentClusterInstall {@code name}. */
  public void setInstallerState(String name, String state) {
    patchStatus(AgentClusterInstall.class, name, Map.of("debugInfo", Map.of("state", state)));
  }

  public void setInstallerState(String name, String state, String stateInfo) {
    patchStatus(
        AgentClusterInstall.class,
        name,
        Map.of("debugInfo", Map.of("state", state, "stateInfo", stateInfo)));
  }

  /** One condition of the AgentClusterInstall's status. */
  public void setClusterInstallCondition(
      String name, String type, String status, String reason, String message) {
    Map<String, Object> condition =
        Map.of(
            "type", type,
            "status", status,
            "reason", reason,
            "message", message,
            "lastTransitionTime", "2026-01-01T00:00:00Z");
    patchStatus(AgentClusterInstall.class, name, Map.of("conditions", List.of(condition)));
  }

  /**
   * Once the installation is done: the admin kubeconfig Secret of the installed cluster ({@code
   * workload}) and the install's cluster metadata naming it.
   */
  public void publishAdminKubeconfig(String name, KubeApiServerEnvironment workload) {
    world
        .client
        .resource(
            new SecretBuilder()
                .withMetadata(world.meta(name + "-admin-kubeconfig", Map.of()))
                .addToData("kubeconfig", TestWorld.base64(workload.kubeConfigYaml()))
                .build())
        .create();
    world
        .client
        .resources(AgentClusterInstall.class)
        .inNamespace(world.ns)
        .withName(name)
        .patch(
            PatchContext.of(PatchType.JSON_MERGE),
            "{\"spec\":{\"clusterMetadata\":{\"clusterID\":\"id\",\"infraID\":\"infra\","
                + "\"adminKubeconfigSecretRef\":{\"name\":\""
                + name
                + "-admin-kubeconfig\"}}}}");
  }

  private void patchStatus(
      Class<? extends io.fabric8.kubernetes.api.model.HasMetadata> type,
      String name,
      Map<String, Object> status) {
    world
        .client
        .resources(type)
        .inNamespace(world.ns)
        .withName(name)
        .subresource("status")
        .patch(
            PatchContext.of(PatchType.JSON_MERGE), Serialization.asJson(Map.of("status", status)));
  }
}
