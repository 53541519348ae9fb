package io.openshiftagent.simulator;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.OwnerReference;
import io.fabric8.kubernetes.api.model.OwnerReferenceBuilder;
import io.fabric8.kubernetes.api.model.SecretBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.openshiftagent.api.external.ExternalKinds;
import io.openshiftagent.api.external.OwnedFieldsPatch;
import io.openshiftagent.testsupport.KubeApiServerEnvironment;
import java.nio.charset.StandardCharsets;
import java.security.SecureRandom;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Plays assisted-service: its Kubernetes API (InfraEnv images, the AgentClusterInstall state
 * machine insufficient → ready → preparing-for-installation → installing → finalizing →
 * adding-hosts, the Agents' install stages, the admin kubeconfig of the installed cluster, day-2
 * hosts), its REST API ({@link AssistedServiceApi}), and its finalizers, which make deletion go in
 * its order: an InfraEnv, Agent, AgentClusterInstall or ClusterDeployment is released only once
 * assisted-service has cleaned up after it.
 */
final class AssistedService extends Actor {
  /**
   * assisted-service's finalizers (internal/controller/controllers in openshift/assisted-service).
   */
  static final String INFRAENV_FINALIZER = "infraenv.agent-install.openshift.io/ai-deprovision";

  static final String AGENT_FINALIZER = "agent.agent-install.openshift.io/ai-deprovision";
  static final String INSTALL_FINALIZER =
      "agentclusterinstall.agent-install.openshift.io/ai-deprovision";
  static final String DEPLOYMENT_FINALIZER =
      "clusterdeployments.agent-install.openshift.io/ai-deprovision";

  static final String IMAGE_SERVICE = "https://assisted-image-service.simulator.invalid";

  private static final SecureRandom RANDOM = new SecureRandom();

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

  /** Namespace → the stateInfo its installations fail with (fault tests). */
  private final Map<String, String> failingInstallations = new ConcurrentHashMap<>();

  private AssistedServiceApi api;

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
    try {
      api = new AssistedServiceApi(client);
    } catch (Exception e) {
      throw new IllegalStateException("cannot start the simulated assisted-service REST API", e);
    }
    watch(
        client,
        ApiVersions.AGENT_INSTALL,
        "InfraEnv",
        this::reconcileInfraEnv,
        this::collectAgents);
    watch(
        client,
        ApiVersions.HIVE_EXTENSION,
        "AgentClusterInstall",
        this::reconcileInstall,
        this::installGone);
    watch(ApiVersions.AGENT_INSTALL, "Agent", this::reconcileAgent);
    watch(
        client,
        ApiVersions.HIVE,
        "ClusterDeployment",
        this::reconcileClusterDeployment,
        this::collectSecrets);
  }

  /** The PEM CA bundle that signs the REST API's certificate. */
  String caPem() {
    return api.caPem();
  }

  // ---- InfraEnv ----

  private void reconcileInfraEnv(GenericKubernetesResource event) {
    GenericKubernetesResource infraEnv = current(event);
    if (infraEnv == null) {
      return;
    }
    if (isDeleting(infraEnv)) {
      // Deregistered from the service's database; Kubernetes' garbage collector then deletes its
      // Agents, whose owner it is (collectAgents).
      releaseFinalizer(infraEnv, INFRAENV_FINALIZER);
      return;
    }
    holdFinalizer(infraEnv, INFRAENV_FINALIZER);
    if (Fields.string(infraEnv, "status", "isoDownloadURL") == null) {
      publishImage(infraEnv);
    }
  }

  private void publishImage(GenericKubernetesResource infraEnv) {
    String id = infraEnv.getMetadata().getUid();
    String base = IMAGE_SERVICE + "/byid/" + id;
    mergePatchStatus(
        resource(ApiVersions.AGENT_INSTALL, "InfraEnv", namespace(infraEnv), name(infraEnv)),
        new OwnedFieldsPatch()
            .set(base + "/4.20/x86_64/full.iso", "status", "isoDownloadURL")
            .set(Fields.now(), "status", "createdTime")
            .set(
                Map.of(
                    "discoveryIgnitionURL", api.discoveryIgnitionUrl(id),
                    "kernel", IMAGE_SERVICE + "/boot-artifacts/kernel",
                    "initrd", base + "/pxe-initrd",
                    "rootfs", IMAGE_SERVICE + "/boot-artifacts/rootfs",
                    "ipxeScript", base + "/ipxe-script"),
                "status",
                "bootArtifacts")
            .set(Map.of("eventsURL", api.eventsUrl(id)), "status", "debugInfo")
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

  /**
   * What assisted-service does when it regenerates an InfraEnv's image (its spec changed, or a new
   * image token): the ISO gets a new URL, with a new token in it. Returns that URL.
   */
  String regenerateImage(String namespace, String infraEnv) {
    byte[] token = new byte[24];
    RANDOM.nextBytes(token);
    String url =
        IMAGE_SERVICE
            + "/byapikey/"
            + Base64.getUrlEncoder().withoutPadding().encodeToString(token)
            + "/4.20/x86_64/full.iso";
    mergePatchStatus(
        resource(ApiVersions.AGENT_INSTALL, "InfraEnv", namespace, infraEnv),
        new OwnedFieldsPatch()
            .set(url, "status", "isoDownloadURL")
            .set(Fields.now(), "status", "createdTime"));
    log.info("InfraEnv {}/{}: image regenerated", namespace, infraEnv);
    return url;
  }

  AssistedServiceApi api() {
    return api;
  }

  // ---- Agent ----

  private void reconcileAgent(GenericKubernetesResource event) {
    GenericKubernetesResource agent = current(event);
    if (agent == null) {
      return;
    }
    if (isDeleting(agent)) {
      deprovisionAgent(agent);
      return;
    }
    holdFinalizer(agent, AGENT_FINALIZER);
    GenericKubernetesResource install = clusterInstallOf(this, agent);
    if (install != null) {
      reconcileInstall(install);
    }
  }

  /**
   * An Agent deleted while its cluster and InfraEnv still exist leaves the cluster: its Node is
   * removed from the installed cluster. Then the host is deregistered.
   */
  private void deprovisionAgent(GenericKubernetesResource agent) {
    String deployment = Fields.string(agent, "spec", "clusterDeploymentName", "name");
    String infraEnv = Fields.label(agent, ExternalKinds.INFRAENV_LABEL);
    String hostname = hostname(agent);
    GenericKubernetesResource install = clusterInstallOf(this, agent);
    Optional<KubeApiServerEnvironment> workload =
        install == null ? Optional.empty() : workloads.ifStarted(namespace(install), name(install));
    if (deployment != null
        && infraEnv != null
        && hostname != null
        && workload.isPresent()
        && resource(ApiVersions.HIVE, "ClusterDeployment", namespace(agent), deployment).get()
            != null
        && resource(ApiVersions.AGENT_INSTALL, "InfraEnv", namespace(agent), infraEnv).get()
            != null) {
      workload.get().client().nodes().withName(hostname).delete();
      log.info("Agent {} deleted: removed Node {} from its cluster", name(agent), hostname);
    }
    hostsInstalling.remove(key(agent));
    releaseFinalizer(agent, AGENT_FINALIZER);
  }

  static String hostname(GenericKubernetesResource agent) {
    String hostname = Fields.string(agent, "spec", "hostname");
    return hostname != null ? hostname : Fields.string(agent, "status", "inventory", "hostname");
  }

  /**
   * Plays Kubernetes' garbage collector, which the world does not run: assisted-service creates
   * each Agent with its InfraEnv as owner, so the Agents go with the InfraEnv.
   */
  private void collectAgents(GenericKubernetesResource infraEnv) {
    deleteOwnedBy(ApiVersions.AGENT_INSTALL, "Agent", infraEnv);
  }

  // ---- AgentClusterInstall ----

  private void reconcileInstall(GenericKubernetesResource event) {
    GenericKubernetesResource install = current(event);
    if (install == null) {
      return;
    }
    if (isDeleting(install)) {
      deprovisionInstall(install);
      return;
    }
    holdFinalizer(install, INSTALL_FINALIZER);
    String key = key(install);
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
        // Only the hosts the installation started with count; one approved later waits for day 2
        // (adding-hosts), as in assisted-service.
        List<GenericKubernetesResource> installing =
            approved.stream().filter(a -> hostsInstalling.contains(key(a))).toList();
        if (!installing.isEmpty()
            && installing.stream().allMatch(a -> "Done".equals(stage(a)))
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

  /**
   * assisted-service's cleanup of a deleted AgentClusterInstall: the Agents bound to its cluster
   * are deleted when their InfraEnv was made for that cluster, unbound otherwise; then the cluster
   * is deregistered.
   */
  private void deprovisionInstall(GenericKubernetesResource install) {
    String deployment = Fields.string(install, "spec", "clusterDeploymentRef", "name");
    for (GenericKubernetesResource agent : boundAgents(install)) {
      var target = resource(ApiVersions.AGENT_INSTALL, "Agent", namespace(agent), name(agent));
      if (infraEnvMadeFor(agent, namespace(install), deployment)) {
        target.delete();
      } else {
        mergePatch(target, new OwnedFieldsPatch().set(null, "spec", "clusterDeploymentName"));
      }
    }
    installsStarted.remove(key(install));
    installsFinished.remove(key(install));
    releaseFinalizer(install, INSTALL_FINALIZER);
  }

  private boolean infraEnvMadeFor(
      GenericKubernetesResource agent, String namespace, String deployment) {
    String infraEnvName = Fields.label(agent, ExternalKinds.INFRAENV_LABEL);
    GenericKubernetesResource infraEnv =
        infraEnvName == null
            ? null
            : resource(ApiVersions.AGENT_INSTALL, "InfraEnv", namespace(agent), infraEnvName).get();
    if (infraEnv == null) {
      return false;
    }
    String ns = Fields.string(infraEnv, "spec", "clusterRef", "namespace");
    return Objects.equals(deployment, Fields.string(infraEnv, "spec", "clusterRef", "name"))
        && namespace.equals(ns == null ? namespace(infraEnv) : ns);
  }

  private void installGone(GenericKubernetesResource install) {
    String deployment = Fields.string(install, "spec", "clusterDeploymentRef", "name");
    if (deployment != null) {
      GenericKubernetesResource cd =
          resource(ApiVersions.HIVE, "ClusterDeployment", namespace(install), deployment).get();
      if (cd != null) {
        reconcileClusterDeployment(cd);
      }
    }
  }

  private void startInstallation(
      GenericKubernetesResource install, List<GenericKubernetesResource> hosts) {
    setState(install, "preparing-for-installation", "Preparing cluster for installation");
    after(
        durations.installationStep(),
        () -> {
          setState(install, "installing", "Installation in progress");
          String failure = failingInstallations.get(namespace(install));
          if (failure == null) {
            hosts.forEach(this::installHost);
          } else {
            after(durations.installationStep(), () -> setState(install, "error", failure));
          }
        });
  }

  /**
   * From now on the installations in {@code namespace} fail once they have started: the
   * AgentClusterInstall goes {@code installing} → {@code error} with {@code stateInfo}, as when
   * assisted-service gives up on its hosts.
   */
  void failInstallations(String namespace, String stateInfo) {
    failingInstallations.put(namespace, stateInfo);
  }

  private void installHost(GenericKubernetesResource agent) {
    if (hostsInstalling.add(key(agent))) {
      advance(agent, 0);
    }
  }

  private void advance(GenericKubernetesResource agent, int stage) {
    after(
        durations.installationStep(),
        () -> {
          boolean last = stage == STAGES.size() - 1;
          mergePatchStatus(
              resource(ApiVersions.AGENT_INSTALL, "Agent", namespace(agent), name(agent)),
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

  /**
   * Installation done: the admin kubeconfig (a Secret owned by the ClusterDeployment, as
   * assisted-service makes it), the cluster metadata, then day-2 mode.
   */
  private void finish(GenericKubernetesResource install, String workloadKubeconfig) {
    String ns = namespace(install);
    String secret = name(install) + "-admin-kubeconfig";
    String deploymentName = Fields.string(install, "spec", "clusterDeploymentRef", "name");
    GenericKubernetesResource deployment =
        deploymentName == null
            ? null
            : resource(ApiVersions.HIVE, "ClusterDeployment", ns, deploymentName).get();
    SecretBuilder kubeconfig =
        new SecretBuilder()
            .withNewMetadata()
            .withName(secret)
            .withNamespace(ns)
            .addToLabels("hive.openshift.io/secret-type", "kubeconfig")
            .endMetadata()
            .addToData(
                "kubeconfig",
                Base64.getEncoder()
                    .encodeToString(workloadKubeconfig.getBytes(StandardCharsets.UTF_8)));
    if (deployment != null) {
      kubeconfig
          .editMetadata()
          .addToLabels("hive.openshift.io/cluster-deployment-name", deploymentName)
          .addToOwnerReferences(ownerReference(deployment))
          .endMetadata();
    }
    client.resource(kubeconfig.build()).serverSideApply();
    Map<String, Object> metadata =
        Map.of(
            "clusterID", install.getMetadata().getUid(),
            "infraID", name(install) + "-infra",
            "adminKubeconfigSecretRef", Map.of("name", secret));
    mergePatch(
        resource(ApiVersions.HIVE_EXTENSION, "AgentClusterInstall", ns, name(install)),
        new OwnedFieldsPatch().set(metadata, "spec", "clusterMetadata"));
    if (deployment != null) {
      mergePatch(
          resource(ApiVersions.HIVE, "ClusterDeployment", ns, deploymentName),
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
        resource(
            ApiVersions.HIVE_EXTENSION, "AgentClusterInstall", namespace(install), name(install)),
        new OwnedFieldsPatch()
            .set(state, "status", "debugInfo", "state")
            .set(info, "status", "debugInfo", "stateInfo"));
  }

  // ---- ClusterDeployment ----

  /**
   * assisted-service's finalizer on the ClusterDeployment: on deletion, delete its
   * AgentClusterInstall and wait until that is gone.
   */
  private void reconcileClusterDeployment(GenericKubernetesResource event) {
    GenericKubernetesResource deployment = current(event);
    if (deployment == null) {
      return;
    }
    if (!isDeleting(deployment)) {
      holdFinalizer(deployment, DEPLOYMENT_FINALIZER);
      return;
    }
    String install = Fields.string(deployment, "spec", "clusterInstallRef", "name");
    var target =
        install == null
            ? null
            : resource(
                ApiVersions.HIVE_EXTENSION, "AgentClusterInstall", namespace(deployment), install);
    if (target != null && target.get() != null) {
      target.delete();
      return; // its deletion event brings us back
    }
    releaseFinalizer(deployment, DEPLOYMENT_FINALIZER);
  }

  /** The garbage collector again: the admin kubeconfig goes with its ClusterDeployment. */
  private void collectSecrets(GenericKubernetesResource deployment) {
    client.secrets().inNamespace(namespace(deployment)).list().getItems().stream()
        .filter(s -> isOwnedBy(s, deployment))
        .forEach(s -> client.resource(s).delete());
  }

  // ---- reading ----

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

  /** The Agents bound to the installation's ClusterDeployment (in its namespace, as here). */
  private List<GenericKubernetesResource> boundAgents(GenericKubernetesResource install) {
    String deployment = Fields.string(install, "spec", "clusterDeploymentRef", "name");
    return cachedIn(ApiVersions.AGENT_INSTALL, "Agent", namespace(install)).stream()
        .filter(a -> deployment != null)
        .filter(a -> deployment.equals(Fields.string(a, "spec", "clusterDeploymentName", "name")))
        .filter(
            a -> {
              String ns = Fields.string(a, "spec", "clusterDeploymentName", "namespace");
              return namespace(install).equals(ns == null ? namespace(a) : ns);
            })
        .toList();
  }

  /** Whether the installed cluster runs: its installation finalizing, or done and adding hosts. */
  static boolean clusterIsUp(GenericKubernetesResource install) {
    String state = state(install);
    return "finalizing".equals(state) || "adding-hosts".equals(state);
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

  private void deleteOwnedBy(String apiVersion, String kind, GenericKubernetesResource owner) {
    client
        .genericKubernetesResources(apiVersion, kind)
        .inNamespace(namespace(owner))
        .list()
        .getItems()
        .stream()
        .filter(o -> isOwnedBy(o, owner))
        .forEach(o -> client.resource(o).delete());
  }

  private static boolean isOwnedBy(HasMetadata object, HasMetadata owner) {
    List<OwnerReference> owners = object.getMetadata().getOwnerReferences();
    return owners != null
        && owners.stream().anyMatch(o -> owner.getMetadata().getUid().equals(o.getUid()));
  }

  static OwnerReference ownerReference(HasMetadata owner) {
    return new OwnerReferenceBuilder()
        .withApiVersion(owner.getApiVersion())
        .withKind(owner.getKind())
        .withName(owner.getMetadata().getName())
        .withUid(owner.getMetadata().getUid())
        .withBlockOwnerDeletion(true)
        .build();
  }

  @Override
  public void close() {
    super.close();
    if (api != null) {
      api.close();
    }
  }
}
