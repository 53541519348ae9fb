package io.openshiftagent.delivery;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLMapper;
import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.EnvVar;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.PodSpec;
import io.fabric8.kubernetes.api.model.Service;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.api.model.rbac.ClusterRole;
import io.fabric8.kubernetes.api.model.rbac.ClusterRoleBinding;
import io.fabric8.kubernetes.api.model.rbac.Role;
import io.fabric8.kubernetes.api.model.rbac.RoleBinding;
import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import io.fabric8.kubernetes.client.dsl.base.PatchContext;
import io.fabric8.kubernetes.client.dsl.base.PatchType;
import io.openshiftagent.testsupport.Command;
import io.openshiftagent.testsupport.CrdInstaller;
import io.openshiftagent.testsupport.KubeApiServerEnvironment;
import io.openshiftagent.testsupport.TestPaths;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The Helm chart, driven by the real helm: lint, template, and install on a real API server. */
class HelmChartTest {
  private static final Path CHART = TestPaths.repoRoot().resolve("charts/openshift-agent");
  private static final Duration HELM = Duration.ofSeconds(120);
  private static final String PREVIOUS_CHART = "0.0.9";
  private static final String OACP_CRD =
      "openshiftassistedcontrolplanes.controlplane.cluster.x-k8s.io";
  // Parses rendered manifests; never talks to a server.
  private static final KubernetesClient PARSER =
      new KubernetesClientBuilder().withConfig(Config.empty()).build();

  @AfterAll
  static void closeParser() {
    PARSER.close();
  }

  @Test
  void chartCrdsAreTheCommittedCrds() throws IOException {
    Map<String, String> committed = contents(TestPaths.ourCrdFiles());
    assertThat(committed).hasSize(4);
    assertThat(yamlFiles(CHART.resolve("crds")))
        .as("charts/openshift-agent/crds is stale: run hack/update-crds.sh and commit the result")
        .isEqualTo(committed);
  }

  @Test
  void lintPassesWithDefaultsAndWithEveryOptionSet() {
    helm("lint", "--strict", CHART.toString()).succeeded();
    List<String> args = new ArrayList<>(List.of("lint", "--strict", CHART.toString()));
    args.addAll(everyOption());
    helm(args.toArray(String[]::new)).succeeded();
  }

  @Test
  void defaultsRenderBothProvidersHardenedWithProbesMetricsAndLeaderElection() {
    List<HasMetadata> objects = template();
    for (String provider : List.of("bootstrap", "controlplane")) {
      String name = "capoa-" + provider;
      Deployment deployment = find(objects, Deployment.class, name);
      PodSpec pod = deployment.getSpec().getTemplate().getSpec();
      assertThat(pod.getServiceAccountName()).isEqualTo(name);
      assertThat(pod.getSecurityContext().getRunAsNonRoot()).isTrue();
      assertThat(pod.getSecurityContext().getSeccompProfile().getType())
          .isEqualTo("RuntimeDefault");
      Container manager = pod.getContainers().get(0);
      assertThat(pod.getContainers()).hasSize(1);
      assertThat(manager.getName()).isEqualTo("manager");
      assertThat(manager.getImage())
          .isEqualTo("quay.io/openshift-agent/" + provider + "-provider:0.1.0");
      var security = manager.getSecurityContext();
      assertThat(security.getRunAsNonRoot()).isTrue();
      assertThat(security.getAllowPrivilegeEscalation()).isFalse();
      assertThat(security.getReadOnlyRootFilesystem()).isTrue();
      assertThat(security.getCapabilities().getDrop()).containsExactly("ALL");
      assertThat(security.getSeccompProfile().getType()).isEqualTo("RuntimeDefault");
      assertThat(manager.getResources().getRequests()).containsKeys("cpu", "memory");
      assertThat(manager.getResources().getLimits()).containsKeys("cpu", "memory");
      assertThat(manager.getLivenessProbe().getHttpGet().getPath()).isEqualTo("/healthz");
      assertThat(manager.getReadinessProbe().getHttpGet().getPath()).isEqualTo("/readyz");
      assertThat(manager.getPorts())
          .extracting(p -> p.getName() + "=" + p.getContainerPort())
          .containsExactlyInAnyOrder("metrics=8443", "health=8081");
      assertThat(manager.getArgs())
          .containsExactly(
              "--leader-elect=true",
              "--leader-election-namespace=$(POD_NAMESPACE)",
              "-v=3",
              "--logging-format=text",
              "--diagnostics-address=:8443",
              "--insecure-diagnostics=false",
              "--health-probe-bind-address=:8081");
      assertThat(manager.getEnv())
          .extracting(e -> e.getName() + "=" + e.getValueFrom().getFieldRef().getFieldPath())
          .containsExactly("POD_NAME=metadata.name", "POD_NAMESPACE=metadata.namespace");
      assertThat(manager.getVolumeMounts())
          .extracting(m -> m.getMountPath())
          .containsExactly("/tmp");

      Role lease = find(objects, Role.class, name + "-leader-election");
      assertThat(lease.getRules()).hasSize(1);
      assertThat(lease.getRules().get(0).getApiGroups()).containsExactly("coordination.k8s.io");
      assertThat(lease.getRules().get(0).getResources()).containsExactly("leases");
      assertThat(lease.getRules().get(0).getVerbs())
          .containsExactly("get", "create", "update", "patch");
      assertThat(find(objects, RoleBinding.class, name + "-leader-election").getSubjects())
          .extracting(s -> s.getName())
          .containsExactly(name);
      assertThat(find(objects, ClusterRoleBinding.class, name).getRoleRef().getName())
          .isEqualTo(name);
      Service metrics = find(objects, Service.class, name + "-metrics");
      assertThat(metrics.getSpec().getSelector())
          .isEqualTo(deployment.getSpec().getSelector().getMatchLabels());
    }
  }

  @Test
  void valuesReachTheRenderedObjects() {
    List<HasMetadata> objects = template(everyOption().toArray(String[]::new));

    Container bootstrap = manager(find(objects, Deployment.class, "capoa-bootstrap"));
    assertThat(bootstrap.getImage()).isEqualTo("registry.example/bp:v9");
    assertThat(bootstrap.getImagePullPolicy()).isEqualTo("Always");
    assertThat(bootstrap.getArgs())
        .containsExactly(
            "--leader-elect=false",
            "--leader-election-namespace=$(POD_NAMESPACE)",
            "--namespace=team-a,team-b",
            "--watch-filter=mine",
            "-v=6",
            "--logging-format=json",
            "--diagnostics-address=:9090",
            "--insecure-diagnostics=true",
            "--tls-min-version=VersionTLS13",
            "--tls-cipher-suites=TLS_AES_128_GCM_SHA256,TLS_AES_256_GCM_SHA384",
            "--metrics-cert-path=/etc/openshift-agent/metrics-cert",
            "--health-probe-bind-address=:8081",
            "--concurrency=20");
    assertThat(bootstrap.getEnv())
        .filteredOn(e -> e.getValue() != null)
        .extracting(EnvVar::getName, EnvVar::getValue)
        .containsExactly(
            org.assertj.core.groups.Tuple.tuple("ASSISTED_SERVICE_URL", "http://assisted:8090"),
            org.assertj.core.groups.Tuple.tuple("ASSISTED_CA_BUNDLE_RESOURCE", "configmap"),
            org.assertj.core.groups.Tuple.tuple("ASSISTED_CA_BUNDLE_NAMESPACE", "mce"),
            org.assertj.core.groups.Tuple.tuple("ASSISTED_CA_BUNDLE_NAME", "service-ca"),
            org.assertj.core.groups.Tuple.tuple("ASSISTED_CA_BUNDLE_KEY", "service-ca.crt"),
            org.assertj.core.groups.Tuple.tuple("DEFAULT_BOOT_MODE", "DiskImage"),
            org.assertj.core.groups.Tuple.tuple("HTTPS_PROXY", "http://proxy:3128"));
    assertThat(bootstrap.getVolumeMounts())
        .extracting(m -> m.getName() + "=" + m.getMountPath() + ":" + m.getReadOnly())
        .contains("metrics-cert=/etc/openshift-agent/metrics-cert:true");
    assertThat(
            find(objects, io.fabric8.kubernetes.api.model.ServiceAccount.class, "capoa-bootstrap")
                .getMetadata()
                .getAnnotations())
        .containsEntry("eks.amazonaws.com/role-arn", "arn:aws:iam::1:role/x");
    assertThat(bootstrap.getResources().getLimits().get("memory").toString()).isEqualTo("1Gi");
    assertThat(bootstrap.getPorts())
        .extracting(p -> p.getName() + "=" + p.getContainerPort())
        .contains("metrics=9090");
    Deployment bootstrapDeployment = find(objects, Deployment.class, "capoa-bootstrap");
    assertThat(bootstrapDeployment.getSpec().getReplicas()).isEqualTo(2);
    PodSpec pod = bootstrapDeployment.getSpec().getTemplate().getSpec();
    assertThat(pod.getPriorityClassName()).isEqualTo("system-cluster-critical");
    assertThat(pod.getVolumes())
        .filteredOn(v -> v.getName().equals("metrics-cert"))
        .singleElement()
        .satisfies(v -> assertThat(v.getSecret().getSecretName()).isEqualTo("metrics-tls"));
    assertThat(pod.getNodeSelector()).containsEntry("node-role.kubernetes.io/infra", "");
    assertThat(pod.getTolerations()).extracting(t -> t.getKey()).containsExactly("infra");
    assertThat(pod.getAffinity().getNodeAffinity()).isNotNull();
    // A CA bundle in a ConfigMap is readable through a Role on that one ConfigMap.
    Role caBundle = find(objects, Role.class, "capoa-bootstrap-ca-bundle");
    assertThat(caBundle.getMetadata().getNamespace()).isEqualTo("mce");
    assertThat(caBundle.getRules().get(0).getResourceNames()).containsExactly("service-ca");

    Container controlplane = manager(find(objects, Deployment.class, "capoa-controlplane"));
    assertThat(controlplane.getImage()).isEqualTo("registry.example/cp:v8");
    assertThat(controlplane.getArgs())
        .contains("--namespace=team-a,team-b", "--logging-format=json")
        .doesNotContain("--concurrency=20");
    assertThat(controlplane.getEnv())
        .extracting(EnvVar::getName)
        .doesNotContain("ASSISTED_SERVICE_URL");
    // The hub's trusted CA bundle: a ConfigMap OpenShift fills, mounted where the env var says.
    assertThat(controlplane.getEnv())
        .filteredOn(e -> e.getValue() != null)
        .extracting(EnvVar::getName, EnvVar::getValue)
        .containsExactly(
            org.assertj.core.groups.Tuple.tuple(
                "REGISTRY_CA_BUNDLE_FILE", "/etc/openshift-agent/registry-ca/ca-bundle.crt"));
    assertThat(controlplane.getVolumeMounts())
        .extracting(m -> m.getName() + "=" + m.getMountPath() + ":" + m.getReadOnly())
        .contains("registry-ca=/etc/openshift-agent/registry-ca:true");
    assertThat(
            find(objects, Deployment.class, "capoa-controlplane")
                .getSpec()
                .getTemplate()
                .getSpec()
                .getVolumes())
        .filteredOn(v -> v.getName().equals("registry-ca"))
        .singleElement()
        .satisfies(v -> assertThat(v.getConfigMap().getName()).isEqualTo("trusted-ca"));
    assertThat(
            find(objects, io.fabric8.kubernetes.api.model.ConfigMap.class, "trusted-ca")
                .getMetadata()
                .getLabels())
        .containsEntry("config.openshift.io/inject-trusted-cabundle", "true");

    // Leader election off: no Lease Role; the metrics Service was switched off.
    assertThat(objects)
        .filteredOn(o -> o.getMetadata().getName().endsWith("-leader-election"))
        .isEmpty();
    assertThat(objects).filteredOn(o -> o instanceof Service).isEmpty();
  }

  @Test
  void metricsDisabledMeansPortZeroAndNoService() {
    List<HasMetadata> objects = template("--set", "metrics.enabled=false");
    for (String provider : List.of("capoa-bootstrap", "capoa-controlplane")) {
      Container manager = manager(find(objects, Deployment.class, provider));
      assertThat(manager.getArgs()).contains("--diagnostics-address=0");
      assertThat(manager.getPorts()).extracting(p -> p.getName()).containsExactly("health");
    }
    assertThat(objects).filteredOn(o -> o instanceof Service).isEmpty();
  }

  /**
   * Cluster API's in-place update hooks: nothing of them by default (they need Cluster API's
   * feature gates); enabled, the control plane serves them with cert-manager's certificate, and an
   * ExtensionConfig names their Service and takes its CA from that certificate's Secret.
   */
  @Test
  void theRuntimeExtensionIsOffUntilEnabled() {
    assertThat(template())
        .extracting(o -> o.getKind())
        .doesNotContain("ExtensionConfig", "Certificate", "Issuer");
    assertThat(manager(find(template(), Deployment.class, "capoa-controlplane")).getEnv())
        .extracting(e -> e.getName())
        .doesNotContain("RUNTIME_EXTENSION_ADDRESS");

    List<HasMetadata> objects = template("--set", "controlplane.runtimeExtension.enabled=true");

    Deployment deployment = find(objects, Deployment.class, "capoa-controlplane");
    assertThat(manager(deployment).getEnv())
        .extracting(e -> e.getName() + "=" + e.getValue())
        .contains(
            "RUNTIME_EXTENSION_ADDRESS=:9443",
            "RUNTIME_EXTENSION_CERT_DIR=/etc/openshift-agent/runtime-extension");
    assertThat(deployment.getSpec().getTemplate().getSpec().getVolumes())
        .anyMatch(
            v ->
                v.getSecret() != null
                    && "capoa-controlplane-runtime-extension"
                        .equals(v.getSecret().getSecretName()));
    Service service = find(objects, Service.class, "capoa-controlplane-runtime-extension");
    assertThat(service.getSpec().getPorts().get(0).getTargetPort().getIntVal()).isEqualTo(9443);
    assertThat(service.getSpec().getSelector())
        .isEqualTo(deployment.getSpec().getSelector().getMatchLabels());
    HasMetadata extension =
        objects.stream()
            .filter(o -> "ExtensionConfig".equals(o.getKind()))
            .findFirst()
            .orElseThrow();
    assertThat(extension.getMetadata().getAnnotations())
        .containsEntry(
            "runtime.cluster.x-k8s.io/inject-ca-from-secret",
            "capoa-system/capoa-controlplane-runtime-extension");
    assertThat(objects).extracting(o -> o.getKind()).contains("Certificate", "Issuer");
  }

  @Test
  void aServiceMonitorScrapesEachProvidersHttpsEndpointWithItsToken() {
    List<HasMetadata> objects =
        template("--set", "metrics.serviceMonitor.enabled=true", "--set", "log.level=debug");
    for (String provider : List.of("capoa-bootstrap", "capoa-controlplane")) {
      GenericKubernetesResource monitor =
          objects.stream()
              .filter(o -> o.getKind().equals("ServiceMonitor"))
              .map(GenericKubernetesResource.class::cast)
              .filter(o -> o.getMetadata().getName().equals(provider))
              .findFirst()
              .orElseThrow();
      Service service = find(objects, Service.class, provider + "-metrics");
      assertThat(service.getMetadata().getLabels())
          .containsAllEntriesOf(monitor.get("spec", "selector", "matchLabels"));
      assertThat(service.getSpec().getPorts()).extracting(p -> p.getName()).contains("metrics");
      Map<String, Object> endpoint = monitor.get("spec", "endpoints", 0);
      assertThat(endpoint)
          .containsEntry("port", "metrics")
          .containsEntry("scheme", "https")
          .containsEntry("path", "/metrics")
          .containsEntry("bearerTokenFile", "/var/run/secrets/kubernetes.io/serviceaccount/token");
      // The deprecated log.level still works, as its -v.
      assertThat(manager(find(objects, Deployment.class, provider)).getArgs()).contains("-v=6");
    }
    ClusterRole reader = find(objects, ClusterRole.class, "capoa-metrics-reader");
    assertThat(reader.getRules())
        .singleElement()
        .satisfies(
            r -> {
              assertThat(r.getNonResourceURLs()).containsExactly("/metrics");
              assertThat(r.getVerbs()).containsExactly("get");
            });
  }

  @Test
  void aPodDisruptionBudgetKeepsAReplica() {
    List<HasMetadata> objects =
        template("--set", "podDisruptionBudget.enabled=true", "--set", "bootstrap.replicas=2");
    var pdb =
        find(
            objects,
            io.fabric8.kubernetes.api.model.policy.v1.PodDisruptionBudget.class,
            "capoa-bootstrap");
    assertThat(pdb.getSpec().getMinAvailable().getIntVal()).isEqualTo(1);
    assertThat(pdb.getSpec().getMaxUnavailable()).isNull();
    assertThat(pdb.getSpec().getSelector().getMatchLabels())
        .isEqualTo(
            find(objects, Deployment.class, "capoa-bootstrap")
                .getSpec()
                .getSelector()
                .getMatchLabels());
    assertThat(template()).noneMatch(o -> o.getKind().equals("PodDisruptionBudget"));
  }

  @Test
  void eachProviderCanBeDisabled() {
    // Besides the metrics reader's ClusterRole, which serves both.
    assertThat(names(template("--set", "bootstrap.enabled=false")))
        .filteredOn(n -> !n.equals("capoa-metrics-reader"))
        .allMatch(n -> n.startsWith("capoa-controlplane"))
        .contains("capoa-controlplane");
    assertThat(names(template("--set", "controlplane.enabled=false")))
        .filteredOn(n -> !n.equals("capoa-metrics-reader"))
        .allMatch(n -> n.startsWith("capoa-bootstrap"))
        .contains("capoa-bootstrap");
  }

  /** values.schema.json: the real helm refuses a typo or a wrong value, naming it. */
  @Test
  void aValueTheChartDoesNotKnowOrAWrongOneIsRefused() {
    for (String[] wrong :
        new String[][] {
          {"bootstrap.replica=2", "at '/bootstrap': additional properties 'replica' not allowed"},
          {"log.format=xml", "at '/log/format'"},
          {"metrics.port=99999", "at '/metrics/port'"},
          {"bootstrap.defaultBootMode=PXE", "at '/bootstrap/defaultBootMode'"},
          {"metrics.tls.minVersion=TLS1.2", "at '/metrics/tls/minVersion'"},
          {"bootstrap.extraArgs={concurrency=3}", "at '/bootstrap/extraArgs/0'"},
          {"leaderElection.enabled=maybe", "at '/leaderElection/enabled'"},
        }) {
      Command.Result refused = helm("template", "capoa", CHART.toString(), "--set", wrong[0]);
      assertThat(refused.exitCode()).as("helm template --set %s", wrong[0]).isNotZero();
      assertThat(refused.stderr())
          .as("helm template --set %s", wrong[0])
          .contains("values don't meet the specifications of the schema")
          .contains(wrong[1]);
    }
  }

  @Test
  void aCaBundleWithoutItsNamespaceFailsTheRenderWithAReason() {
    Command.Result half =
        helm(
            "template",
            "capoa",
            CHART.toString(),
            "--set",
            "bootstrap.assistedService.caBundle.name=ca");
    assertThat(half.exitCode()).isNotZero();
    assertThat(half.stderr()).contains("set both namespace and name, or neither");
  }

  /** The chart's roles grant exactly the rules of their tables in docs/security.md. */
  @Test
  void rolesGrantExactlyTheDocumentedRules() throws IOException {
    List<HasMetadata> objects = template();
    assertThat(RbacTable.grantsOf(find(objects, ClusterRole.class, "capoa-bootstrap").getRules()))
        .isEqualTo(RbacTable.grants(RbacTable.BOOTSTRAP));
    assertThat(
            RbacTable.grantsOf(find(objects, ClusterRole.class, "capoa-controlplane").getRules()))
        .isEqualTo(RbacTable.grants(RbacTable.CONTROL_PLANE));
    for (String provider : List.of("capoa-bootstrap", "capoa-controlplane")) {
      assertThat(
              RbacTable.grantsOf(
                  find(objects, Role.class, provider + "-leader-election").getRules()))
          .isEqualTo(RbacTable.grants(RbacTable.LEADER_ELECTION));
    }
  }

  @Test
  void installCreatesCrdsRbacAndDeploymentsAndUninstallKeepsTheCrds(@TempDir Path dir)
      throws IOException {
    // An API server of its own without our CRDs, so that the chart is what creates them.
    try (KubeApiServerEnvironment env =
        KubeApiServerEnvironment.startIndependent(List.<Path>of())) {
      Path kubeconfig = dir.resolve("kubeconfig");
      Files.writeString(kubeconfig, env.kubeConfigYaml());
      KubernetesClient client = env.client();
      assertThat(client.apiextensions().v1().customResourceDefinitions().list().getItems())
          .isEmpty();

      Command.Result installed =
          helm(
                  "install",
                  "capoa",
                  CHART.toString(),
                  "--kubeconfig",
                  kubeconfig.toString(),
                  "--namespace",
                  "capoa-system",
                  "--create-namespace",
                  "--set",
                  "watchFilter=mine")
              .succeeded();
      // NOTES.txt: what was installed and how to scrape it.
      assertThat(installed.stdout())
          .contains("openshift-agent 0.1.0 is installed in capoa-system")
          .contains("deployment/capoa-bootstrap", "deployment/capoa-controlplane")
          .contains("https://<release>-<provider>-metrics.capoa-system.svc:8443/metrics")
          .contains("--clusterrole=capoa-metrics-reader");

      var crds = client.apiextensions().v1().customResourceDefinitions().list().getItems();
      assertThat(crds)
          .extracting(c -> c.getMetadata().getName())
          .containsExactlyInAnyOrder(
              "openshiftassistedconfigs.bootstrap.cluster.x-k8s.io",
              "openshiftassistedconfigtemplates.bootstrap.cluster.x-k8s.io",
              "openshiftassistedcontrolplanes.controlplane.cluster.x-k8s.io",
              "openshiftassistedcontrolplanetemplates.controlplane.cluster.x-k8s.io");
      Await.await(
          "the chart's CRDs are established",
          Duration.ofSeconds(30),
          () ->
              client.apiextensions().v1().customResourceDefinitions().list().getItems().stream()
                  .allMatch(CrdInstaller::isEstablished));
      for (String name : List.of("capoa-bootstrap", "capoa-controlplane")) {
        Deployment deployment =
            client.apps().deployments().inNamespace("capoa-system").withName(name).get();
        assertThat(deployment).as("Deployment %s", name).isNotNull();
        assertThat(manager(deployment).getArgs()).contains("--watch-filter=mine");
        assertThat(client.serviceAccounts().inNamespace("capoa-system").withName(name).get())
            .isNotNull();
        assertThat(client.rbac().clusterRoles().withName(name).get().getRules()).isNotEmpty();
        assertThat(client.rbac().clusterRoleBindings().withName(name).get()).isNotNull();
        assertThat(
                client
                    .rbac()
                    .roles()
                    .inNamespace("capoa-system")
                    .withName(name + "-leader-election")
                    .get())
            .isNotNull();
        assertThat(client.services().inNamespace("capoa-system").withName(name + "-metrics").get())
            .isNotNull();
      }
      Command.Result status =
          helm("status", "capoa", "--kubeconfig", kubeconfig.toString(), "-n", "capoa-system")
              .succeeded();
      assertThat(status.stdout()).contains("STATUS: deployed");

      // Uninstalling removes what the templates made but keeps the CRDs, and so every cluster's
      // objects (Helm never deletes crds/).
      helm("uninstall", "capoa", "--kubeconfig", kubeconfig.toString(), "-n", "capoa-system")
          .succeeded();
      assertThat(client.apps().deployments().inNamespace("capoa-system").list().getItems())
          .isEmpty();
      assertThat(client.rbac().clusterRoles().withName("capoa-bootstrap").get()).isNull();
      assertThat(client.apiextensions().v1().customResourceDefinitions().list().getItems())
          .hasSize(4);
    }
  }

  /**
   * {@code helm upgrade} from the previous chart version, on a hub with a cluster's objects, done
   * as docs/getting-started.md ("Installing with Helm") says: the chart's CRDs applied with {@code
   * kubectl apply --server-side --force-conflicts} (Helm created them, so its field manager owns
   * their versions and a plain apply of a changed CRD is refused), then {@code helm upgrade} with
   * the same values. No older chart of ours exists, so the previous chart is this one packaged as
   * {@value #PREVIOUS_CHART} (chart version and appVersion, so its image tags too), with one
   * change: its OpenshiftAssistedControlPlane CRD lacks the {@code Desired Version} printer column,
   * standing in for a CRD that changed between versions, so that applying {@code crds/} has
   * something to change on CRDs that Helm created.
   *
   * <p>After the upgrade the release is at this chart's version, revision 2, and its Deployments
   * name this version's images; every object of the release and each of our CRDs keeps its UID
   * (none was deleted and recreated), our CRDs keep their served and storage versions, and a key
   * OpenShift injects into the chart's CA bundle ConfigMap survives. The cluster's objects
   * (Cluster, Machine, our four kinds, their Secrets) keep their UID and resourceVersion, so their
   * spec and status: the upgrade did not write them. No kubelet or controller runs here, so the
   * providers never run and no pod is replaced: what this shows is that the upgrade leaves the
   * cluster's objects untouched, not how a running installation behaves while the providers' pods
   * restart.
   */
  @Test
  void upgradeFromThePreviousChartKeepsEveryObjectAndLeavesTheClustersUntouched(@TempDir Path dir)
      throws IOException {
    Map<?, ?> chart = new YAMLMapper().readValue(CHART.resolve("Chart.yaml").toFile(), Map.class);
    String version = (String) chart.get("version");
    String appVersion = (String) chart.get("appVersion");
    Path previous = previousChart(dir);
    List<String> values =
        List.of(
            "--set",
            "watchFilter=mine",
            "--set",
            "controlplane.registryCaBundle.configMap=trusted-ca",
            "--set",
            "controlplane.registryCaBundle.create=true");

    // Cluster API's CRDs, not ours: the previous chart creates those.
    try (KubeApiServerEnvironment env =
        KubeApiServerEnvironment.startIndependent(
            List.of(TestPaths.upstreamCrds().resolve("cluster-api")))) {
      Path kubeconfig = Files.writeString(dir.resolve("kubeconfig"), env.kubeConfigYaml());
      KubernetesClient client = env.client();
      List<String> install =
          new ArrayList<>(
              List.of(
                  "install",
                  "capoa",
                  previous.toString(),
                  "--kubeconfig",
                  kubeconfig.toString(),
                  "-n",
                  "capoa-system",
                  "--create-namespace"));
      install.addAll(values);
      helm(install.toArray(String[]::new)).succeeded();
      Await.await(
          "the previous chart's CRDs are established",
          Duration.ofSeconds(30),
          () -> {
            var ours =
                client.apiextensions().v1().customResourceDefinitions().list().getItems().stream()
                    .filter(c -> c.getMetadata().getName().startsWith("openshiftassisted"))
                    .toList();
            return ours.size() == 4 && ours.stream().allMatch(CrdInstaller::isEstablished);
          });
      for (String provider : List.of("bootstrap", "controlplane")) {
        assertThat(
                manager(
                        client
                            .apps()
                            .deployments()
                            .inNamespace("capoa-system")
                            .withName("capoa-" + provider)
                            .get())
                    .getImage())
            .isEqualTo("quay.io/openshift-agent/" + provider + "-provider:" + PREVIOUS_CHART);
      }
      assertThat(printerColumns(client, OACP_CRD)).doesNotContain("Desired Version");
      // What OpenShift's Cluster Network Operator does to the labelled ConfigMap.
      client
          .configMaps()
          .inNamespace("capoa-system")
          .withName("trusted-ca")
          .edit(
              c ->
                  new ConfigMapBuilder(c)
                      .addToData("ca-bundle.crt", "-----BEGIN CERTIFICATE-----\n")
                      .build());

      String ns = env.createNamespace("clusters");
      Map<String, String> cluster = createCluster(client, kubeconfig, ns);
      Map<String, String> release = releaseObjects(client, kubeconfig);
      Map<String, String> crds = crds(client);
      assertThat(release).containsKeys("Deployment/capoa-bootstrap", "ConfigMap/trusted-ca");
      assertThat(crds).hasSize(4);

      // Helm created the CRDs and owns their fields (field manager "helm"), so a plain server-side
      // apply of a changed CRD is refused; the documented procedure forces it, then upgrades.
      Command.Result refused =
          kubectl(kubeconfig, "apply", "--server-side", "-f", CHART.resolve("crds")).run();
      assertThat(refused.exitCode()).isNotZero();
      assertThat(refused.stderr()).contains("conflict with \"helm\"").contains(".spec.versions");
      kubectl(
              kubeconfig,
              "apply",
              "--server-side",
              "--force-conflicts",
              "-f",
              CHART.resolve("crds"))
          .ok();
      List<String> upgrade =
          new ArrayList<>(
              List.of(
                  "upgrade",
                  "capoa",
                  CHART.toString(),
                  "--kubeconfig",
                  kubeconfig.toString(),
                  "-n",
                  "capoa-system"));
      upgrade.addAll(values);
      Command.Result upgraded = helm(upgrade.toArray(String[]::new)).succeeded();
      assertThat(upgraded.stdout())
          .contains("openshift-agent " + appVersion + " is installed in capoa-system")
          .contains("kubectl apply --server-side --force-conflicts -f crds/");

      assertThat(
              history(kubeconfig).stream()
                  .map(r -> r.get("revision") + " " + r.get("chart") + " " + r.get("status"))
                  .toList())
          .containsExactly(
              "1 openshift-agent-" + PREVIOUS_CHART + " superseded",
              "2 openshift-agent-" + version + " deployed");
      for (String provider : List.of("bootstrap", "controlplane")) {
        Deployment deployment =
            client
                .apps()
                .deployments()
                .inNamespace("capoa-system")
                .withName("capoa-" + provider)
                .get();
        assertThat(manager(deployment).getImage())
            .isEqualTo("quay.io/openshift-agent/" + provider + "-provider:" + appVersion);
        assertThat(manager(deployment).getArgs()).contains("--watch-filter=mine");
        assertThat(deployment.getMetadata().getLabels())
            .containsEntry("app.kubernetes.io/version", appVersion)
            .containsEntry("helm.sh/chart", "openshift-agent-" + version);
      }
      assertThat(releaseObjects(client, kubeconfig)).isEqualTo(release);
      assertThat(
              client
                  .configMaps()
                  .inNamespace("capoa-system")
                  .withName("trusted-ca")
                  .get()
                  .getData())
          .containsKey("ca-bundle.crt");
      assertThat(crds(client)).isEqualTo(crds);
      assertThat(printerColumns(client, OACP_CRD)).contains("Desired Version");
      assertThat(objects(client, ns)).isEqualTo(cluster);
    }
  }

  /**
   * This chart packaged as {@link #PREVIOUS_CHART}, its OpenshiftAssistedControlPlane CRD without
   * the Desired Version printer column; returns the package.
   */
  private static Path previousChart(Path dir) throws IOException {
    Path copy = dir.resolve("previous/openshift-agent");
    try (Stream<Path> files = Files.walk(CHART)) {
      for (Path from : files.toList()) {
        Path to = copy.resolve(CHART.relativize(from).toString());
        if (Files.isDirectory(from)) {
          Files.createDirectories(to);
        } else {
          Files.copy(from, to);
        }
      }
    }
    Path crd =
        copy.resolve("crds/controlplane.cluster.x-k8s.io_openshiftassistedcontrolplanes.yaml");
    String text = Files.readString(crd);
    String column =
        """
            - jsonPath: ".spec.distributionVersion"
              name: "Desired Version"
              priority: 10
              type: "string"
        """;
    assertThat(text).contains(column);
    Files.writeString(crd, text.replace(column, ""));
    helm(
            "package",
            copy.toString(),
            "--version",
            PREVIOUS_CHART,
            "--app-version",
            PREVIOUS_CHART,
            "--destination",
            dir.toString())
        .succeeded();
    return dir.resolve("openshift-agent-" + PREVIOUS_CHART + ".tgz");
  }

  /**
   * Creates an installed single-node cluster's objects in {@code ns} as the providers and Cluster
   * API leave them (specs applied by kubectl, statuses written); returns {@link #objects}.
   */
  private static Map<String, String> createCluster(
      KubernetesClient client, Path kubeconfig, String ns) {
    kubectl(kubeconfig, "apply", "--server-side", "-n", ns, "-f", "-")
        .stdin(
            """
            apiVersion: v1
            kind: Secret
            metadata: {name: pull-secret}
            type: kubernetes.io/dockerconfigjson
            stringData: {.dockerconfigjson: '{"auths":{}}'}
            ---
            apiVersion: v1
            kind: Secret
            metadata: {name: kept-control-plane-0}
            type: cluster.x-k8s.io/secret
            stringData: {value: ignition, format: ignition}
            ---
            apiVersion: cluster.x-k8s.io/v1beta2
            kind: Cluster
            metadata: {name: kept}
            spec:
              clusterNetwork:
                pods: {cidrBlocks: [10.128.0.0/14]}
                services: {cidrBlocks: [172.30.0.0/16]}
              controlPlaneRef:
                {apiGroup: controlplane.cluster.x-k8s.io, kind: OpenshiftAssistedControlPlane, name: kept}
            ---
            apiVersion: controlplane.cluster.x-k8s.io/v1alpha3
            kind: OpenshiftAssistedControlPlane
            metadata: {name: kept, labels: {cluster.x-k8s.io/cluster-name: kept}}
            spec:
              distributionVersion: 4.20.0
              replicas: 1
              config: {baseDomain: example.com, pullSecretRef: {name: pull-secret}}
              openshiftAssistedConfigSpec: {pullSecretRef: {name: pull-secret}}
              machineTemplate:
                infrastructureRef:
                  {apiGroup: infrastructure.cluster.x-k8s.io, kind: Metal3MachineTemplate, name: kept}
            ---
            apiVersion: controlplane.cluster.x-k8s.io/v1alpha3
            kind: OpenshiftAssistedControlPlaneTemplate
            metadata: {name: kept}
            spec:
              template:
                spec: {config: {baseDomain: example.com, pullSecretRef: {name: pull-secret}}}
            ---
            apiVersion: bootstrap.cluster.x-k8s.io/v1alpha2
            kind: OpenshiftAssistedConfig
            metadata:
              name: kept-control-plane-0
              labels: {cluster.x-k8s.io/cluster-name: kept, cluster.x-k8s.io/control-plane: ""}
            spec: {pullSecretRef: {name: pull-secret}}
            ---
            apiVersion: bootstrap.cluster.x-k8s.io/v1alpha2
            kind: OpenshiftAssistedConfigTemplate
            metadata: {name: kept-workers}
            spec:
              template:
                spec: {pullSecretRef: {name: pull-secret}}
            ---
            apiVersion: cluster.x-k8s.io/v1beta2
            kind: Machine
            metadata:
              name: kept-control-plane-0
              labels: {cluster.x-k8s.io/cluster-name: kept, cluster.x-k8s.io/control-plane: ""}
            spec:
              clusterName: kept
              bootstrap:
                configRef:
                  {apiGroup: bootstrap.cluster.x-k8s.io, kind: OpenshiftAssistedConfig, name: kept-control-plane-0}
                dataSecretName: kept-control-plane-0
              infrastructureRef:
                {apiGroup: infrastructure.cluster.x-k8s.io, kind: Metal3Machine, name: kept-control-plane-0}
            """)
        .ok();
    String condition =
        "{\"type\":\"%s\",\"status\":\"True\",\"reason\":\"%s\",\"message\":\"\","
            + "\"lastTransitionTime\":\"2026-01-01T00:00:00Z\"}";
    writeStatus(
        client,
        ns,
        "cluster.x-k8s.io/v1beta2",
        "Cluster",
        "kept",
        "{\"initialization\":{\"infrastructureProvisioned\":true,\"controlPlaneInitialized\":true},"
            + "\"conditions\":["
            + condition.formatted("Available", "Available")
            + "]}");
    writeStatus(
        client,
        ns,
        "controlplane.cluster.x-k8s.io/v1alpha3",
        "OpenshiftAssistedControlPlane",
        "kept",
        "{\"initialization\":{\"controlPlaneInitialized\":true},\"version\":\"v1.33.0\","
            + "\"distributionVersion\":\"4.20.0\",\"replicas\":1,\"readyReplicas\":1,"
            + "\"availableReplicas\":1,\"upToDateReplicas\":1,\"observedGeneration\":1,"
            + "\"selector\":\"cluster.x-k8s.io/cluster-name=kept,cluster.x-k8s.io/control-plane\","
            + "\"conditions\":["
            + condition.formatted("Available", "Available")
            + "]}");
    writeStatus(
        client,
        ns,
        "bootstrap.cluster.x-k8s.io/v1alpha2",
        "OpenshiftAssistedConfig",
        "kept-control-plane-0",
        "{\"initialization\":{\"dataSecretCreated\":true},"
            + "\"dataSecretName\":\"kept-control-plane-0\",\"observedGeneration\":1,"
            + "\"conditions\":["
            + condition.formatted("Ready", "Ready")
            + "]}");
    Map<String, String> objects = objects(client, ns);
    assertThat(objects)
        .containsOnlyKeys(
            "Secret/pull-secret",
            "Secret/kept-control-plane-0",
            "Cluster/kept",
            "Machine/kept-control-plane-0",
            "OpenshiftAssistedControlPlane/kept",
            "OpenshiftAssistedControlPlaneTemplate/kept",
            "OpenshiftAssistedConfig/kept-control-plane-0",
            "OpenshiftAssistedConfigTemplate/kept-workers");
    assertThat(objects.get("OpenshiftAssistedControlPlane/kept"))
        .contains("\"controlPlaneInitialized\":true");
    assertThat(objects.get("OpenshiftAssistedConfig/kept-control-plane-0"))
        .contains("\"dataSecretCreated\":true");
    return objects;
  }

  private static void writeStatus(
      KubernetesClient client,
      String ns,
      String apiVersion,
      String kind,
      String name,
      String json) {
    client
        .genericKubernetesResources(apiVersion, kind)
        .inNamespace(ns)
        .withName(name)
        .subresource("status")
        .patch(PatchContext.of(PatchType.JSON_MERGE), "{\"status\":" + json + "}");
  }

  /**
   * A cluster's objects in {@code ns}, kind/name to the whole object as the API server returns it
   * (UID, resourceVersion, spec, status).
   */
  private static Map<String, String> objects(KubernetesClient client, String ns) {
    Map<String, String> objects = new TreeMap<>();
    for (String[] kind :
        new String[][] {
          {"v1", "Secret"},
          {"cluster.x-k8s.io/v1beta2", "Cluster"},
          {"cluster.x-k8s.io/v1beta2", "Machine"},
          {"controlplane.cluster.x-k8s.io/v1alpha3", "OpenshiftAssistedControlPlane"},
          {"controlplane.cluster.x-k8s.io/v1alpha3", "OpenshiftAssistedControlPlaneTemplate"},
          {"bootstrap.cluster.x-k8s.io/v1alpha2", "OpenshiftAssistedConfig"},
          {"bootstrap.cluster.x-k8s.io/v1alpha2", "OpenshiftAssistedConfigTemplate"}
        }) {
      for (GenericKubernetesResource o :
          client.genericKubernetesResources(kind[0], kind[1]).inNamespace(ns).list().getItems()) {
        objects.put(
            kind[1] + "/" + o.getMetadata().getName(),
            client.getKubernetesSerialization().asJson(o));
      }
    }
    return objects;
  }

  /** {@code helm history} of release capoa: revision, chart, status, ... of each revision. */
  @SuppressWarnings("unchecked")
  private static List<Map<String, Object>> history(Path kubeconfig) throws IOException {
    String json =
        helm(
                "history",
                "capoa",
                "--kubeconfig",
                kubeconfig.toString(),
                "-n",
                "capoa-system",
                "-o",
                "json")
            .succeeded()
            .stdout();
    return new ObjectMapper().readValue(json, List.class);
  }

  /** The objects of release capoa's current revision on the server: kind/name to UID. */
  private static Map<String, String> releaseObjects(KubernetesClient client, Path kubeconfig) {
    String manifest =
        helm(
                "get",
                "manifest",
                "capoa",
                "--kubeconfig",
                kubeconfig.toString(),
                "-n",
                "capoa-system")
            .succeeded()
            .stdout();
    Map<String, String> uids = new TreeMap<>();
    for (HasMetadata rendered :
        PARSER.load(new ByteArrayInputStream(manifest.getBytes(StandardCharsets.UTF_8))).items()) {
      HasMetadata live = client.resource(rendered).get();
      assertThat(live)
          .as("%s %s", rendered.getKind(), rendered.getMetadata().getName())
          .isNotNull();
      uids.put(
          rendered.getKind() + "/" + rendered.getMetadata().getName(), live.getMetadata().getUid());
    }
    return uids;
  }

  /** Our CRDs: name to UID, each version's served and storage flags, and the stored versions. */
  private static Map<String, String> crds(KubernetesClient client) {
    return client.apiextensions().v1().customResourceDefinitions().list().getItems().stream()
        .filter(c -> c.getMetadata().getName().startsWith("openshiftassisted"))
        .collect(
            Collectors.toMap(
                c -> c.getMetadata().getName(),
                c ->
                    c.getMetadata().getUid()
                        + " "
                        + c.getSpec().getVersions().stream()
                            .map(v -> v.getName() + ":" + v.getServed() + ":" + v.getStorage())
                            .toList()
                        + " stored "
                        + c.getStatus().getStoredVersions()));
  }

  private static List<String> printerColumns(KubernetesClient client, String crd) {
    return client
        .apiextensions()
        .v1()
        .customResourceDefinitions()
        .withName(crd)
        .get()
        .getSpec()
        .getVersions()
        .get(0)
        .getAdditionalPrinterColumns()
        .stream()
        .map(c -> c.getName())
        .toList();
  }

  private static Command kubectl(Path kubeconfig, Object... args) {
    Object[] all = new Object[args.length + 2];
    all[0] = TestPaths.kubectl();
    all[1] = "--kubeconfig=" + kubeconfig;
    System.arraycopy(args, 0, all, 2, args.length);
    return Command.of(all);
  }

  /** Options that change every value the chart offers. */
  private static List<String> everyOption() {
    return List.of(
        "--set", "bootstrap.image.repository=registry.example/bp",
        "--set", "bootstrap.image.tag=v9",
        "--set", "bootstrap.image.pullPolicy=Always",
        "--set", "bootstrap.replicas=2",
        "--set", "bootstrap.resources.limits.memory=1Gi",
        "--set", "bootstrap.assistedService.url=http://assisted:8090",
        "--set", "bootstrap.assistedService.caBundle.resource=configmap",
        "--set", "bootstrap.assistedService.caBundle.namespace=mce",
        "--set", "bootstrap.assistedService.caBundle.name=service-ca",
        "--set", "bootstrap.assistedService.caBundle.key=service-ca.crt",
        "--set", "bootstrap.defaultBootMode=DiskImage",
        "--set-string", "bootstrap.nodeSelector.node-role\\.kubernetes\\.io/infra=",
        "--set", "bootstrap.tolerations[0].key=infra",
        "--set", "bootstrap.tolerations[0].operator=Exists",
        "--set",
            "bootstrap.affinity.nodeAffinity.requiredDuringSchedulingIgnoredDuringExecution"
                + ".nodeSelectorTerms[0].matchExpressions[0].key=kubernetes.io/arch",
        "--set",
            "bootstrap.affinity.nodeAffinity.requiredDuringSchedulingIgnoredDuringExecution"
                + ".nodeSelectorTerms[0].matchExpressions[0].operator=Exists",
        "--set", "controlplane.image.repository=registry.example/cp",
        "--set", "controlplane.image.tag=v8",
        "--set", "controlplane.registryCaBundle.configMap=trusted-ca",
        "--set", "controlplane.registryCaBundle.create=true",
        "--set", "watchNamespace=team-a\\,team-b",
        "--set", "watchFilter=mine",
        "--set", "leaderElection.enabled=false",
        "--set", "metrics.port=9090",
        "--set", "metrics.secure=false",
        "--set", "metrics.certSecret=metrics-tls",
        "--set", "metrics.tls.minVersion=VersionTLS13",
        "--set", "metrics.tls.cipherSuites={TLS_AES_128_GCM_SHA256,TLS_AES_256_GCM_SHA384}",
        "--set", "metrics.service.enabled=false",
        "--set", "log.verbosity=6",
        "--set", "log.format=json",
        "--set", "bootstrap.priorityClassName=system-cluster-critical",
        "--set", "bootstrap.extraArgs={--concurrency=20}",
        "--set", "bootstrap.extraEnv[0].name=HTTPS_PROXY",
        "--set", "bootstrap.extraEnv[0].value=http://proxy:3128",
        "--set",
            "bootstrap.serviceAccount.annotations.eks\\.amazonaws\\.com/role-arn=arn:aws:iam::1:role/x");
  }

  private static Command.Result helm(String... args) {
    List<String> command = new ArrayList<>();
    command.add(TestPaths.tool("helm").toString());
    command.addAll(List.of(args));
    return Command.run(HELM, command);
  }

  private static List<HasMetadata> template(String... values) {
    List<String> args =
        new ArrayList<>(List.of("template", "capoa", CHART.toString(), "-n", "capoa-system"));
    args.addAll(List.of(values));
    String rendered = helm(args.toArray(String[]::new)).succeeded().stdout();
    return PARSER.load(new ByteArrayInputStream(rendered.getBytes(StandardCharsets.UTF_8))).items();
  }

  private static <T extends HasMetadata> T find(
      List<HasMetadata> objects, Class<T> kind, String name) {
    return objects.stream()
        .filter(kind::isInstance)
        .map(kind::cast)
        .filter(o -> o.getMetadata().getName().equals(name))
        .findFirst()
        .orElseThrow(
            () ->
                new AssertionError(
                    "no " + kind.getSimpleName() + " " + name + " in " + names(objects)));
  }

  private static Container manager(Deployment deployment) {
    return deployment.getSpec().getTemplate().getSpec().getContainers().stream()
        .filter(c -> c.getName().equals("manager"))
        .findFirst()
        .orElseThrow();
  }

  private static List<String> names(List<HasMetadata> objects) {
    return objects.stream().map(o -> o.getMetadata().getName()).toList();
  }

  private static Map<String, String> yamlFiles(Path dir) throws IOException {
    try (Stream<Path> files = Files.list(dir)) {
      return contents(files.filter(p -> p.toString().endsWith(".yaml")).toList());
    }
  }

  /** File name to content. */
  private static Map<String, String> contents(java.util.List<Path> files) {
    return files.stream()
        .collect(
            Collectors.toMap(
                p -> p.getFileName().toString(),
                p -> {
                  try {
                    return Files.readString(p);
                  } catch (IOException e) {
                    throw new java.io.UncheckedIOException(e);
                  }
                }));
  }
}
