package io.openshiftagent.controlplane;

import com.fasterxml.jackson.core.type.TypeReference;
import io.fabric8.kubernetes.api.model.Condition;
import io.fabric8.kubernetes.api.model.ConditionBuilder;
import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.fabric8.kubernetes.client.utils.Serialization;
import io.javaoperatorsdk.operator.Operator;
import io.openshiftagent.api.bootstrap.v1alpha2.OpenshiftAssistedConfigSpec;
import io.openshiftagent.api.common.ContractVersionedObjectReference;
import io.openshiftagent.api.controlplane.v1alpha3.ClusterConfig;
import io.openshiftagent.api.controlplane.v1alpha3.ControlPlaneMachineTemplate;
import io.openshiftagent.api.controlplane.v1alpha3.OpenshiftAssistedControlPlane;
import io.openshiftagent.api.controlplane.v1alpha3.OpenshiftAssistedControlPlaneSpec;
import io.openshiftagent.api.external.assisted.AgentClusterInstallStatus;
import io.openshiftagent.api.external.capi.Cluster;
import io.openshiftagent.api.external.capi.ClusterSpec;
import io.openshiftagent.api.external.capi.ClusterStatus;
import io.openshiftagent.api.external.capi.Machine;
import io.openshiftagent.api.external.capi.MachineSpec;
import io.openshiftagent.api.external.capi.MachineStatus;
import io.openshiftagent.controlplane.release.HubRegistries;
import io.openshiftagent.controlplane.release.ReleaseImage;
import io.openshiftagent.provider.testing.TestWorld;
import io.openshiftagent.testsupport.CrdInstaller;
import io.openshiftagent.testsupport.KubeApiServerEnvironment;
import io.openshiftagent.testsupport.ReleaseRegistry;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;

/** Objects the tests start from. */
public final class Fixtures {
  public static final String TEMPLATE = "cp-template";

  /** The pull secret the control planes name; {@link #prepared} makes it. */
  public static final String PULL_SECRET = "pull-secret";

  private Fixtures() {}

  /**
   * A fresh namespace on {@code env} named after {@code prefix}, {@link #prepared} for the control
   * planes; its Cluster ({@code capi-<prefix>}) is still to be made.
   */
  public static TestWorld templated(KubeApiServerEnvironment env, String prefix) {
    return prepared(new TestWorld(env, prefix, "capi-" + prefix));
  }

  /**
   * {@link #templated}, with its Cluster made: it names the control plane {@code cp}, has an
   * endpoint and its infrastructure is provisioned.
   */
  public static TestWorld provisioned(KubeApiServerEnvironment env, String prefix) {
    return templated(env, prefix).capi.createCluster("cp", false, true, true);
  }

  /**
   * What the control planes of {@code world} name: the pull secret, with the release registry's
   * credentials, and the infrastructure template.
   */
  public static TestWorld prepared(TestWorld world) {
    world.createPullSecret(PULL_SECRET, releases().dockerConfigJson());
    world.metal3.createTemplate(TEMPLATE, "metadata");
    return world;
  }

  /**
   * The mirror configuration of a disconnected site ({@code spec.config.imageRegistryRef}): the
   * public release repositories mirrored to {@code mirror} (which holds their digests), trusting
   * {@code caPem}.
   */
  public static void createMirrorConfig(
      TestWorld world, String configMapName, String mirror, String caPem) {
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
    world
        .client
        .resource(
            new ConfigMapBuilder()
                .withNewMetadata()
                .withName(configMapName)
                .withNamespace(world.ns)
                .endMetadata()
                .addToData("registries.conf", conf)
                .addToData("ca-bundle.crt", caPem)
                .build())
        .create();
  }

  /** The release images every test installs: a real registry (docs/release-images.md). */
  public static ReleaseRegistry releases() {
    return ReleaseRegistry.shared();
  }

  /** The provider's environment: the release registry's CA as the hub's trusted CA bundle. */
  public static Map<String, String> providerEnvironment() {
    return Map.of(HubRegistries.CA_BUNDLE_ENV, releases().caFile().toString());
  }

  /**
   * The control-plane controller on {@code env}, started (installed clusters looked at every
   * second, the tests' registry trusted), with the Metal3 templates' contract labels in place and
   * the bootstrap provider's finalizer on configs played ({@link BootstrapFinalizerStandIn}).
   */
  public static Operator startProvider(KubeApiServerEnvironment env) {
    CrdInstaller.labelMetal3MachineContracts(env.client());
    BootstrapFinalizerStandIn.ensureRunning(env);
    Operator operator =
        ControlPlaneProvider.create(env.newClient(), Duration.ofSeconds(1), providerEnvironment());
    operator.start();
    return operator;
  }

  /**
   * A control plane of {@code distributionVersion} 4.20.0, whose release images come from the
   * tests' registry (the repository override annotation).
   */
  public static OpenshiftAssistedControlPlane controlPlane(String ns, String name, int replicas) {
    OpenshiftAssistedControlPlane cp = new OpenshiftAssistedControlPlane();
    cp.setMetadata(
        new ObjectMetaBuilder()
            .withName(name)
            .withNamespace(ns)
            .addToAnnotations(
                ReleaseImage.REPOSITORY_OVERRIDE_ANNOTATION, releases().ocpRepository())
            .build());
    OpenshiftAssistedControlPlaneSpec spec = new OpenshiftAssistedControlPlaneSpec();
    spec.distributionVersion = "4.20.0";
    spec.replicas = replicas;
    spec.machineTemplate = new ControlPlaneMachineTemplate();
    spec.machineTemplate.spec = new ControlPlaneMachineTemplate.MachineSpecTemplate();
    spec.machineTemplate.spec.infrastructureRef =
        new ContractVersionedObjectReference(
            "infrastructure.cluster.x-k8s.io", "Metal3MachineTemplate", TEMPLATE);
    spec.openshiftAssistedConfigSpec = new OpenshiftAssistedConfigSpec();
    spec.openshiftAssistedConfigSpec.sshAuthorizedKey = "ssh-ed25519 AAAA discovery";
    spec.config = new ClusterConfig();
    spec.config.baseDomain = "example.com";
    spec.config.pullSecretRef = new io.openshiftagent.api.common.LocalObjectReference(PULL_SECRET);
    cp.setSpec(spec);
    return cp;
  }

  public static Cluster cluster(String ns, String name) {
    Cluster cluster = new Cluster();
    cluster.setMetadata(new ObjectMetaBuilder().withName(name).withNamespace(ns).build());
    cluster.setSpec(new ClusterSpec());
    cluster.getSpec().clusterNetwork = new ClusterSpec.ClusterNetwork();
    cluster.getSpec().clusterNetwork.pods = new ClusterSpec.NetworkRanges();
    cluster.getSpec().clusterNetwork.pods.cidrBlocks = List.of("10.128.0.0/14");
    cluster.getSpec().clusterNetwork.services = new ClusterSpec.NetworkRanges();
    cluster.getSpec().clusterNetwork.services.cidrBlocks = List.of("172.30.0.0/16");
    return cluster;
  }

  public static ClusterStatus.FailureDomain failureDomain(String name, boolean controlPlane) {
    ClusterStatus.FailureDomain fd = new ClusterStatus.FailureDomain();
    fd.name = name;
    fd.controlPlane = controlPlane;
    return fd;
  }

  public static Machine machine(String name, String created, String failureDomain) {
    Machine m = new Machine();
    m.setMetadata(new ObjectMetaBuilder().withName(name).withCreationTimestamp(created).build());
    m.setSpec(new MachineSpec());
    m.getSpec().failureDomain = failureDomain;
    return m;
  }

  /** The names of {@code machines}. */
  public static Set<String> names(List<Machine> machines) {
    return machines.stream().map(m -> m.getMetadata().getName()).collect(Collectors.toSet());
  }

  public static Condition condition(String type, String status) {
    return condition(
        type, status, type.equals("Ready") && status.equals("True") ? "Ready" : "Test", "");
  }

  public static Condition condition(String type, String status, String reason, String message) {
    return new ConditionBuilder()
        .withType(type)
        .withStatus(status)
        .withReason(reason)
        .withMessage(message)
        .withLastTransitionTime("2026-01-01T00:00:00Z")
        .build();
  }

  /**
   * An AgentClusterInstall's RequirementsMet condition as assisted-service writes it: True only
   * with {@code ClusterIsReady}.
   */
  public static Condition requirementsMet(String reason) {
    return new ConditionBuilder()
        .withType("RequirementsMet")
        .withStatus("ClusterIsReady".equals(reason) ? "True" : "False")
        .withReason(reason)
        .build();
  }

  public static void setReady(Machine m) {
    m.setStatus(new MachineStatus());
    m.getStatus().conditions = List.of(condition("Ready", "True"), condition("Available", "True"));
  }

  /** AgentClusterInstall validations (by category) from the JSON form assisted-service writes. */
  public static Map<String, List<AgentClusterInstallStatus.Validation>> validations(
      Map<String, ?> raw) {
    return Serialization.jsonMapper().convertValue(raw, new TypeReference<>() {});
  }
}
