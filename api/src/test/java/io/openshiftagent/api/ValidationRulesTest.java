package io.openshiftagent.api;

import static io.openshiftagent.api.Manifests.REMOVE;
import static io.openshiftagent.api.Manifests.with;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.openshiftagent.testsupport.KubeApiServerEnvironment;
import io.openshiftagent.testsupport.WithKubeApiServer;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.UnaryOperator;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Every validation rule in our CRDs, checked on the real API server: a bad input is rejected with a
 * message that names the field and says what is allowed, and the matching good input is accepted.
 */
@WithKubeApiServer
class ValidationRulesTest {
  private static final AtomicInteger NAMES = new AtomicInteger();
  private static KubernetesClient client;
  private static String ns;
  private static GenericKubernetesResource controlPlane;
  private static GenericKubernetesResource config;
  private static GenericKubernetesResource controlPlaneTemplate;

  @BeforeAll
  static void setUp(KubeApiServerEnvironment env) {
    client = env.client();
    ns = env.createNamespace("validation");
    controlPlane =
        Manifests.find(
            Manifests.load(client, "manifests/multinode.yaml"), "OpenshiftAssistedControlPlane");
    config = new GenericKubernetesResource();
    config.setApiVersion("bootstrap.cluster.x-k8s.io/v1alpha2");
    config.setKind("OpenshiftAssistedConfig");
    config.setMetadata(new io.fabric8.kubernetes.api.model.ObjectMeta());
    config.setAdditionalProperty(
        "spec",
        Map.of("pullSecretRef", Map.of("name", "pull-secret"), "cpuArchitecture", "x86_64"));
    controlPlaneTemplate = new GenericKubernetesResource();
    controlPlaneTemplate.setApiVersion("controlplane.cluster.x-k8s.io/v1alpha3");
    controlPlaneTemplate.setKind("OpenshiftAssistedControlPlaneTemplate");
    controlPlaneTemplate.setMetadata(new io.fabric8.kubernetes.api.model.ObjectMeta());
    controlPlaneTemplate.setAdditionalProperty(
        "spec",
        Map.of("template", Map.of("spec", Map.of("config", Map.of("baseDomain", "example.com")))));
  }

  /** A rule, a bad input with the fragments its rejection must contain, and a good input. */
  record Rule(
      String name,
      GenericKubernetesResource base,
      UnaryOperator<GenericKubernetesResource> bad,
      List<String> expectedMessage,
      UnaryOperator<GenericKubernetesResource> good) {
    @Override
    public String toString() {
      return name;
    }
  }

  static Stream<Arguments> rules() {
    return Stream.of(
            new Rule(
                "control-plane replicas must be 1, 3, 4 or 5",
                controlPlane,
                cp -> with(cp, "spec.replicas", 2),
                List.of("spec.replicas", "must be 1 (single-node OpenShift) or 3, 4 or 5"),
                cp -> with(cp, "spec.replicas", 5)),
            new Rule(
                "zero control-plane replicas are refused",
                controlPlane,
                cp -> with(cp, "spec.replicas", 0),
                List.of("spec.replicas", "must be 1 (single-node OpenShift)"),
                cp -> with(cp, "spec.replicas", 1)),
            new Rule(
                "API and ingress VIPs come together",
                controlPlane,
                cp -> with(cp, "spec.config.ingressVIPs", REMOVE),
                List.of(
                    "spec.config", "apiVIPs and spec.config.ingressVIPs must be given together"),
                cp ->
                    with(
                        with(cp, "spec.config.ingressVIPs", REMOVE),
                        "spec.config.apiVIPs",
                        REMOVE)),
            new Rule(
                "at most two VIPs",
                controlPlane,
                cp -> with(cp, "spec.config.apiVIPs", List.of("10.0.0.1", "fd00::1", "10.0.0.2")),
                List.of("spec.config.apiVIPs", "must have at most 2 items"),
                cp -> with(cp, "spec.config.apiVIPs", List.of("10.0.0.1", "fd00::1"))),
            new Rule(
                "two VIPs are one IPv4 and one IPv6",
                controlPlane,
                cp -> with(cp, "spec.config.ingressVIPs", List.of("10.0.0.1", "10.0.0.2")),
                List.of("spec.config.ingressVIPs", "at most one IPv4 and one IPv6"),
                cp -> with(cp, "spec.config.ingressVIPs", List.of("10.0.0.1", "fd00::2"))),
            new Rule(
                "VIPs are IP addresses",
                controlPlane,
                cp -> with(cp, "spec.config.apiVIPs", List.of("api.example.com")),
                List.of("spec.config.apiVIPs", "must be IP addresses"),
                cp -> with(cp, "spec.config.apiVIPs", List.of("fd00::10"))),
            new Rule(
                "distributionVersion is OpenShift 4.14 or later",
                controlPlane,
                cp -> with(cp, "spec.distributionVersion", "4.13.9"),
                List.of("spec.distributionVersion", "OpenShift version 4.14 or later"),
                cp -> with(cp, "spec.distributionVersion", "4.14.0")),
            new Rule(
                "distributionVersion is a version",
                controlPlane,
                cp -> with(cp, "spec.distributionVersion", "latest"),
                List.of("spec.distributionVersion", "in the form X.Y.Z"),
                cp -> with(cp, "spec.distributionVersion", "4.19.0-okd-scos.ec.6")),
            new Rule(
                "baseDomain is a DNS name",
                controlPlane,
                cp -> with(cp, "spec.config.baseDomain", "Lab_Home"),
                List.of("spec.config.baseDomain", "must be a DNS name"),
                cp -> with(cp, "spec.config.baseDomain", "sub.lab-1.example.com")),
            new Rule(
                "baseDomain is required",
                controlPlane,
                cp -> with(cp, "spec.config.baseDomain", REMOVE),
                List.of("spec.config.baseDomain", "Required value"),
                cp -> cp),
            new Rule(
                "an infrastructure template is required",
                controlPlane,
                cp -> with(cp, "spec.machineTemplate.infrastructureRef", REMOVE),
                List.of(
                    "spec.machineTemplate",
                    "spec.machineTemplate.spec.infrastructureRef",
                    "is required"),
                cp ->
                    with(
                        with(cp, "spec.machineTemplate.infrastructureRef", REMOVE),
                        "spec.machineTemplate.spec.infrastructureRef",
                        Map.of(
                            "apiGroup", "infrastructure.cluster.x-k8s.io",
                            "kind", "Metal3MachineTemplate",
                            "name", "cp"))),
            new Rule(
                "both infrastructure template layouts must agree",
                controlPlane,
                cp ->
                    with(
                        cp,
                        "spec.machineTemplate.spec.infrastructureRef",
                        Map.of(
                            "apiGroup", "infrastructure.cluster.x-k8s.io",
                            "kind", "Metal3MachineTemplate",
                            "name", "other")),
                List.of("spec.machineTemplate", "must be equal when both are set"),
                cp ->
                    with(
                        cp,
                        "spec.machineTemplate.spec.infrastructureRef",
                        Map.of(
                            "apiGroup", "infrastructure.cluster.x-k8s.io",
                            "kind", "Metal3MachineTemplate",
                            "name", "test-multinode-controlplane"))),
            new Rule(
                "spec.version matches the OpenShift minor",
                controlPlane,
                cp -> with(cp, "spec.version", "v1.30.4"),
                List.of(
                    "spec",
                    "spec.version must be the Kubernetes version of spec.distributionVersion"),
                cp -> with(cp, "spec.version", "v1.33.5")),
            new Rule(
                "networkType is a known plugin",
                controlPlane,
                cp -> with(cp, "spec.config.networkType", "Flannel"),
                List.of("spec.config.networkType", "must be one of OVNKubernetes"),
                cp -> with(cp, "spec.config.networkType", "Cilium")),
            new Rule(
                "machine networks are CIDRs",
                controlPlane,
                cp -> with(cp, "spec.config.machineNetworks", List.of("192.168.222.0")),
                List.of("spec.config.machineNetworks", "must be CIDRs"),
                cp ->
                    with(
                        cp,
                        "spec.config.machineNetworks",
                        List.of("192.168.222.0/24", "fd00::/64"))),
            new Rule(
                "hostPrefix is within IPv4 bounds",
                controlPlane,
                cp -> with(cp, "spec.config.clusterNetworkHostPrefix", 31),
                List.of(
                    "spec.config.clusterNetworkHostPrefix", "should be less than or equal to 30"),
                cp -> with(cp, "spec.config.clusterNetworkHostPrefix", 24)),
            new Rule(
                "baseline capability is None, vCurrent or v4.N",
                controlPlane,
                cp -> with(cp, "spec.config.capabilities", Map.of("baselineCapability", "v5")),
                List.of("spec.config.capabilities.baselineCapability", "None, vCurrent or v4.N"),
                cp -> with(cp, "spec.config.capabilities", Map.of("baselineCapability", "v4.16"))),
            new Rule(
                "proxies are http:// URLs, as assisted-service takes them",
                controlPlane,
                cp ->
                    with(
                        cp,
                        "spec.config.proxy",
                        Map.of("httpsProxy", "https://proxy.example.com:3128")),
                List.of("spec.config.proxy.httpsProxy", "must be an http:// URL"),
                cp ->
                    with(
                        cp,
                        "spec.config.proxy",
                        Map.of(
                            "httpProxy", "http://proxy.example.com:3128",
                            "httpsProxy", "http://proxy.example.com:3128",
                            "noProxy", ".example.com,192.168.111.0/24"))),
            new Rule(
                "an HTTP proxy is an http:// URL",
                controlPlane,
                cp -> with(cp, "spec.config.proxy", Map.of("httpProxy", "proxy.example.com:3128")),
                List.of("spec.config.proxy.httpProxy", "must be an http:// URL"),
                cp -> with(cp, "spec.config.proxy", Map.of("httpProxy", "http://10.0.0.1:3128"))),
            new Rule(
                "disk encryption mode is tpmv2 or tang",
                controlPlane,
                cp ->
                    with(
                        cp,
                        "spec.config.diskEncryption",
                        Map.of("enableOn", "all", "mode", "luks")),
                List.of("spec.config.diskEncryption.mode", "must be tpmv2 or tang"),
                cp ->
                    with(
                        cp,
                        "spec.config.diskEncryption",
                        Map.of("enableOn", "masters,workers", "mode", "tpmv2"))),
            new Rule(
                "kernel argument operation is append, replace or delete",
                config,
                c ->
                    with(
                        c,
                        "spec.kernelArguments",
                        List.of(Map.of("operation", "prepend", "value", "console=ttyS0"))),
                List.of(
                    "spec.kernelArguments[0].operation", "\"append\"", "\"delete\"", "\"replace\""),
                c ->
                    with(
                        c,
                        "spec.kernelArguments",
                        List.of(Map.of("operation", "replace", "value", "console=ttyS1")))),
            new Rule(
                "boot mode is LiveISO or DiskImage",
                config,
                c -> with(c, "spec.bootMode", "PXE"),
                List.of("spec.bootMode", "\"DiskImage\"", "\"LiveISO\""),
                c -> with(c, "spec.bootMode", "DiskImage")),
            new Rule(
                "sentinel directory is absolute",
                config,
                c -> with(c, "spec.bootstrapCommandSentinelDir", "var/lib/capoa"),
                List.of("spec.bootstrapCommandSentinelDir", "must be an absolute path"),
                c -> with(c, "spec.bootstrapCommandSentinelDir", "/var/lib/capoa")),
            new Rule(
                "sentinel directory has no '..' segment",
                config,
                c -> with(c, "spec.bootstrapCommandSentinelDir", "/var/lib/../../etc"),
                List.of("spec.bootstrapCommandSentinelDir", "without '..' segments"),
                c -> with(c, "spec.bootstrapCommandSentinelDir", "/var/lib/..hidden/capoa")),
            new Rule(
                "post-bootstrap kubeconfig path is safe",
                config,
                c -> with(c, "spec.postBootstrapKubeconfigPath", "/var/lib/kubelet/$(id)"),
                List.of("spec.postBootstrapKubeconfigPath", "must be an absolute path"),
                c -> with(c, "spec.postBootstrapKubeconfigPath", "/var/lib/kubelet/kubeconfig")),
            new Rule(
                "CPU architecture is one assisted-service supports",
                config,
                c -> with(c, "spec.cpuArchitecture", "sparc"),
                List.of("spec.cpuArchitecture", "must be one of x86_64, aarch64"),
                c -> with(c, "spec.cpuArchitecture", "aarch64")),
            new Rule(
                "kubelet labels are key=value",
                config,
                c ->
                    with(
                        c,
                        "spec.nodeRegistration",
                        Map.of("kubeletExtraLabels", List.of("novalue"))),
                List.of("spec.nodeRegistration.kubeletExtraLabels", "must have the form key=value"),
                c ->
                    with(
                        c,
                        "spec.nodeRegistration",
                        Map.of("kubeletExtraLabels", List.of("a=b", "c=")))),
            // Found by BadInputAdmissionTest: admitted, then refused in the InfraEnv it is copied
            // to.
            new Rule(
                "label selector expressions have a key and an operator",
                config,
                c ->
                    with(
                        c,
                        "spec.nmStateConfigLabelSelector",
                        Map.of("matchExpressions", List.of(Map.of("operator", "Exists")))),
                List.of(
                    "spec.nmStateConfigLabelSelector.matchExpressions[0].key", "Required value"),
                c ->
                    with(
                        c,
                        "spec.nmStateConfigLabelSelector",
                        Map.of(
                            "matchExpressions",
                            List.of(Map.of("key", "nmstate", "operator", "Exists"))))),
            new Rule(
                "label selector operators are Kubernetes' own",
                config,
                c ->
                    with(
                        c,
                        "spec.nmStateConfigLabelSelector",
                        Map.of("matchExpressions", List.of(Map.of("key", "k", "operator", "in")))),
                List.of(
                    "spec.nmStateConfigLabelSelector.matchExpressions[0].operator",
                    "\"In\"",
                    "\"DoesNotExist\""),
                c ->
                    with(
                        c,
                        "spec.nmStateConfigLabelSelector",
                        Map.of(
                            "matchExpressions",
                            List.of(
                                Map.of("key", "k", "operator", "NotIn", "values", List.of("a")))))),
            // Found by BadInputAdmissionTest: each within its bound, together too large for etcd.
            new Rule(
                "trust bundle and bootstrap commands share one size budget",
                config,
                c ->
                    with(
                        with(c, "spec.additionalTrustBundle", "A".repeat(600_000)),
                        "spec.preBootstrapCommands",
                        java.util.Collections.nCopies(30, "b".repeat(16384))),
                List.of("spec", "may hold at most 1048576 characters together"),
                c ->
                    with(
                        with(c, "spec.additionalTrustBundle", "A".repeat(600_000)),
                        "spec.preBootstrapCommands",
                        java.util.Collections.nCopies(20, "b".repeat(16384)))),
            // Found by BadInputReconcileTest: admitted, then never read by the provider.
            new Rule(
                "distributionVersion numbers fit 32 bits",
                controlPlane,
                cp -> with(cp, "spec.distributionVersion", "4.14.4294967296"),
                List.of("spec.distributionVersion", "may be at most 2147483647"),
                cp -> with(cp, "spec.distributionVersion", "4.21.2147483647")),
            // Found by BadInputReconcileTest: a larger number stopped the provider's informer.
            new Rule(
                "deletion timeouts fit Cluster API's int32",
                controlPlane,
                cp ->
                    with(
                        cp,
                        "spec.machineTemplate.deletion",
                        Map.of("nodeDrainTimeoutSeconds", 1L << 40)),
                List.of(
                    "spec.machineTemplate.deletion.nodeDrainTimeoutSeconds",
                    "should be less than or equal to 2147483647"),
                cp ->
                    with(
                        cp,
                        "spec.machineTemplate.deletion",
                        Map.of("nodeDrainTimeoutSeconds", Integer.MAX_VALUE))),
            new Rule(
                "a rolling update needs a highly available control plane (maxSurge 0)",
                controlPlane,
                cp -> with(with(cp, "spec.replicas", 1), "spec.rollout", rollingUpdate(0)),
                List.of(
                    "spec",
                    "spec.rollout.strategy.type RollingUpdate needs spec.replicas of 3 or more",
                    "maxSurge 0 would delete its only node"),
                cp -> with(with(cp, "spec.replicas", 3), "spec.rollout", rollingUpdate(0))),
            new Rule(
                "a rolling update needs a highly available control plane (replicas unset)",
                controlPlane,
                cp -> with(with(cp, "spec.replicas", REMOVE), "spec.rollout", rollingUpdate(1)),
                List.of("spec.rollout.strategy.type RollingUpdate needs spec.replicas of 3"),
                cp ->
                    with(
                        with(cp, "spec.replicas", REMOVE),
                        "spec.rollout",
                        Map.of("strategy", Map.of("type", "OnDelete")))),
            new Rule(
                "maxSurge is 0 or 1",
                controlPlane,
                cp -> with(cp, "spec.rollout", rollingUpdate(2)),
                List.of(
                    "spec.rollout.strategy.rollingUpdate.maxSurge",
                    "should be less than or equal to 1"),
                cp -> with(cp, "spec.rollout", rollingUpdate(1))),
            new Rule(
                "rollingUpdate goes with the RollingUpdate strategy only",
                controlPlane,
                cp ->
                    with(
                        cp,
                        "spec.rollout",
                        Map.of(
                            "strategy",
                            Map.of("type", "OnDelete", "rollingUpdate", Map.of("maxSurge", 0)))),
                List.of(
                    "spec.rollout.strategy",
                    "rollingUpdate is allowed only with type RollingUpdate"),
                cp -> with(cp, "spec.rollout", Map.of("strategy", Map.of("type", "OnDelete")))),
            new Rule(
                "the rollout strategy is OnDelete or RollingUpdate",
                controlPlane,
                cp -> with(cp, "spec.rollout", Map.of("strategy", Map.of("type", "Recreate"))),
                List.of("spec.rollout.strategy.type", "\"OnDelete\"", "\"RollingUpdate\""),
                cp ->
                    with(cp, "spec.rollout", Map.of("strategy", Map.of("type", "RollingUpdate")))),
            new Rule(
                "rollout.after is a time",
                controlPlane,
                cp -> with(cp, "spec.rollout", Map.of("after", "next tuesday")),
                List.of("spec.rollout.after", "date-time"),
                cp -> with(cp, "spec.rollout", Map.of("after", "2026-03-09T09:00:00Z"))),
            new Rule(
                "remediation needs a highly available control plane",
                controlPlane,
                cp -> with(with(cp, "spec.replicas", 1), "spec.remediation", Map.of("maxRetry", 2)),
                List.of("spec", "spec.remediation needs spec.replicas of 3 or more"),
                cp -> with(cp, "spec.remediation", Map.of("maxRetry", 2))),
            new Rule(
                "a user-managed load balancer needs a highly available control plane",
                controlPlane,
                cp ->
                    with(
                        with(cp, "spec.replicas", 1),
                        "spec.config.loadBalancer",
                        Map.of("type", "UserManaged")),
                List.of("spec", "loadBalancer.type UserManaged needs spec.replicas of 3 or more"),
                cp -> with(cp, "spec.config.loadBalancer", Map.of("type", "UserManaged"))),
            new Rule(
                "a user-managed load balancer needs the VIPs it answers at",
                controlPlane,
                cp -> withoutVips(cp, "UserManaged"),
                List.of(
                    "spec.config",
                    "loadBalancer.type UserManaged needs spec.config.apiVIPs and"
                        + " spec.config.ingressVIPs"),
                cp -> withoutVips(cp, "ClusterManaged")),
            new Rule(
                "the load balancer is ClusterManaged or UserManaged",
                controlPlane,
                cp -> with(cp, "spec.config.loadBalancer", Map.of("type", "External")),
                List.of("spec.config.loadBalancer.type", "must be ClusterManaged or UserManaged"),
                cp -> with(cp, "spec.config.loadBalancer", Map.of("type", "ClusterManaged"))),
            new Rule(
                "remediation periods are not negative",
                controlPlane,
                cp -> with(cp, "spec.remediation", Map.of("retryPeriodSeconds", -1)),
                List.of(
                    "spec.remediation.retryPeriodSeconds", "should be greater than or equal to 0"),
                cp ->
                    with(
                        cp,
                        "spec.remediation",
                        Map.of("retryPeriodSeconds", 0, "minHealthyPeriodSeconds", 600))),
            new Rule(
                "taint keys reserved by Kubernetes and Cluster API are refused",
                controlPlane,
                cp ->
                    with(
                        cp,
                        "spec.machineTemplate.spec",
                        machineSpecWithTaints(
                            taint("node.kubernetes.io/unreachable", "NoExecute"))),
                List.of("spec.machineTemplate.spec.taints[0]", "the taint key is reserved"),
                cp ->
                    with(
                        cp,
                        "spec.machineTemplate.spec",
                        machineSpecWithTaints(
                            taint("node.kubernetes.io/out-of-service", "NoExecute"),
                            taint("example.com/dedicated", "NoSchedule")))),
            new Rule(
                "a taint is keyed by key and effect",
                controlPlane,
                cp ->
                    with(
                        cp,
                        "spec.machineTemplate.spec",
                        machineSpecWithTaints(
                            taint("example.com/dedicated", "NoSchedule"),
                            taint("example.com/dedicated", "NoSchedule"))),
                List.of("spec.machineTemplate.spec.taints[1]", "Duplicate value"),
                cp ->
                    with(
                        cp,
                        "spec.machineTemplate.spec",
                        machineSpecWithTaints(
                            taint("example.com/dedicated", "NoSchedule"),
                            taint("example.com/dedicated", "NoExecute")))),
            new Rule(
                "a taint's effect is one Kubernetes knows",
                controlPlane,
                cp ->
                    with(
                        cp,
                        "spec.machineTemplate.spec",
                        machineSpecWithTaints(taint("example.com/dedicated", "NoRun"))),
                List.of("spec.machineTemplate.spec.taints[0].effect", "\"PreferNoSchedule\""),
                cp ->
                    with(
                        cp,
                        "spec.machineTemplate.spec",
                        machineSpecWithTaints(taint("example.com/dedicated", "PreferNoSchedule")))),
            new Rule(
                "minReadySeconds is not negative",
                controlPlane,
                cp ->
                    with(
                        cp,
                        "spec.machineTemplate.spec",
                        Map.of("infrastructureRef", infrastructureRef(), "minReadySeconds", -5)),
                List.of(
                    "spec.machineTemplate.spec.minReadySeconds",
                    "should be greater than or equal to 0"),
                cp ->
                    with(
                        cp,
                        "spec.machineTemplate.spec",
                        Map.of("infrastructureRef", infrastructureRef(), "minReadySeconds", 30))),
            new Rule(
                "a template's maxSurge is 0 or 1",
                controlPlaneTemplate,
                t -> with(t, "spec.template.spec.rollout", rollingUpdate(3)),
                List.of(
                    "spec.template.spec.rollout.strategy.rollingUpdate.maxSurge",
                    "should be less than or equal to 1"),
                t -> with(t, "spec.template.spec.rollout", rollingUpdate(0))),
            // Found by BadInputAdmissionTest: the template took versions the control plane refuses.
            new Rule(
                "a template's distributionVersion is checked like the control plane's",
                controlPlaneTemplate,
                t -> with(t, "spec.template.spec.distributionVersion", "4.13.0"),
                List.of(
                    "spec.template.spec.distributionVersion", "OpenShift version 4.14 or later"),
                t -> with(t, "spec.template.spec.distributionVersion", "4.16.2")))
        .map(Arguments::of);
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("rules")
  void badInputIsRejectedWithItsMessageAndGoodInputIsAccepted(Rule rule) {
    GenericKubernetesResource bad = named(rule.bad().apply(rule.base()));
    assertThatThrownBy(() -> client.resource(bad).inNamespace(ns).create())
        .isInstanceOf(KubernetesClientException.class)
        .satisfies(e -> assertThat(((KubernetesClientException) e).getCode()).isEqualTo(422))
        .hasMessageContainingAll(rule.expectedMessage().toArray(String[]::new));

    GenericKubernetesResource good = named(rule.good().apply(rule.base()));
    assertThat(client.resource(good).inNamespace(ns).create().getMetadata().getUid()).isNotBlank();
  }

  /** A control plane of platform None whose load balancer is {@code type}. */
  private static GenericKubernetesResource withoutVips(GenericKubernetesResource cp, String type) {
    GenericKubernetesResource none =
        with(with(cp, "spec.config.apiVIPs", REMOVE), "spec.config.ingressVIPs", REMOVE);
    return with(none, "spec.config.loadBalancer", Map.of("type", type));
  }

  @Test
  void bootstrapConfigSpecIsImmutableButMetadataIsNot() {
    GenericKubernetesResource created = client.resource(named(config)).inNamespace(ns).create();

    GenericKubernetesResource changedSpec =
        with(created, "spec.sshAuthorizedKey", "ssh-ed25519 AAAA other");
    assertThatThrownBy(() -> client.resource(changedSpec).inNamespace(ns).update())
        .isInstanceOf(KubernetesClientException.class)
        .hasMessageContainingAll("spec", "spec is immutable");

    created.getMetadata().setLabels(Map.of("team", "edge"));
    assertThat(client.resource(created).inNamespace(ns).update().getMetadata().getLabels())
        .containsEntry("team", "edge");
  }

  @Test
  void distributionVersionNoReleaseWasResolvedForCanBeLowered() {
    GenericKubernetesResource created =
        client
            .resource(with(named(controlPlane), "spec.distributionVersion", "4.99.0"))
            .inNamespace(ns)
            .create();

    GenericKubernetesResource corrected = with(created, "spec.distributionVersion", "4.20.0");
    assertThat(client.resource(corrected).inNamespace(ns).update().getAdditionalProperties())
        .extracting(p -> ((Map<?, ?>) p.get("spec")).get("distributionVersion"))
        .isEqualTo("4.20.0");
  }

  @Test
  void distributionVersionCanBeRaisedButNotLoweredOnceAReleaseWasResolved() {
    GenericKubernetesResource resolved =
        client
            .resource(
                with(
                    client.resource(named(controlPlane)).inNamespace(ns).create(),
                    "status.releaseImage",
                    Map.of("requested", "quay.io/openshift-release-dev/ocp-release:4.20.0-x86_64")))
            .inNamespace(ns)
            .updateStatus();

    GenericKubernetesResource lowered = with(resolved, "spec.distributionVersion", "4.19.12");
    assertThatThrownBy(() -> client.resource(lowered).inNamespace(ns).update())
        .isInstanceOf(KubernetesClientException.class)
        .satisfies(e -> assertThat(((KubernetesClientException) e).getCode()).isEqualTo(422))
        .hasMessageContainingAll(
            "spec.distributionVersion", "cannot be lowered", "status.releaseImage");

    GenericKubernetesResource raised = with(resolved, "spec.distributionVersion", "4.20.3");
    assertThat(client.resource(raised).inNamespace(ns).update().getAdditionalProperties())
        .extracting(p -> ((Map<?, ?>) p.get("spec")).get("distributionVersion"))
        .isEqualTo("4.20.3");
  }

  private static Map<String, Object> rollingUpdate(int maxSurge) {
    return Map.of(
        "strategy", Map.of("type", "RollingUpdate", "rollingUpdate", Map.of("maxSurge", maxSurge)));
  }

  private static Map<String, Object> infrastructureRef() {
    return Map.of(
        "apiGroup", "infrastructure.cluster.x-k8s.io",
        "kind", "Metal3MachineTemplate",
        "name", "test-multinode-controlplane");
  }

  @SafeVarargs
  private static Map<String, Object> machineSpecWithTaints(Map<String, Object>... taints) {
    return Map.of("infrastructureRef", infrastructureRef(), "taints", List.of(taints));
  }

  private static Map<String, Object> taint(String key, String effect) {
    return Map.of("key", key, "effect", effect, "propagation", "Always");
  }

  @Test
  void clusterDeploymentFieldsChangeUntilTheClusterIsInstalled() {
    GenericKubernetesResource created =
        client.resource(named(controlPlane)).inNamespace(ns).create();
    // Not installed yet: the ClusterDeployment can still follow.
    GenericKubernetesResource before =
        client
            .resource(
                with(
                    with(created, "spec.config.baseDomain", "before.example.com"),
                    "spec.config.clusterName",
                    "renamed"))
            .inNamespace(ns)
            .update();

    GenericKubernetesResource installed =
        client
            .resource(
                with(before, "status.initialization", Map.of("controlPlaneInitialized", true)))
            .inNamespace(ns)
            .updateStatus();

    for (UnaryOperator<GenericKubernetesResource> change :
        List.<UnaryOperator<GenericKubernetesResource>>of(
            cp -> with(cp, "spec.config.baseDomain", "after.example.com"),
            cp -> with(cp, "spec.config.clusterName", "other"),
            cp -> with(cp, "spec.config.clusterName", REMOVE),
            cp -> with(cp, "spec.config.pullSecretRef", Map.of("name", "other-pull-secret")))) {
      GenericKubernetesResource changed = change.apply(installed);
      assertThatThrownBy(() -> client.resource(changed).inNamespace(ns).update())
          .isInstanceOf(KubernetesClientException.class)
          .satisfies(e -> assertThat(((KubernetesClientException) e).getCode()).isEqualTo(422))
          .hasMessageContainingAll(
              "spec.config", "cannot change once the cluster is installed", "Hive");
    }
    // Everything else still changes, and so does the status.
    GenericKubernetesResource raised = with(installed, "spec.distributionVersion", "4.20.3");
    assertThat(client.resource(raised).inNamespace(ns).update().getAdditionalProperties())
        .extracting(p -> ((Map<?, ?>) p.get("spec")).get("distributionVersion"))
        .isEqualTo("4.20.3");
  }

  private static GenericKubernetesResource named(GenericKubernetesResource object) {
    GenericKubernetesResource copy = io.fabric8.kubernetes.client.utils.Serialization.clone(object);
    copy.getMetadata().setName("v-" + NAMES.incrementAndGet());
    copy.getMetadata().setNamespace(ns);
    copy.getMetadata().setResourceVersion(null);
    copy.getMetadata().setUid(null);
    return copy;
  }
}
