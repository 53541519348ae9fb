package io.openshiftagent.delivery;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.dsl.base.ResourceDefinitionContext;
import io.openshiftagent.testsupport.Command;
import io.openshiftagent.testsupport.CrdInstaller;
import io.openshiftagent.testsupport.KubeApiServerEnvironment;
import io.openshiftagent.testsupport.TestPaths;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.io.TempDir;

/**
 * The real clusterctl on an empty management cluster (its own kube-apiserver), all from local file
 * repositories: {@code clusterctl init} installs the previous release of our providers next to
 * Cluster API core and Metal3, a cluster's objects are created, {@code clusterctl upgrade apply}
 * takes our providers to this release, the templates (the topology flavor with its ClusterClass
 * too) render and are accepted, and {@code clusterctl delete} removes our providers last. The
 * previous release is this tree released as {@link #PREVIOUS} (no older release of ours exists to
 * take it from): the upgrade replaces every component and changes the images.
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class ClusterctlTest {
  private static final String PREVIOUS = "0.0.9";
  private static final String CAPI_VERSION = "v1.14.0";
  private static final String CAPM3_VERSION = "v1.13.2";

  /** What clusterctl needs of cert-manager before it installs a provider. */
  private static final List<String> CERT_MANAGER_CRDS =
      List.of("issuers.cert-manager.io", "certificates.cert-manager.io");

  private static final String ASSISTED_SERVICE_URL = "http://assisted-service.mce.svc:8090";

  @TempDir static Path work;
  private static KubeApiServerEnvironment env;
  private static Clients clients;
  private static String version;
  private static String initOutput;
  private static String upgradePlan;
  private static String clusterNamespace;
  private static Map<String, String> beforeUpgrade;

  @BeforeAll
  static void init() throws IOException {
    version = Release.pomReleaseVersion();
    Path repository = localRepository();
    Path clusterctlConfig = work.resolve("clusterctl.yaml");
    Files.writeString(
        clusterctlConfig,
        """
        providers:
          - name: cluster-api
            type: CoreProvider
            url: file://%1$s/cluster-api/%2$s/core-components.yaml
          - name: metal3
            type: InfrastructureProvider
            url: file://%1$s/infrastructure-metal3/%3$s/infrastructure-components.yaml
          - name: openshift-agent
            type: BootstrapProvider
            url: file://%1$s/bootstrap-openshift-agent/v%4$s/bootstrap-components.yaml
          - name: openshift-agent
            type: ControlPlaneProvider
            url: file://%1$s/control-plane-openshift-agent/v%4$s/control-plane-components.yaml
        # The test applies cert-manager's CRDs itself; no cert-manager runs without a kubelet.
        cert-manager:
          externallyProvisioned: "true"
        """
            .formatted(repository, CAPI_VERSION, CAPM3_VERSION, version));

    env = KubeApiServerEnvironment.startIndependent(List.of());
    Path kubeconfig = Files.writeString(work.resolve("kubeconfig"), env.kubeConfigYaml());
    clients =
        new Clients(kubeconfig, clusterctlConfig, Files.createDirectories(work.resolve("home")));
    kubectl(
            "apply",
            "--server-side",
            "-f",
            TestPaths.upstreamProviders("cert-manager-crds")
                .resolve("cert-manager.io_issuers.yaml"),
            "-f",
            TestPaths.upstreamProviders("cert-manager-crds")
                .resolve("cert-manager.io_certificates.yaml"))
        .ok();
    CrdInstaller.awaitEstablished(env.client(), Duration.ofSeconds(60), CERT_MANAGER_CRDS);

    Command.Result init =
        clusterctl(
                "init",
                "--core",
                "cluster-api:" + CAPI_VERSION,
                "--infrastructure",
                "metal3:" + CAPM3_VERSION,
                "--bootstrap",
                "openshift-agent:v" + PREVIOUS,
                "--control-plane",
                "openshift-agent:v" + PREVIOUS)
            .env("OPENSHIFT_AGENT_LOG_VERBOSITY", "6")
            .env("OPENSHIFT_AGENT_ASSISTED_SERVICE_URL", ASSISTED_SERVICE_URL)
            .timeout(Duration.ofMinutes(5))
            .run();
    init.ok();
    initOutput = init.stderr(); // clusterctl logs its progress to standard error

    // clusterctl init installed the Cluster API and Metal3 admission webhooks with failurePolicy
    // Fail, but no webhook server runs here (no kubelet): remove them so the API server itself
    // (schemas, CEL rules) judges the objects the tests create.
    kubectl("delete", "validatingwebhookconfigurations,mutatingwebhookconfigurations", "--all")
        .ok();
    clusterNamespace = env.createNamespace("clusterctl-upgrade");
    kubectl("apply", "--server-side", "-f", "-")
        .stdin(
            clusterctl(
                    "generate",
                    "cluster",
                    "kept",
                    "--target-namespace",
                    clusterNamespace,
                    "--from",
                    template("cluster-template-sno.yaml"))
                .env(variables())
                .ok())
        .ok();
    beforeUpgrade = ours(clusterNamespace);

    upgradePlan = clusterctl("upgrade", "plan").ok();
    clusterctl(
            "upgrade",
            "apply",
            "--bootstrap",
            "openshift-agent-bootstrap-system/openshift-agent:v" + version,
            "--control-plane",
            "openshift-agent-control-plane-system/openshift-agent:v" + version)
        .env("OPENSHIFT_AGENT_LOG_VERBOSITY", "6")
        .env("OPENSHIFT_AGENT_ASSISTED_SERVICE_URL", ASSISTED_SERVICE_URL)
        .timeout(Duration.ofMinutes(5))
        .ok();
  }

  @AfterAll
  static void stop() {
    if (env != null) {
      env.close();
    }
  }

  @Test
  @Order(1)
  void initInstallsOurProvidersWithTheirCrdsRbacAndDeployments() {
    KubernetesClient client = env.client();
    assertThat(initOutput).contains("bootstrap-openshift-agent", "control-plane-openshift-agent");
    for (String[] provider :
        new String[][] {
          {
            "bootstrap-openshift-agent",
            "openshift-agent-bootstrap-system",
            "openshiftassistedconfigs.bootstrap.cluster.x-k8s.io"
          },
          {
            "control-plane-openshift-agent",
            "openshift-agent-control-plane-system",
            "openshiftassistedcontrolplanes.controlplane.cluster.x-k8s.io"
          }
        }) {
      String label = provider[0];
      String namespace = provider[1];
      Deployment deployment =
          client
              .apps()
              .deployments()
              .inNamespace(namespace)
              .withName(label + "-controller-manager")
              .get();
      assertThat(deployment).as("%s Deployment", label).isNotNull();
      assertThat(deployment.getMetadata().getLabels())
          .containsEntry("cluster.x-k8s.io/provider", label);
      assertThat(deployment.getSpec().getTemplate().getSpec().getContainers())
          .singleElement()
          .satisfies(
              c -> {
                assertThat(c.getName()).isEqualTo("manager");
                assertThat(c.getImage()).endsWith(":v" + version);
                // The variable given to clusterctl init, and the defaults of the others.
                assertThat(c.getArgs())
                    .contains(
                        "--leader-elect",
                        "--leader-election-namespace=$(POD_NAMESPACE)",
                        "-v=6",
                        "--diagnostics-address=:8443",
                        "--insecure-diagnostics=false");
                assertThat(c.getSecurityContext().getReadOnlyRootFilesystem()).isTrue();
                assertThat(c.getSecurityContext().getAllowPrivilegeEscalation()).isFalse();
                assertThat(c.getSecurityContext().getCapabilities().getDrop())
                    .containsExactly("ALL");
                assertThat(c.getLivenessProbe().getHttpGet().getPath()).isEqualTo("/healthz");
                assertThat(c.getReadinessProbe().getHttpGet().getPath()).isEqualTo("/readyz");
              });
      assertThat(deployment.getSpec().getTemplate().getSpec().getSecurityContext())
          .satisfies(
              pod -> {
                assertThat(pod.getRunAsNonRoot()).isTrue();
                assertThat(pod.getSeccompProfile().getType()).isEqualTo("RuntimeDefault");
              });
      assertThat(
              client.apiextensions().v1().customResourceDefinitions().withName(provider[2]).get())
          .as("%s CRD", label)
          .isNotNull();
      assertThat(client.rbac().clusterRoles().withName(label + "-manager").get()).isNotNull();
      assertThat(client.rbac().clusterRoleBindings().withName(label + "-manager").get())
          .isNotNull();
      assertThat(
              client
                  .rbac()
                  .roles()
                  .inNamespace(namespace)
                  .withName(label + "-leader-election")
                  .get())
          .isNotNull();
      assertThat(client.serviceAccounts().inNamespace(namespace).withName(label + "-manager").get())
          .isNotNull();
    }
    Map<String, String> bootstrapEnv = new HashMap<>();
    client
        .apps()
        .deployments()
        .inNamespace("openshift-agent-bootstrap-system")
        .withName("bootstrap-openshift-agent-controller-manager")
        .get()
        .getSpec()
        .getTemplate()
        .getSpec()
        .getContainers()
        .get(0)
        .getEnv()
        .forEach(e -> bootstrapEnv.put(e.getName(), e.getValue()));
    assertThat(bootstrapEnv)
        .containsEntry("ASSISTED_SERVICE_URL", ASSISTED_SERVICE_URL)
        .containsEntry("ASSISTED_CA_BUNDLE_RESOURCE", "secret")
        .containsEntry("ASSISTED_CA_BUNDLE_KEY", "ca.crt")
        .containsKeys(
            "ASSISTED_CA_BUNDLE_NAMESPACE", "ASSISTED_CA_BUNDLE_NAME", "POD_NAMESPACE", "POD_NAME");
    assertThat(bootstrapEnv.get("ASSISTED_CA_BUNDLE_NAME")).as("empty by default").isNullOrEmpty();

    // clusterctl's inventory: what `clusterctl upgrade` and `clusterctl move` later rely on.
    List<String> inventory = inventory();
    assertThat(inventory)
        .contains(
            "cluster-api@" + CAPI_VERSION,
            "infrastructure-metal3@" + CAPM3_VERSION,
            "bootstrap-openshift-agent@v" + version,
            "control-plane-openshift-agent@v" + version);
  }

  /**
   * {@code clusterctl upgrade plan} offered this release and {@code upgrade apply} took both
   * providers to it: the inventory and the Deployments' images say so, and the objects of the
   * cluster created before are the same objects, unchanged (same UID and resourceVersion).
   */
  @Test
  @Order(2)
  void upgradeApplyMovesOurProvidersToThisReleaseAndLeavesTheClustersAlone() {
    assertThat(upgradePlan)
        .contains("bootstrap-openshift-agent", "control-plane-openshift-agent")
        .contains("v" + PREVIOUS)
        .contains("v" + version);
    assertThat(inventory())
        .contains(
            "bootstrap-openshift-agent@v" + version, "control-plane-openshift-agent@v" + version)
        .doesNotContain(
            "bootstrap-openshift-agent@v" + PREVIOUS, "control-plane-openshift-agent@v" + PREVIOUS);
    assertThat(beforeUpgrade).hasSize(3);
    assertThat(ours(clusterNamespace)).isEqualTo(beforeUpgrade);
  }

  @Test
  @Order(3)
  void generateClusterRendersEachFlavorAndTheApiServerAcceptsIt() {
    KubernetesClient client = env.client();
    Map<String, String> variables = variables();

    String ns = env.createNamespace("clusterctl-generate");
    String ha =
        clusterctl(
                "generate",
                "cluster",
                "ha",
                "--target-namespace",
                ns,
                "--from",
                template("cluster-template.yaml"),
                "--control-plane-machine-count",
                "3",
                "--worker-machine-count",
                "2")
            .env(variables)
            .run()
            .ok();
    String sno =
        clusterctl(
                "generate",
                "cluster",
                "sno",
                "--target-namespace",
                ns,
                "--from",
                template("cluster-template-sno.yaml"))
            .env(variables)
            .run()
            .ok();
    kubectl("apply", "--server-side", "-f", "-").stdin(ha).run().ok();
    kubectl("apply", "--server-side", "-f", "-").stdin(sno).run().ok();

    assertThat(controlPlane(client, ns, "ha").get("spec"))
        .asInstanceOf(org.assertj.core.api.InstanceOfAssertFactories.MAP)
        .containsEntry("replicas", 3)
        .containsEntry("distributionVersion", "4.20.0");
    assertThat(controlPlane(client, ns, "sno").get("spec"))
        .asInstanceOf(org.assertj.core.api.InstanceOfAssertFactories.MAP)
        .containsEntry("replicas", 1);
    GenericKubernetesResource workers =
        client
            .genericKubernetesResources("cluster.x-k8s.io/v1beta2", "MachineDeployment")
            .inNamespace(ns)
            .withName("ha-workers")
            .get();
    assertThat((Object) workers.get("spec", "replicas")).isEqualTo(2);
    assertThat(
            client
                .genericKubernetesResources(
                    "infrastructure.cluster.x-k8s.io/v1beta2", "Metal3MachineTemplate")
                .inNamespace(ns)
                .list()
                .getItems())
        .extracting(t -> t.getMetadata().getName())
        .containsExactlyInAnyOrder("ha-controlplane", "ha-workers", "sno-controlplane");
  }

  /**
   * The topology flavor and its ClusterClass, from the Metal3 repository's overrides layer (where a
   * user puts templates of a provider they do not publish): {@code clusterctl generate cluster
   * --flavor topology} renders the Cluster and adds the ClusterClass with its templates, and the
   * API server accepts them.
   */
  @Test
  @Order(4)
  void theTopologyFlavorBringsItsClusterClass() throws IOException {
    Path overrides =
        Files.createDirectories(
            work.resolve(
                "home/.config/cluster-api/overrides/infrastructure-metal3/" + CAPM3_VERSION));
    for (String asset :
        List.of("cluster-template-topology.yaml", "clusterclass-openshift-assisted.yaml")) {
      Files.copy(template(asset), overrides.resolve(asset));
    }
    String ns = env.createNamespace("clusterctl-topology");
    Map<String, String> variables = variables();
    variables.put("KUBERNETES_VERSION", "v1.33.0");
    String rendered =
        clusterctl(
                "generate",
                "cluster",
                "topo",
                "--infrastructure",
                "metal3:" + CAPM3_VERSION,
                "--flavor",
                "topology",
                "--target-namespace",
                ns,
                "--control-plane-machine-count",
                "3",
                "--worker-machine-count",
                "2")
            .env(variables)
            .ok();
    assertThat(kinds(rendered))
        .containsExactlyInAnyOrder(
            "ClusterClass",
            "Metal3ClusterTemplate",
            "OpenshiftAssistedControlPlaneTemplate",
            "Metal3MachineTemplate",
            "Metal3MachineTemplate",
            "OpenshiftAssistedConfigTemplate",
            "Cluster");
    kubectl("apply", "--server-side", "-f", "-").stdin(rendered).ok();

    GenericKubernetesResource cluster =
        env.client()
            .genericKubernetesResources("cluster.x-k8s.io/v1beta2", "Cluster")
            .inNamespace(ns)
            .withName("topo")
            .get();
    assertThat((Object) cluster.get("spec", "topology", "classRef", "name"))
        .isEqualTo("openshift-assisted");
    assertThat((Object) cluster.get("spec", "topology", "controlPlane", "replicas")).isEqualTo(3);
    List<Map<String, Object>> topologyVariables = cluster.get("spec", "topology", "variables");
    assertThat(topologyVariables)
        .extracting(v -> v.get("name") + "=" + v.get("value"))
        .containsExactlyInAnyOrder(
            "openshiftVersion=4.20.0",
            "baseDomain=lab.example.com",
            "apiVIP=192.168.222.40",
            "ingressVIP=192.168.222.41");
    GenericKubernetesResource clusterClass =
        env.client()
            .genericKubernetesResources("cluster.x-k8s.io/v1beta2", "ClusterClass")
            .inNamespace(ns)
            .withName("openshift-assisted")
            .get();
    List<Map<String, Object>> classVariables = clusterClass.get("spec", "variables");
    assertThat(classVariables)
        .extracting(v -> v.get("name"))
        .containsExactlyInAnyOrderElementsOf(
            topologyVariables.stream().map(v -> v.get("name")).toList());
    assertThat(
            (Object)
                env.client()
                    .genericKubernetesResources(
                        "controlplane.cluster.x-k8s.io/v1alpha3",
                        "OpenshiftAssistedControlPlaneTemplate")
                    .inNamespace(ns)
                    .withName("openshift-assisted")
                    .get()
                    .get("spec", "template", "spec", "config", "sshAuthorizedKey"))
        .isEqualTo(variables.get("SSH_AUTHORIZED_KEY"));
  }

  /**
   * Our CRDs carry clusterctl's move label: {@code clusterctl move} takes every object of our kinds
   * and what it owns, linked to a Cluster or not.
   */
  @Test
  @Order(5)
  void ourCrdsAreMovedWithTheirHierarchy() {
    for (String crd :
        List.of(
            "openshiftassistedconfigs.bootstrap.cluster.x-k8s.io",
            "openshiftassistedconfigtemplates.bootstrap.cluster.x-k8s.io",
            "openshiftassistedcontrolplanes.controlplane.cluster.x-k8s.io",
            "openshiftassistedcontrolplanetemplates.controlplane.cluster.x-k8s.io")) {
      assertThat(
              env.client()
                  .apiextensions()
                  .v1()
                  .customResourceDefinitions()
                  .withName(crd)
                  .get()
                  .getMetadata()
                  .getLabels())
          .as(crd)
          .containsKeys(
              "clusterctl.cluster.x-k8s.io", "clusterctl.cluster.x-k8s.io/move-hierarchy");
    }
  }

  /**
   * {@code clusterctl move} of a cluster's namespace to a second hub with the same providers: our
   * objects arrive there and leave the source, those no owner chain links to a Cluster too (the
   * move label of our CRDs), with what they own. No controller runs here: the test plays Cluster
   * API's part (the Cluster provisioned and its control plane initialized, which move checks
   * first), so it shows what clusterctl moves, not that the providers take over the cluster.
   */
  @Test
  @Order(6)
  void moveTakesOurObjectsAndWhatTheyOwnToTheTargetHub() throws IOException {
    String ns = env.createNamespace("clusterctl-move");
    kubectl("apply", "--server-side", "-f", "-")
        .stdin(
            clusterctl(
                    "generate",
                    "cluster",
                    "moving",
                    "--target-namespace",
                    ns,
                    "--from",
                    template("cluster-template.yaml"),
                    "--control-plane-machine-count",
                    "3",
                    "--worker-machine-count",
                    "1")
                .env(variables())
                .ok())
        .ok();
    KubernetesClient source = env.client();
    GenericKubernetesResource controlPlane =
        source
            .genericKubernetesResources(
                "controlplane.cluster.x-k8s.io/v1alpha3", "OpenshiftAssistedControlPlane")
            .inNamespace(ns)
            .withName("moving")
            .get();
    // A Secret the control plane owns, as the providers make them (the kubeconfig).
    source
        .secrets()
        .inNamespace(ns)
        .resource(
            new io.fabric8.kubernetes.api.model.SecretBuilder()
                .withNewMetadata()
                .withName("moving-kubeconfig")
                .addNewOwnerReference()
                .withApiVersion(controlPlane.getApiVersion())
                .withKind(controlPlane.getKind())
                .withName("moving")
                .withUid(controlPlane.getMetadata().getUid())
                .withController(true)
                .endOwnerReference()
                .endMetadata()
                .addToStringData("value", "kubeconfig")
                .build())
        .create();
    source
        .genericKubernetesResources("cluster.x-k8s.io/v1beta2", "Cluster")
        .inNamespace(ns)
        .withName("moving")
        .subresource("status")
        .patch(
            io.fabric8.kubernetes.client.dsl.base.PatchContext.of(
                io.fabric8.kubernetes.client.dsl.base.PatchType.JSON_MERGE),
            """
            {"status":{"initialization":{"infrastructureProvisioned":true,"controlPlaneInitialized":true},
             "conditions":[{"type":"ControlPlaneInitialized","status":"True","reason":"Initialized",
               "message":"","lastTransitionTime":"2026-01-01T00:00:00Z"}]}}""");
    Map<String, String> moving = ours(ns);
    assertThat(moving)
        .containsKeys(
            "OpenshiftAssistedControlPlane/moving",
            "OpenshiftAssistedConfigTemplate/moving-workers",
            "Cluster/moving");

    try (KubeApiServerEnvironment target = KubeApiServerEnvironment.startIndependent(List.of())) {
      Path targetKubeconfig =
          Files.writeString(work.resolve("target-kubeconfig"), target.kubeConfigYaml());
      Clients onTarget =
          new Clients(
              targetKubeconfig,
              work.resolve("clusterctl.yaml"),
              Files.createDirectories(work.resolve("target-home")));
      onTarget
          .kubectl(
              "apply",
              "--server-side",
              "-f",
              TestPaths.upstreamProviders("cert-manager-crds")
                  .resolve("cert-manager.io_issuers.yaml"),
              "-f",
              TestPaths.upstreamProviders("cert-manager-crds")
                  .resolve("cert-manager.io_certificates.yaml"))
          .ok();
      CrdInstaller.awaitEstablished(target.client(), Duration.ofSeconds(60), CERT_MANAGER_CRDS);
      onTarget
          .clusterctl(
              "init",
              "--core",
              "cluster-api:" + CAPI_VERSION,
              "--infrastructure",
              "metal3:" + CAPM3_VERSION,
              "--bootstrap",
              "openshift-agent:v" + version,
              "--control-plane",
              "openshift-agent:v" + version)
          .timeout(Duration.ofMinutes(5))
          .ok();
      onTarget
          .kubectl(
              "delete", "validatingwebhookconfigurations,mutatingwebhookconfigurations", "--all")
          .ok();

      clusterctl("move", "--namespace", ns, "--to-kubeconfig", targetKubeconfig)
          .timeout(Duration.ofMinutes(3))
          .ok();

      Map<String, String> arrived = new java.util.TreeMap<>();
      for (String kindAndName : moving.keySet()) {
        String[] parts = kindAndName.split("/");
        String apiVersion =
            switch (parts[0]) {
              case "OpenshiftAssistedControlPlane", "OpenshiftAssistedControlPlaneTemplate" ->
                  "controlplane.cluster.x-k8s.io/v1alpha3";
              case "OpenshiftAssistedConfig", "OpenshiftAssistedConfigTemplate" ->
                  "bootstrap.cluster.x-k8s.io/v1alpha2";
              case "Cluster" -> "cluster.x-k8s.io/v1beta2";
              default -> "infrastructure.cluster.x-k8s.io/v1beta2";
            };
        if (target
                .client()
                .genericKubernetesResources(apiVersion, parts[0])
                .inNamespace(ns)
                .withName(parts[1])
                .get()
            != null) {
          arrived.put(kindAndName, "moved");
        }
      }
      assertThat(arrived.keySet())
          .contains(
              "OpenshiftAssistedControlPlane/moving",
              "OpenshiftAssistedConfigTemplate/moving-workers",
              "Cluster/moving");
      var secret = target.client().secrets().inNamespace(ns).withName("moving-kubeconfig").get();
      assertThat(secret).as("the Secret the control plane owns").isNotNull();
      assertThat(secret.getMetadata().getOwnerReferences())
          .singleElement()
          .satisfies(
              o ->
                  assertThat(o.getUid())
                      .isEqualTo(
                          target
                              .client()
                              .genericKubernetesResources(
                                  "controlplane.cluster.x-k8s.io/v1alpha3",
                                  "OpenshiftAssistedControlPlane")
                              .inNamespace(ns)
                              .withName("moving")
                              .get()
                              .getMetadata()
                              .getUid()));
      Map<String, String> left = ours(ns);
      assertThat(left.keySet())
          .as("our objects left on the source")
          .noneMatch(k -> k.startsWith("OpenshiftAssisted") || k.startsWith("Cluster/"));
      assertThat(source.secrets().inNamespace(ns).withName("moving-kubeconfig").get()).isNull();
    }
  }

  /**
   * {@code clusterctl delete} removes our providers (Deployments, ServiceAccounts, namespaced RBAC,
   * Services, inventory) and keeps their CRDs, and so every cluster's objects, as clusterctl does
   * without {@code --include-crd}. Cluster-wide objects it deletes only when their names start with
   * the provider's namespace (a rule left from multi-instance providers), which Cluster API's own
   * ClusterRoles do not follow either: ours stay, as theirs do. Last: the others need the providers
   * installed.
   */
  @Test
  @Order(9)
  void deleteRemovesOurProvidersAndKeepsTheClusters() {
    clusterctl("delete", "--bootstrap", "openshift-agent", "--control-plane", "openshift-agent")
        .timeout(Duration.ofMinutes(3))
        .ok();
    KubernetesClient client = env.client();
    for (String[] provider :
        new String[][] {
          {"bootstrap-openshift-agent", "openshift-agent-bootstrap-system"},
          {"control-plane-openshift-agent", "openshift-agent-control-plane-system"}
        }) {
      assertThat(
              client
                  .apps()
                  .deployments()
                  .inNamespace(provider[1])
                  .withName(provider[0] + "-controller-manager")
                  .get())
          .as("%s Deployment", provider[0])
          .isNull();
      assertThat(
              client
                  .rbac()
                  .roles()
                  .inNamespace(provider[1])
                  .withName(provider[0] + "-leader-election")
                  .get())
          .isNull();
      assertThat(
              client
                  .serviceAccounts()
                  .inNamespace(provider[1])
                  .withName(provider[0] + "-manager")
                  .get())
          .isNull();
      assertThat(
              client.services().inNamespace(provider[1]).withName(provider[0] + "-metrics").get())
          .isNull();
    }
    assertThat(inventory())
        .noneMatch(p -> p.startsWith("bootstrap-openshift-agent@"))
        .noneMatch(p -> p.startsWith("control-plane-openshift-agent@"))
        .anyMatch(p -> p.startsWith("cluster-api@"));
    assertThat(
            client
                .apiextensions()
                .v1()
                .customResourceDefinitions()
                .withName("openshiftassistedcontrolplanes.controlplane.cluster.x-k8s.io")
                .get())
        .isNotNull();
    assertThat(ours(clusterNamespace)).isEqualTo(beforeUpgrade);
  }

  private static Map<String, String> variables() {
    Map<String, String> variables = new HashMap<>();
    variables.put("OPENSHIFT_VERSION", "4.20.0");
    variables.put("BASE_DOMAIN", "lab.example.com");
    variables.put("API_VIP", "192.168.222.40");
    variables.put("INGRESS_VIP", "192.168.222.41");
    variables.put("NODE_IP", "192.168.222.30");
    variables.put(
        "SSH_AUTHORIZED_KEY", "ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIExample user@example");
    variables.put("IMAGE_URL", "https://example.com/rhcos-4.20.0-x86_64.qcow2");
    variables.put("IMAGE_CHECKSUM", "https://example.com/rhcos-4.20.0-x86_64.qcow2.sha256sum");
    return variables;
  }

  /** Our kinds' objects in {@code ns}: kind/name to uid@resourceVersion. */
  private static Map<String, String> ours(String ns) {
    Map<String, String> objects = new java.util.TreeMap<>();
    for (String[] kind :
        new String[][] {
          {"controlplane.cluster.x-k8s.io/v1alpha3", "OpenshiftAssistedControlPlane"},
          {"controlplane.cluster.x-k8s.io/v1alpha3", "OpenshiftAssistedControlPlaneTemplate"},
          {"bootstrap.cluster.x-k8s.io/v1alpha2", "OpenshiftAssistedConfig"},
          {"bootstrap.cluster.x-k8s.io/v1alpha2", "OpenshiftAssistedConfigTemplate"},
          {"cluster.x-k8s.io/v1beta2", "Cluster"},
          {"infrastructure.cluster.x-k8s.io/v1beta2", "Metal3MachineTemplate"}
        }) {
      env.client()
          .genericKubernetesResources(kind[0], kind[1])
          .inNamespace(ns)
          .list()
          .getItems()
          .forEach(
              o ->
                  objects.put(
                      kind[1] + "/" + o.getMetadata().getName(),
                      o.getMetadata().getUid() + "@" + o.getMetadata().getResourceVersion()));
    }
    return objects;
  }

  private static List<String> inventory() {
    return env
        .client()
        .genericKubernetesResources(
            new ResourceDefinitionContext.Builder()
                .withGroup("clusterctl.cluster.x-k8s.io")
                .withVersion("v1alpha3")
                .withPlural("providers")
                .withNamespaced(true)
                .build())
        .inAnyNamespace()
        .list()
        .getItems()
        .stream()
        .map(p -> p.getMetadata().getName() + "@" + p.getAdditionalProperties().get("version"))
        .toList();
  }

  private static List<String> kinds(String manifests) {
    return InstallPaths.parse(manifests).stream().map(HasMetadata::getKind).toList();
  }

  private static Map<String, Object> controlPlane(KubernetesClient client, String ns, String name) {
    GenericKubernetesResource cp =
        client
            .genericKubernetesResources(
                "controlplane.cluster.x-k8s.io/v1alpha3", "OpenshiftAssistedControlPlane")
            .inNamespace(ns)
            .withName(name)
            .get();
    assertThat(cp).as("OpenshiftAssistedControlPlane %s", name).isNotNull();
    return cp.getAdditionalProperties();
  }

  private static Path template(String name) {
    return work.resolve("release").resolve(name);
  }

  /**
   * The layout clusterctl expects of a local repository, {@code <provider>/<version>/<files>}: the
   * upstream providers hack/render-upstream-providers.sh prepared and ours from hack/release.sh.
   */
  private static Path localRepository() throws IOException {
    Path release = Release.build(version, work.resolve("release"));
    Path previous = Release.build(PREVIOUS, work.resolve("release-previous"));
    // The previous release's series, in both releases' metadata.yaml: clusterctl upgrade reads the
    // newest release's metadata to place the installed version, so a release keeps the older
    // series.
    String[] series = PREVIOUS.split("\\.");
    String metadata =
        Files.readString(release.resolve("metadata.yaml"))
            + "  - major: %s\n    minor: %s\n    contract: v1beta2\n"
                .formatted(series[0], series[1]);
    for (Path built : List.of(release, previous)) {
      Files.writeString(built.resolve("metadata.yaml"), metadata);
    }
    Path repository = work.resolve("repository");
    Path upstream = TestPaths.upstreamProviders("clusterctl-repository");
    for (String provider : List.of("cluster-api", "infrastructure-metal3")) {
      copyTree(upstream.resolve(provider), repository.resolve(provider));
    }
    for (String[] ours :
        new String[][] {
          {"bootstrap-openshift-agent", "bootstrap-components.yaml"},
          {"control-plane-openshift-agent", "control-plane-components.yaml"}
        }) {
      for (Path built : List.of(release, previous)) {
        String builtVersion = built.equals(release) ? version : PREVIOUS;
        Path dir = Files.createDirectories(repository.resolve(ours[0]).resolve("v" + builtVersion));
        Files.copy(built.resolve(ours[1]), dir.resolve(ours[1]));
        Files.copy(built.resolve("metadata.yaml"), dir.resolve("metadata.yaml"));
      }
    }
    return repository;
  }

  private static void copyTree(Path from, Path to) throws IOException {
    try (var files = Files.walk(from)) {
      for (Path file : files.toList()) {
        Path target = to.resolve(from.relativize(file).toString());
        if (Files.isDirectory(file)) {
          Files.createDirectories(target);
        } else {
          Files.copy(file, target);
        }
      }
    }
  }

  private static Command kubectl(Object... args) {
    return clients.kubectl(args);
  }

  private static Command clusterctl(Object... args) {
    return clients.clusterctl(args);
  }
}
