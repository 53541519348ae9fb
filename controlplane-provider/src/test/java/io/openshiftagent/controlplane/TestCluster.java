package io.openshiftagent.controlplane;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.Condition;
import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.LabelSelector;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.fabric8.kubernetes.api.model.OwnerReferenceBuilder;
import io.fabric8.kubernetes.api.model.SecretBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.dsl.Resource;
import io.fabric8.kubernetes.client.dsl.base.PatchContext;
import io.fabric8.kubernetes.client.dsl.base.PatchType;
import io.fabric8.kubernetes.client.utils.Serialization;
import io.openshiftagent.api.bootstrap.v1alpha2.BootstrapGroup;
import io.openshiftagent.api.bootstrap.v1alpha2.OpenshiftAssistedConfigSpec;
import io.openshiftagent.api.bootstrap.v1alpha2.OpenshiftAssistedConfigTemplate;
import io.openshiftagent.api.common.Conditions;
import io.openshiftagent.api.common.ContractVersionedObjectReference;
import io.openshiftagent.api.controlplane.v1alpha3.ControlPlaneGroup;
import io.openshiftagent.api.controlplane.v1alpha3.OpenshiftAssistedControlPlane;
import io.openshiftagent.api.external.ExternalKinds;
import io.openshiftagent.api.external.assisted.AgentClusterInstall;
import io.openshiftagent.api.external.capi.Cluster;
import io.openshiftagent.api.external.capi.ClusterSpec;
import io.openshiftagent.api.external.capi.ClusterStatus;
import io.openshiftagent.api.external.capi.Machine;
import io.openshiftagent.api.external.capi.MachineDeployment;
import io.openshiftagent.api.external.capi.MachineReplicas;
import io.openshiftagent.api.external.capi.MachineSpec;
import io.openshiftagent.api.external.capi.MachineTemplateSpec;
import io.openshiftagent.api.external.hive.ClusterDeployment;
import io.openshiftagent.testsupport.KubeApiServerEnvironment;
import io.openshiftagent.testsupport.ReleaseRegistry;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * One cluster of a test in its own namespace. The test plays Cluster API core (owner references,
 * Cluster status, Machine conditions) and assisted-service (AgentClusterInstall status, the admin
 * kubeconfig).
 */
final class TestCluster {
  static final Duration TIMEOUT = Duration.ofSeconds(60);

  final KubernetesClient client;
  final String ns;
  final String name;
  Cluster cluster;

  TestCluster(KubernetesClient client, String ns, String name) {
    this.client = client;
    this.ns = ns;
    this.name = name;
  }

  /**
   * A fresh namespace on {@code env} named after {@code prefix}, holding the infrastructure
   * template the control planes name; its Cluster ({@code capi-<prefix>}) is still to be made.
   */
  static TestCluster templated(KubeApiServerEnvironment env, String prefix) {
    TestCluster c = new TestCluster(env.client(), env.createNamespace(prefix), "capi-" + prefix);
    c.createTemplate(Fixtures.TEMPLATE, "metadata");
    return c;
  }

  /**
   * {@link #templated}, with its Cluster made: it names the control plane {@code cp}, has an
   * endpoint and its infrastructure is provisioned.
   */
  static TestCluster provisioned(KubeApiServerEnvironment env, String prefix) {
    return templated(env, prefix).createCluster("cp", true, true);
  }

  /**
   * A Cluster that references the control plane {@code cpName}; endpoint and infra as given. Also
   * the pull secret the control planes name, with the release registry's credentials.
   */
  TestCluster createCluster(String cpName, boolean endpoint, boolean provisioned) {
    createPullSecret(Fixtures.PULL_SECRET, Fixtures.releases().dockerConfigJson());
    Cluster c = Fixtures.cluster(ns, name);
    c.getSpec().controlPlaneRef =
        new ContractVersionedObjectReference(
            ControlPlaneGroup.GROUP, "OpenshiftAssistedControlPlane", cpName);
    if (endpoint) {
      c.getSpec().controlPlaneEndpoint = new ClusterSpec.ApiEndpoint();
      c.getSpec().controlPlaneEndpoint.host = "api." + name + ".example.com";
      c.getSpec().controlPlaneEndpoint.port = 6443;
    }
    cluster = client.resource(c).create();
    if (provisioned) {
      setInfrastructureProvisioned();
    }
    return this;
  }

  void createPullSecret(String secretName, String dockerConfigJson) {
    client
        .resource(
            new SecretBuilder()
                .withNewMetadata()
                .withName(secretName)
                .withNamespace(ns)
                .endMetadata()
                .withType("kubernetes.io/dockerconfigjson")
                .addToData(
                    ".dockerconfigjson",
                    Base64.getEncoder()
                        .encodeToString(dockerConfigJson.getBytes(StandardCharsets.UTF_8)))
                .build())
        .createOr(existing -> existing.update());
  }

  /**
   * The mirror configuration of a disconnected site ({@code spec.config.imageRegistryRef}): the
   * public release repositories mirrored to {@code mirror} (which holds their digests), trusting
   * {@code caPem}.
   */
  void createMirrorConfig(String configMapName, String mirror, String caPem) {
    String conf =
        "[[registry]]\nlocation = \"quay.io/openshift-release-dev/ocp-release\"\n"
            + "[[registry.mirror]]\nlocation = \""
            + mirror
            + "/"
            + ReleaseRegistry.OCP_REPOSITORY
            + "\"\n"
            + "[[registry]]\nlocation = \"quay.io/okd/scos-release\"\n"
            + "[[registry.mirror]]\nlocation = \""
            + mirror
            + "/"
            + ReleaseRegistry.OKD_REPOSITORY
            + "\"\n";
    client
        .resource(
            new ConfigMapBuilder()
                .withNewMetadata()
                .withName(configMapName)
                .withNamespace(ns)
                .endMetadata()
                .addToData("registries.conf", conf)
                .addToData("ca-bundle.crt", caPem)
                .build())
        .create();
  }

  /** An OpenshiftAssistedConfigTemplate for workers of {@code cpuArchitecture}. */
  void createConfigTemplate(String templateName, String cpuArchitecture) {
    OpenshiftAssistedConfigTemplate template = new OpenshiftAssistedConfigTemplate();
    template.setMetadata(new ObjectMetaBuilder().withName(templateName).withNamespace(ns).build());
    template.setSpec(new OpenshiftAssistedConfigTemplate.Spec());
    template.getSpec().template = new OpenshiftAssistedConfigTemplate.Resource();
    template.getSpec().template.spec = new OpenshiftAssistedConfigSpec();
    template.getSpec().template.spec.cpuArchitecture = cpuArchitecture;
    client.resource(template).create();
  }

  /**
   * A MachineDeployment of the cluster with {@code replicas} workers made from {@code
   * configTemplate} (null: a ready-made bootstrap data Secret).
   */
  void createMachineDeployment(String mdName, int replicas, String configTemplate) {
    MachineDeployment md = new MachineDeployment();
    md.setMetadata(
        new ObjectMetaBuilder()
            .withName(mdName)
            .withNamespace(ns)
            .addToLabels(ExternalKinds.CLUSTER_NAME_LABEL, name)
            .build());
    md.setSpec(new MachineReplicas.Spec());
    md.getSpec().clusterName = name;
    md.getSpec().replicas = replicas;
    md.getSpec().selector = new LabelSelector();
    md.getSpec().template = new MachineTemplateSpec();
    md.getSpec().template.spec = new MachineSpec();
    md.getSpec().template.spec.clusterName = name;
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
            "infrastructure.cluster.x-k8s.io", "Metal3MachineTemplate", "w");
    client.resource(md).create();
  }

  void setEndpoint() {
    cluster =
        client
            .resource(cluster)
            .patch(
                PatchContext.of(PatchType.JSON_MERGE),
                "{\"spec\":{\"controlPlaneEndpoint\":{\"host\":\"api.example.com\",\"port\":6443}}}");
  }

  void setInfrastructureProvisioned() {
    patchClusterStatus(Map.of("initialization", Map.of("infrastructureProvisioned", true)));
  }

  void setFailureDomains(ClusterStatus.FailureDomain... domains) {
    patchClusterStatus(Map.of("failureDomains", List.of(domains)));
  }

  void patchClusterStatus(Map<String, Object> status) {
    cluster =
        client
            .resources(Cluster.class)
            .inNamespace(ns)
            .withName(name)
            .subresource("status")
            .patch(
                PatchContext.of(PatchType.JSON_MERGE),
                Serialization.asJson(Map.of("status", status)));
  }

  void setPaused(boolean paused) {
    cluster =
        client
            .resource(cluster)
            .patch(PatchContext.of(PatchType.JSON_MERGE), "{\"spec\":{\"paused\":" + paused + "}}");
  }

  /** A Metal3MachineTemplate. */
  void createTemplate(String templateName, String cleaningMode) {
    GenericKubernetesResource t = new GenericKubernetesResource();
    t.setApiVersion("infrastructure.cluster.x-k8s.io/v1beta2");
    t.setKind("Metal3MachineTemplate");
    t.setMetadata(new ObjectMetaBuilder().withName(templateName).withNamespace(ns).build());
    t.setAdditionalProperty(
        "spec",
        Map.of(
            "template",
            Map.of(
                "metadata", Map.of("labels", Map.of("from-template", "yes")),
                "spec",
                    Map.of(
                        "customDeploy",
                        Map.of("method", "install_coreos"),
                        "automatedCleaningMode",
                        cleaningMode))));
    client.resource(t).create();
  }

  /** Creates the control plane owned by the Cluster, as Cluster API core would link it. */
  OpenshiftAssistedControlPlane createControlPlane(OpenshiftAssistedControlPlane cp) {
    cp.getMetadata().setOwnerReferences(createControlPlaneOwner());
    return client.resource(cp).create();
  }

  /** The owner reference Cluster API core sets on the control plane. */
  List<io.fabric8.kubernetes.api.model.OwnerReference> createControlPlaneOwner() {
    return List.of(
        new OwnerReferenceBuilder()
            .withApiVersion(ExternalKinds.CAPI_GROUP + "/" + ExternalKinds.CAPI_VERSION)
            .withKind("Cluster")
            .withName(name)
            .withUid(cluster.getMetadata().getUid())
            .build());
  }

  Resource<OpenshiftAssistedControlPlane> controlPlane(String cpName) {
    return client.resources(OpenshiftAssistedControlPlane.class).inNamespace(ns).withName(cpName);
  }

  Optional<Condition> condition(String cpName, String type) {
    OpenshiftAssistedControlPlane cp = controlPlane(cpName).get();
    return cp == null || cp.getStatus() == null
        ? Optional.empty()
        : Conditions.find(cp.getStatus().conditions, type);
  }

  /** Waits until the control plane's condition has {@code reason}; returns it. */
  Condition awaitCondition(String cpName, String type, String reason) {
    await(
        type + " with reason " + reason + " on " + cpName,
        () -> condition(cpName, type).map(c -> reason.equals(c.getReason())).orElse(false));
    return condition(cpName, type).orElseThrow();
  }

  /** Waits until the condition has {@code reason} and its message contains {@code text}. */
  Condition awaitCondition(String cpName, String type, String reason, String text) {
    await(
        type + " with reason " + reason + " and a message with '" + text + "' on " + cpName,
        () ->
            condition(cpName, type)
                .map(c -> reason.equals(c.getReason()) && c.getMessage().contains(text))
                .orElse(false));
    return condition(cpName, type).orElseThrow();
  }

  List<Machine> machines() {
    return client.resources(Machine.class).inNamespace(ns).list().getItems();
  }

  ClusterDeployment clusterDeployment(String cpName) {
    return client.resources(ClusterDeployment.class).inNamespace(ns).withName(cpName).get();
  }

  AgentClusterInstall clusterInstall(String cpName) {
    return client.resources(AgentClusterInstall.class).inNamespace(ns).withName(cpName).get();
  }

  /** Plays assisted-service: sets one condition of the AgentClusterInstall's status. */
  void setClusterInstallCondition(
      String cpName, String type, String status, String reason, String message) {
    patchClusterInstallStatus(
        cpName,
        Map.of(
            "conditions",
            List.of(
                Map.of(
                    "type",
                    type,
                    "status",
                    status,
                    "reason",
                    reason,
                    "message",
                    message,
                    "lastTransitionTime",
                    "2026-01-01T00:00:00Z"))));
  }

  /** Plays assisted-service: sets the AgentClusterInstall's state. */
  void setInstallerState(String cpName, String state, String stateInfo) {
    patchClusterInstallStatus(
        cpName, Map.of("debugInfo", Map.of("state", state, "stateInfo", stateInfo)));
  }

  private void patchClusterInstallStatus(String cpName, Map<String, Object> status) {
    client
        .resources(AgentClusterInstall.class)
        .inNamespace(ns)
        .withName(cpName)
        .subresource("status")
        .patch(
            PatchContext.of(PatchType.JSON_MERGE), Serialization.asJson(Map.of("status", status)));
  }

  /** Plays Cluster API core: the Machine's Ready and Available conditions. */
  void setMachineReady(Machine machine) {
    Map<String, Object> apply =
        Map.of(
            "apiVersion", machine.getApiVersion(),
            "kind", "Machine",
            "metadata", Map.of("name", machine.getMetadata().getName(), "namespace", ns),
            "status", Map.of("conditions", List.of(condition("Ready"), condition("Available"))));
    PatchContext ssa = PatchContext.of(PatchType.SERVER_SIDE_APPLY);
    ssa.setFieldManager("capi-machine-controller");
    ssa.setForce(true);
    client
        .resources(Machine.class)
        .inNamespace(ns)
        .withName(machine.getMetadata().getName())
        .subresource("status")
        .patch(ssa, Serialization.asJson(apply));
  }

  /**
   * Plays a Cluster API controller: server-side applies {@code status} (conditions, nodeRef,
   * nodeInfo...) of the Machine under {@code manager}, which owns exactly what it applies.
   */
  void applyMachineStatus(String machine, String manager, Map<String, Object> status) {
    Map<String, Object> apply =
        Map.of(
            "apiVersion",
            ExternalKinds.CAPI_GROUP + "/" + ExternalKinds.CAPI_VERSION,
            "kind",
            "Machine",
            "metadata",
            Map.of("name", machine, "namespace", ns),
            "status",
            status);
    PatchContext ssa = PatchContext.of(PatchType.SERVER_SIDE_APPLY);
    ssa.setFieldManager(manager);
    ssa.setForce(true);
    client
        .resources(Machine.class)
        .inNamespace(ns)
        .withName(machine)
        .subresource("status")
        .patch(ssa, Serialization.asJson(apply));
  }

  /** A condition as Cluster API writes it. */
  static Map<String, Object> condition(String type, boolean status, String reason) {
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
        Instant.now().truncatedTo(java.time.temporal.ChronoUnit.SECONDS).toString());
  }

  private static Map<String, Object> condition(String type) {
    return condition(type, true, type);
  }

  /**
   * Plays assisted-service once the installation is done: the admin kubeconfig Secret of the
   * installed cluster ({@code workload}) and the install's cluster metadata naming it.
   */
  void publishAdminKubeconfig(String cpName, KubeApiServerEnvironment workload) {
    client
        .resource(
            new SecretBuilder()
                .withNewMetadata()
                .withName(cpName + "-admin-kubeconfig")
                .withNamespace(ns)
                .endMetadata()
                .addToData(
                    "kubeconfig",
                    Base64.getEncoder()
                        .encodeToString(workload.kubeConfigYaml().getBytes(StandardCharsets.UTF_8)))
                .build())
        .create();
    client
        .resources(AgentClusterInstall.class)
        .inNamespace(ns)
        .withName(cpName)
        .patch(
            PatchContext.of(PatchType.JSON_MERGE),
            "{\"spec\":{\"clusterMetadata\":{\"clusterID\":\"id\",\"infraID\":\"infra\","
                + "\"adminKubeconfigSecretRef\":{\"name\":\""
                + cpName
                + "-admin-kubeconfig\"}}}}");
  }

  static void await(String what, java.util.function.Supplier<Boolean> condition) {
    Instant deadline = Instant.now().plus(TIMEOUT);
    while (true) {
      try {
        if (Boolean.TRUE.equals(condition.get())) {
          return;
        }
      } catch (RuntimeException e) {
        // not there yet
      }
      if (Instant.now().isAfter(deadline)) {
        throw new AssertionError("timed out after " + TIMEOUT + " waiting for " + what);
      }
      try {
        Thread.sleep(100);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new AssertionError(e);
      }
    }
  }

  /**
   * Retries {@code assertion} until it passes or the timeout expires (then its failure is thrown).
   */
  static void eventually(Runnable assertion) {
    Instant deadline = Instant.now().plus(TIMEOUT);
    while (true) {
      try {
        assertion.run();
        return;
      } catch (AssertionError | RuntimeException e) {
        if (Instant.now().isAfter(deadline)) {
          throw e;
        }
      }
      try {
        Thread.sleep(100);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new AssertionError(e);
      }
    }
  }

  /** Waits until the operator has reconciled the control plane's current generation. */
  void awaitObserved(String cpName) {
    await(
        "observedGeneration of " + cpName,
        () -> {
          OpenshiftAssistedControlPlane cp = controlPlane(cpName).get();
          return cp.getStatus() != null
              && cp.getMetadata().getGeneration().equals(cp.getStatus().observedGeneration);
        });
    assertThat(controlPlane(cpName).get().getStatus().observedGeneration).isNotNull();
  }
}
