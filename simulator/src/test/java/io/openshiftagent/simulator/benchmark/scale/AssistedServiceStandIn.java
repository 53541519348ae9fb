package io.openshiftagent.simulator.benchmark.scale;

import static io.openshiftagent.simulator.ApiVersions.AGENT_INSTALL;
import static io.openshiftagent.simulator.ApiVersions.HIVE;
import static io.openshiftagent.simulator.ApiVersions.HIVE_EXTENSION;
import static io.openshiftagent.simulator.ApiVersions.METAL3;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.fabric8.kubernetes.api.model.OwnerReferenceBuilder;
import io.fabric8.kubernetes.api.model.SecretBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.openshiftagent.api.external.ExternalKinds;
import io.openshiftagent.api.external.OwnedFieldsPatch;
import io.openshiftagent.bootstrap.names.Names;
import io.openshiftagent.simulator.Fields;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.function.BiFunction;

/**
 * Stands in for assisted-service in its kube-api mode (and for the discovery agents and installers
 * that talk to it): an InfraEnv gets its discovery image's URLs; a host the baremetal-operator
 * provisioned with that ISO registers as an Agent (inventory, validations, conditions), bound to
 * the InfraEnv's ClusterDeployment; once the AgentClusterInstall's Agents are approved it installs
 * (the cluster's states, the host's stages), publishes the admin kubeconfig and password Secrets
 * with the cluster's metadata at {@code finalizing}, marks the ClusterDeployment installed, and
 * takes day-2 hosts ({@code adding-hosts}). Every state and stage is one status write, as the real
 * service's are; the admin kubeconfig names the installed cluster as {@link WorkloadGateway} serves
 * it.
 */
final class AssistedServiceStandIn extends StandIn {
  static final String NAME = "assisted-service";
  private static final String SERVICE =
      "https://assisted-service-multicluster-engine.apps.hub.scale.invalid";
  private static final String IMAGE_SERVICE =
      "https://assisted-image-service-multicluster-engine.apps.hub.scale.invalid";
  private static final String INFRAENVS_BY_ISO = "infraenvs-by-iso";
  private static final String AGENTS_BY_CLUSTER = "agents-by-cluster";
  private static final String INSTALLATION_DISK = AssistedReports.diskId("sda");

  /** The install stages of a single node's host, then the installed cluster's. */
  static final List<String> STAGES =
      List.of(
          "Starting installation",
          "Installing",
          "Waiting for bootkube",
          "Writing image to disk",
          "Rebooting",
          "Joined",
          "Done");

  private final BiFunction<String, String, String> adminKubeconfig;

  /**
   * @param adminKubeconfig the installed cluster's kubeconfig, by namespace and ClusterDeployment
   */
  AssistedServiceStandIn(
      KubernetesClient hub, Pace pace, BiFunction<String, String, String> adminKubeconfig) {
    super(hub, pace);
    this.adminKubeconfig = adminKubeconfig;
  }

  @Override
  void register() {
    watch(AGENT_INSTALL, "InfraEnv", this::infraEnv);
    index(
        AGENT_INSTALL,
        "InfraEnv",
        INFRAENVS_BY_ISO,
        i -> {
          String iso = Fields.string(i, "status", "isoDownloadURL");
          return iso == null ? List.of() : List.of(iso);
        });
    watch(METAL3, "BareMetalHost", this::host);
    watch(AGENT_INSTALL, "Agent", this::agent);
    index(
        AGENT_INSTALL,
        "Agent",
        AGENTS_BY_CLUSTER,
        a -> {
          String cd = Fields.string(a, "spec", "clusterDeploymentName", "name");
          return cd == null ? List.of() : List.of(namespace(a) + "/" + cd);
        });
    watch(HIVE_EXTENSION, "AgentClusterInstall", this::clusterInstall);
    // The installation follows its Agents (approved, joined), the Agents their installation.
    onChange(
        AGENT_INSTALL,
        "Agent",
        agent -> {
          GenericKubernetesResource install = clusterInstallOf(agent);
          if (install != null) {
            requeue(List.of(install));
          }
        });
    onChange(
        HIVE_EXTENSION,
        "AgentClusterInstall",
        install ->
            requeue(
                indexed(
                    AGENT_INSTALL,
                    "Agent",
                    AGENTS_BY_CLUSTER,
                    namespace(install)
                        + "/"
                        + Fields.string(install, "spec", "clusterDeploymentRef", "name"))));
    watch(HIVE, "ClusterDeployment", this::clusterDeployment);
  }

  // ---- InfraEnv: the discovery image ----

  private void infraEnv(GenericKubernetesResource infraEnv) {
    if (infraEnv.getMetadata().getDeletionTimestamp() != null) {
      return;
    }
    holdFinalizer(infraEnv, "infraenv.agent-install.openshift.io/ai-deprovision");
    if (Fields.string(infraEnv, "status", "isoDownloadURL") != null
        || !waited(infraEnv, "image", pace.imageCreation())) {
      return;
    }
    String id = idOf(infraEnv);
    String token = token(id);
    Map<String, Object> artifacts = new LinkedHashMap<>();
    artifacts.put("kernel", IMAGE_SERVICE + "/boot-artifacts/kernel?arch=x86_64&version=4.20");
    artifacts.put(
        "initrd",
        IMAGE_SERVICE
            + "/images/"
            + id
            + "/pxe-initrd?api_key="
            + token
            + "&arch=x86_64&version=4.20");
    artifacts.put("rootfs", IMAGE_SERVICE + "/boot-artifacts/rootfs?arch=x86_64&version=4.20");
    artifacts.put(
        "ipxeScript",
        SERVICE
            + "/api/assisted-install/v2/infra-envs/"
            + id
            + "/downloads/files?api_key="
            + token
            + "&file_name=ipxe-script");
    artifacts.put(
        "discoveryIgnitionURL",
        SERVICE
            + "/api/assisted-install/v2/infra-envs/"
            + id
            + "/downloads/files?api_key="
            + token
            + "&file_name=discovery.ign");
    patchStatus(
        infraEnv,
        new OwnedFieldsPatch()
            .set(
                withConditions(
                    infraEnv,
                    List.of(
                        AssistedReports.condition(
                            "ImageCreated", true, "ImageCreated", "Image has been created"))),
                "status",
                "conditions")
            .set(Fields.now(), "status", "createdTime")
            .set(
                IMAGE_SERVICE + "/byapikey/" + token + "/4.20/x86_64/minimal.iso",
                "status",
                "isoDownloadURL")
            .set(artifacts, "status", "bootArtifacts")
            .set(
                Map.of(
                    "eventsURL",
                    SERVICE
                        + "/api/assisted-install/v2/events?api_key="
                        + token
                        + "&infra_env_id="
                        + id),
                "status",
                "debugInfo")
            .set(
                Map.of("matchLabels", Map.of(ExternalKinds.INFRAENV_LABEL, name(infraEnv))),
                "status",
                "agentLabelSelector"));
  }

  // ---- a host boots the ISO: its Agent ----

  private void host(GenericKubernetesResource host) {
    if (!"provisioned".equals(Fields.string(host, "status", "provisioning", "state"))
        || !Fields.isTrue(host, "status", "poweredOn")
        || !"live-iso".equals(Fields.string(host, "status", "provisioning", "image", "format"))
        || Fields.annotation(host, Names.BMH_DETACHED_ANNOTATION) != null) {
      return;
    }
    String iso = Fields.string(host, "status", "provisioning", "image", "url");
    GenericKubernetesResource infraEnv =
        indexed(AGENT_INSTALL, "InfraEnv", INFRAENVS_BY_ISO, iso).stream().findFirst().orElse(null);
    String agentName =
        UUID.nameUUIDFromBytes(host.getMetadata().getUid().getBytes(StandardCharsets.UTF_8))
            .toString();
    if (infraEnv == null
        || cached(AGENT_INSTALL, "Agent", namespace(infraEnv), agentName) != null
        || !waited(host, "boot", pace.boot())) {
      return;
    }
    Map<String, String> labels =
        new LinkedHashMap<>(Fields.stringMap(infraEnv, "spec", "agentLabels"));
    labels.put(ExternalKinds.INFRAENV_LABEL, name(infraEnv));
    GenericKubernetesResource agent = new GenericKubernetesResource();
    agent.setApiVersion(AGENT_INSTALL);
    agent.setKind("Agent");
    agent.setMetadata(
        new ObjectMetaBuilder()
            .withName(agentName)
            .withNamespace(namespace(infraEnv))
            .withLabels(labels)
            .build());
    Map<String, Object> spec = new LinkedHashMap<>();
    spec.put("approved", false);
    spec.put("role", "");
    Object clusterRef = Fields.get(infraEnv, "spec", "clusterRef");
    if (clusterRef != null) {
      spec.put("clusterDeploymentName", clusterRef);
    }
    spec.put("installation_disk_id", INSTALLATION_DISK);
    agent.setAdditionalProperty("spec", spec);
    createIfMissing(agent);
    // The registering host's inventory comes with its first report.
    GenericKubernetesResource created = resource(agent).get();
    if (created != null) {
      patchStatus(created, agentStatus(created, host, "discovering", "Host is discovering"));
    }
  }

  // ---- Agent: discovery, approval, the install stages ----

  private void agent(GenericKubernetesResource agent) {
    String state = Fields.string(agent, "status", "debugInfo", "state");
    if (state == null || agent.getMetadata().getDeletionTimestamp() != null) {
      return;
    }
    boolean approved = Fields.isTrue(agent, "spec", "approved");
    String stage = Fields.string(agent, "status", "progress", "currentStage");
    if (state.equals("discovering") && waited(agent, "discovery", pace.discovery())) {
      patchStatus(agent, agentState(agent, "known", "Host is ready to be installed", null));
    } else if (state.equals("known")
        && approved
        && !Fields.conditionTrue(agent, "RequirementsMet")) {
      patchStatus(agent, agentState(agent, "known", "Host is ready to be installed", null));
    } else if (state.equals("known") && approved && installing(agent)) {
      patchStatus(
          agent, agentState(agent, "installing", "Installation is in progress", STAGES.get(0)));
    } else if (state.startsWith("installing") && stage != null) {
      int next = STAGES.indexOf(stage) + 1;
      String nextStage = next < STAGES.size() ? STAGES.get(next) : null;
      if (nextStage == null) {
        return;
      }
      boolean due =
          switch (nextStage) {
            case "Joined" -> waited(agent, "reboot", pace.reboot());
            case "Done" -> clusterInstalled(agent);
            default -> waited(agent, stage, pace.installStage());
          };
      if (due) {
        patchStatus(
            agent,
            nextStage.equals("Done")
                ? agentState(agent, "installed", "Done", nextStage)
                : agentState(agent, "installing-in-progress", nextStage, nextStage));
      }
    }
  }

  private boolean installing(GenericKubernetesResource agent) {
    GenericKubernetesResource install = clusterInstallOf(agent);
    String state = install == null ? null : Fields.string(install, "status", "debugInfo", "state");
    return "installing".equals(state);
  }

  private boolean clusterInstalled(GenericKubernetesResource agent) {
    GenericKubernetesResource install = clusterInstallOf(agent);
    String state = install == null ? null : Fields.string(install, "status", "debugInfo", "state");
    return "installed".equals(state) || "adding-hosts".equals(state);
  }

  /** The AgentClusterInstall of the Agent's ClusterDeployment: named like it (SharedNames). */
  private GenericKubernetesResource clusterInstallOf(GenericKubernetesResource agent) {
    String cd = Fields.string(agent, "spec", "clusterDeploymentName", "name");
    return cd == null ? null : cached(HIVE_EXTENSION, "AgentClusterInstall", namespace(agent), cd);
  }

  private OwnedFieldsPatch agentState(
      GenericKubernetesResource agent, String state, String info, String stage) {
    boolean approved = Fields.isTrue(agent, "spec", "approved");
    boolean installed = "installed".equals(state);
    OwnedFieldsPatch patch =
        new OwnedFieldsPatch()
            .set(
                Map.of(
                    "state", state,
                    "stateInfo", info,
                    "eventsURL",
                        SERVICE
                            + "/api/assisted-install/v2/events?api_key="
                            + token(name(agent))
                            + "&host_id="
                            + name(agent)),
                "status",
                "debugInfo")
            .set(
                withConditions(
                    agent,
                    List.of(
                        AssistedReports.condition(
                            "SpecSynced", true, "SyncOK", "The Spec has been successfully applied"),
                        AssistedReports.condition(
                            "Connected",
                            true,
                            "AgentIsConnected",
                            "The agent's connection to the installation service is unimpaired"),
                        AssistedReports.condition(
                            "RequirementsMet",
                            approved,
                            approved ? "AgentIsReady" : "AgentIsNotApproved",
                            approved
                                ? "The agent is ready to begin the installation"
                                : "The agent must be approved by an administrator"),
                        AssistedReports.condition(
                            "Validated",
                            true,
                            "ValidationsPassing",
                            "The agent's validations are passing"),
                        AssistedReports.condition(
                            "Installed",
                            installed,
                            installed ? "InstallationCompleted" : "InstallationNotStarted",
                            installed
                                ? "The installation has completed: Done"
                                : "The installation has not yet started"),
                        AssistedReports.condition(
                            "Bound", true, "Bound", "The agent is bound to a cluster deployment"))),
                "status",
                "conditions");
    if (stage != null) {
      Map<String, Object> progress = new LinkedHashMap<>();
      progress.put("currentStage", stage);
      progress.put("stageStartTime", Fields.now());
      progress.put("stageUpdateTime", Fields.now());
      progress.put("installationPercentage", 100 * (STAGES.indexOf(stage) + 1) / STAGES.size());
      progress.put("progressStages", STAGES);
      patch.set(progress, "status", "progress");
      patch.set("master", "status", "role");
      patch.set(true, "status", "bootstrap");
    }
    return patch;
  }

  private OwnedFieldsPatch agentStatus(
      GenericKubernetesResource agent, GenericKubernetesResource host, String state, String info) {
    return agentState(agent, state, info, null)
        .set(AssistedReports.inventory(host, Fields.now()), "status", "inventory")
        .set(
            List.of(
                Map.of("sourceName", "192.168.222.1", "sourceState", "synced"),
                Map.of("sourceName", "clock.redhat.com", "sourceState", "unreachable")),
            "status",
            "ntpSources")
        .set(
            AssistedReports.validationsInfo(AssistedReports.HOST_VALIDATIONS),
            "status",
            "validationsInfo")
        .set(INSTALLATION_DISK, "status", "installation_disk_id");
  }

  // ---- AgentClusterInstall and ClusterDeployment: the installation ----

  private void clusterInstall(GenericKubernetesResource install) {
    if (install.getMetadata().getDeletionTimestamp() != null) {
      return;
    }
    holdFinalizer(install, "agentclusterinstall.agent-install.openshift.io/ai-deprovision");
    String ns = namespace(install);
    String cd = Fields.string(install, "spec", "clusterDeploymentRef", "name");
    String state = Fields.string(install, "status", "debugInfo", "state");
    List<GenericKubernetesResource> agents =
        indexed(AGENT_INSTALL, "Agent", AGENTS_BY_CLUSTER, ns + "/" + cd);
    int wanted =
        Fields.integer(install, 1, "spec", "provisionRequirements", "controlPlaneAgents")
            + Fields.integer(install, 0, "spec", "provisionRequirements", "workerAgents");
    boolean agentsReady =
        agents.size() >= wanted
            && agents.stream()
                .allMatch(
                    a ->
                        Fields.isTrue(a, "spec", "approved")
                            && Fields.conditionTrue(a, "RequirementsMet"));
    if (state == null) {
      write(install, "insufficient", "Cluster is not ready for install", 0, agents);
    } else if (state.equals("insufficient") && agentsReady) {
      write(install, "ready", "Cluster ready to be installed", 0, agents);
    } else if (state.equals("ready")) {
      write(install, "preparing-for-installation", "Preparing cluster for installation", 0, agents);
    } else if (state.equals("preparing-for-installation")
        && waited(install, state, pace.preparation())) {
      write(install, "installing", "Installation in progress", 10, agents);
    } else if (state.equals("installing")
        && !agents.isEmpty()
        && agents.stream().allMatch(AssistedServiceStandIn::joined)) {
      publishCredentials(install, cd);
      write(install, "finalizing", "Finalizing cluster installation", 80, agents);
    } else if (state.equals("finalizing") && waited(install, state, pace.finalization())) {
      installed(install, cd);
      write(install, "installed", "Cluster is installed", 100, agents);
    } else if (state.equals("installed")) {
      write(install, "adding-hosts", "Cluster is installed and ready for day-2 hosts", 100, agents);
    }
  }

  /** The host rebooted into the installed system and joined its cluster. */
  private static boolean joined(GenericKubernetesResource agent) {
    String stage = Fields.string(agent, "status", "progress", "currentStage");
    return "Joined".equals(stage) || "Done".equals(stage);
  }

  private void write(
      GenericKubernetesResource install,
      String state,
      String info,
      int percent,
      List<GenericKubernetesResource> agents) {
    boolean installed = state.equals("installed") || state.equals("adding-hosts");
    boolean ready = !List.of("insufficient").contains(state);
    Map<String, Object> debugInfo = new LinkedHashMap<>();
    debugInfo.put("state", state);
    debugInfo.put("stateInfo", info);
    debugInfo.put(
        "eventsURL",
        SERVICE
            + "/api/assisted-install/v2/events?api_key="
            + token(name(install))
            + "&cluster_id="
            + idOf(install));
    debugInfo.put(
        "logsURL",
        installed
            ? SERVICE
                + "/api/assisted-install/v2/clusters/"
                + idOf(install)
                + "/logs?api_key="
                + token(name(install))
            : "");
    patchStatus(
        install,
        new OwnedFieldsPatch()
            .set(debugInfo, "status", "debugInfo")
            .set(Map.of("totalPercentage", percent), "status", "progress")
            .set(
                AssistedReports.validationsInfo(AssistedReports.CLUSTER_VALIDATIONS),
                "status",
                "validationsInfo")
            .set("{\"IPv4\":{},\"IPv6\":{}}", "status", "connectivityMajorityGroups")
            .set("None", "status", "platformType")
            .set(true, "status", "userManagedNetworking")
            .set(agents.size(), "status", "controlPlaneAgentsDiscovered")
            .set(
                (int)
                    agents.stream().filter(a -> Fields.conditionTrue(a, "RequirementsMet")).count(),
                "status",
                "controlPlaneAgentsReady")
            .set(
                withConditions(
                    install,
                    List.of(
                        AssistedReports.condition(
                            "SpecSynced", true, "SyncOK", "The Spec has been successfully applied"),
                        AssistedReports.condition(
                            "RequirementsMet",
                            ready,
                            ready ? "ClusterIsReady" : "ClusterNotReady",
                            ready
                                ? "The cluster is ready to begin the installation"
                                : "The cluster is not ready to begin the installation"),
                        AssistedReports.condition(
                            "Validated",
                            ready,
                            ready ? "ValidationsPassing" : "ValidationsFailing",
                            ready
                                ? "The cluster's validations are passing"
                                : "The cluster's validations are failing"),
                        AssistedReports.condition(
                            "Completed",
                            installed,
                            installed ? "InstallationCompleted" : "InstallationNotStarted",
                            installed
                                ? "The installation has completed: " + info
                                : "The installation has not yet started"),
                        AssistedReports.condition(
                            "Failed",
                            false,
                            "InstallationNotFailed",
                            "The installation has not failed"),
                        AssistedReports.condition(
                            "Stopped",
                            installed,
                            installed ? "InstallationCompleted" : "InstallationNotStopped",
                            installed
                                ? "The installation has stopped because it completed successfully"
                                : "The installation is waiting to start or in progress"))),
                "status",
                "conditions"));
  }

  /**
   * The admin kubeconfig and password Secrets, owned by the ClusterDeployment, and the cluster's
   * metadata naming them on the AgentClusterInstall.
   */
  private void publishCredentials(GenericKubernetesResource install, String cd) {
    String ns = namespace(install);
    GenericKubernetesResource deployment = cached(HIVE, "ClusterDeployment", ns, cd);
    if (deployment == null) {
      throw new IllegalStateException("ClusterDeployment " + ns + "/" + cd + " is not cached yet");
    }
    var owner =
        new OwnerReferenceBuilder()
            .withApiVersion(HIVE)
            .withKind("ClusterDeployment")
            .withName(cd)
            .withUid(deployment.getMetadata().getUid())
            .build();
    createIfMissing(
        new SecretBuilder()
            .withNewMetadata()
            .withName(cd + "-admin-kubeconfig")
            .withNamespace(ns)
            .withOwnerReferences(owner)
            .endMetadata()
            .addToData(
                "kubeconfig",
                Base64.getEncoder()
                    .encodeToString(adminKubeconfig.apply(ns, cd).getBytes(StandardCharsets.UTF_8)))
            .build());
    createIfMissing(
        new SecretBuilder()
            .withNewMetadata()
            .withName(cd + "-admin-password")
            .withNamespace(ns)
            .withOwnerReferences(owner)
            .endMetadata()
            .addToStringData("username", "kubeadmin")
            .addToStringData("password", token(cd).substring(0, 23))
            .build());
    patch(
        install,
        new OwnedFieldsPatch().set(clusterMetadata(install, cd), "spec", "clusterMetadata"));
  }

  private static Map<String, Object> clusterMetadata(GenericKubernetesResource install, String cd) {
    Map<String, Object> metadata = new LinkedHashMap<>();
    metadata.put("clusterID", idOf(install));
    metadata.put("infraID", cd + "-" + idOf(install).substring(0, 5));
    metadata.put("adminKubeconfigSecretRef", Map.of("name", cd + "-admin-kubeconfig"));
    metadata.put("adminPasswordSecretRef", Map.of("name", cd + "-admin-password"));
    return metadata;
  }

  private void installed(GenericKubernetesResource install, String cd) {
    GenericKubernetesResource deployment =
        cached(HIVE, "ClusterDeployment", namespace(install), cd);
    if (deployment == null || Fields.isTrue(deployment, "spec", "installed")) {
      return;
    }
    patch(
        deployment,
        new OwnedFieldsPatch()
            .set(true, "spec", "installed")
            .set(clusterMetadata(install, cd), "spec", "clusterMetadata"));
    String domain = Fields.string(deployment, "spec", "baseDomain");
    patchStatus(
        deployment,
        new OwnedFieldsPatch()
            .set(Fields.now(), "status", "installedTimestamp")
            .set("https://api." + cd + "." + domain + ":6443", "status", "apiURL")
            .set(
                "https://console-openshift-console.apps." + cd + "." + domain,
                "status",
                "webConsoleURL"));
  }

  private void clusterDeployment(GenericKubernetesResource deployment) {
    if (deployment.getMetadata().getDeletionTimestamp() == null) {
      holdFinalizer(deployment, "clusterdeployments.agent-install.openshift.io/ai-deprovision");
    }
  }

  /** The ID assisted-service gives the object (stable for the object). */
  private static String idOf(GenericKubernetesResource object) {
    return UUID.nameUUIDFromBytes(object.getMetadata().getUid().getBytes(StandardCharsets.UTF_8))
        .toString();
  }

  /** A token of the size of the service's signed URLs' (a JWT). */
  private static String token(String subject) {
    String payload =
        Base64.getUrlEncoder()
            .withoutPadding()
            .encodeToString(
                ("{\"infra_env_id\":\"" + subject + "\",\"sub\":\"local-auth\",\"exp\":4102444800}")
                    .getBytes(StandardCharsets.UTF_8));
    return "eyJhbGciOiJFUzI1NiIsInR5cCI6IkpXVCJ9." + payload + "." + "x".repeat(86);
  }
}
