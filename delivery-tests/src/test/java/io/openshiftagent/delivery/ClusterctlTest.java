package io.openshiftagent.delivery;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.dsl.base.ResourceDefinitionContext;
import io.openshiftagent.testsupport.Command;
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
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The real clusterctl installs our providers next to Cluster API core and Metal3 on an empty
 * management cluster (its own kube-apiserver), all from local file repositories, and renders our
 * cluster templates. One {@code clusterctl init} is shared by the tests.
 */
class ClusterctlTest {
  private static final String CAPI_VERSION = "v1.14.0";
  private static final String CAPM3_VERSION = "v1.13.2";
  private static final String ASSISTED_SERVICE_URL = "http://assisted-service.mce.svc:8090";

  @TempDir static Path work;
  private static KubeApiServerEnvironment env;
  private static Clients clients;
  private static String version;
  private static String initOutput;

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
    // These two only: --all would also wait on CRDs other tests of the shared API server are
    // creating, whose status may not exist yet (kubectl then fails on the missing conditions).
    kubectl(
            "wait",
            "--for=condition=Established",
            "--timeout=60s",
            "crd/issuers.cert-manager.io",
            "crd/certificates.cert-manager.io")
        .ok();

    Command.Result init =
        clusterctl(
                "init",
                "--core",
                "cluster-api:" + CAPI_VERSION,
                "--infrastructure",
                "metal3:" + CAPM3_VERSION,
                "--bootstrap",
                "openshift-agent",
                "--control-plane",
                "openshift-agent")
            .env("OPENSHIFT_AGENT_LOG_VERBOSITY", "6")
            .env("OPENSHIFT_AGENT_ASSISTED_SERVICE_URL", ASSISTED_SERVICE_URL)
            .timeout(Duration.ofMinutes(5))
            .run();
    init.ok();
    initOutput = init.stderr(); // clusterctl logs its progress to standard error
  }

  @AfterAll
  static void stop() {
    if (env != null) {
      env.close();
    }
  }

  @Test
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
    List<String> inventory =
        client
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
    assertThat(inventory)
        .contains(
            "cluster-api@" + CAPI_VERSION,
            "infrastructure-metal3@" + CAPM3_VERSION,
            "bootstrap-openshift-agent@v" + version,
            "control-plane-openshift-agent@v" + version);
  }

  @Test
  void generateClusterRendersEachFlavorAndTheApiServerAcceptsIt() {
    // clusterctl init installed the Cluster API and Metal3 admission webhooks with failurePolicy
    // Fail, but no webhook server runs here (no kubelet): remove them so the API server itself
    // (schemas, CEL rules) judges the rendered objects.
    kubectl("delete", "validatingwebhookconfigurations,mutatingwebhookconfigurations", "--all")
        .ok();
    KubernetesClient client = env.client();
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
      Path dir = Files.createDirectories(repository.resolve(ours[0]).resolve("v" + version));
      Files.copy(release.resolve(ours[1]), dir.resolve(ours[1]));
      Files.copy(release.resolve("metadata.yaml"), dir.resolve("metadata.yaml"));
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
