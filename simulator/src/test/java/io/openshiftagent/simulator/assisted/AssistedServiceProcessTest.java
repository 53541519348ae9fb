package io.openshiftagent.simulator.assisted;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.Secret;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.utils.Serialization;
import io.openshiftagent.assisted.DiscoveryIgnitionClient;
import io.openshiftagent.simulator.Fields;
import io.openshiftagent.testsupport.KubeApiServerEnvironment;
import io.openshiftagent.testsupport.TestPaths;
import io.openshiftagent.testsupport.TestPki;
import java.io.ByteArrayInputStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Base64;
import java.util.List;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Supplier;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The real assisted-service against a bare hub (a kube-apiserver with only the CRDs the built
 * service ships), installing a single-node cluster the way our providers will drive it: the objects
 * a user's providers create (InfraEnv, ClusterDeployment, AgentClusterInstall, ClusterImageSet), a
 * machine that boots the InfraEnv's live ISO and runs the REST discovery agent, the Agent approved,
 * the cluster's controller finishing. Every state change here is the service's.
 */
class AssistedServiceProcessTest {
  private static final String NAMESPACE = "sno";
  private static final String RELEASE = "quay.io/openshift-release-dev/ocp-release:4.20.0-x86_64";
  private static final Duration WAIT = Duration.ofMinutes(3);

  /** Not a JUnit temporary directory: PostgreSQL's user must be able to reach its data. */
  private static final Path DIR =
      Path.of("target", "assisted-service-process-test").toAbsolutePath();

  private static KubeApiServerEnvironment hub;
  private static AssistedServiceProcess service;

  @BeforeAll
  static void startService() throws Exception {
    TestPaths.deleteRecursively(DIR);
    hub = KubeApiServerEnvironment.startIndependent(List.of(AssistedServiceProcess.crds()));
    service =
        AssistedServiceProcess.start(
            DIR,
            hub.kubeConfigYaml(),
            hub.client(),
            "assisted-installer",
            ReleaseCatalog.tagged(List.of(RELEASE)));
  }

  @AfterAll
  static void stop() {
    if (service != null) {
      service.close();
    }
    if (hub != null) {
      hub.close();
    }
  }

  @Test
  void installsASingleNodeClusterThroughItsRestAgent() throws Exception {
    System.out.println("assisted-service started in " + service.lastStart().toMillis() + " ms");
    KubernetesClient client = hub.client();
    client.namespaces().resource(namespace(NAMESPACE)).create();
    apply(client, MANIFESTS);

    GenericKubernetesResource infraEnv =
        await(
            "the InfraEnv's image",
            () -> {
              GenericKubernetesResource i =
                  get(client, "agent-install.openshift.io/v1beta1", "InfraEnv", "sno");
              return Fields.string(i, "status", "isoDownloadURL") == null ? null : i;
            });
    String isoUrl = Fields.string(infraEnv, "status", "isoDownloadURL");
    String ignitionUrl = Fields.string(infraEnv, "status", "bootArtifacts", "discoveryIgnitionURL");
    assertThat(ignitionUrl).startsWith(service.restRoot()).contains("api_key=");

    // DiskImage: our bootstrap provider's client downloads the discovery ignition with the
    // presigned URL, trusting the service's CA.
    String downloaded;
    try (DiscoveryIgnitionClient ignitionClient =
        DiscoveryIgnitionClient.create(
            DiscoveryIgnitionClient.Settings.defaults().withCaBundle(service.caPem()))) {
      downloaded =
          ignitionClient
              .download(ignitionUrl, Fields.string(infraEnv, "status", "debugInfo", "eventsURL"))
              .json();
    }
    AgentIgnition fromDiskImage = AgentIgnition.parse(downloaded).orElseThrow();
    assertThat(fromDiskImage.serviceUrl()).isEqualTo(URI.create(service.restRoot()));
    assertThat(fromDiskImage.token()).isNotBlank();
    assertThat(fromDiskImage.caPem()).isEqualTo(service.caPem());

    // LiveISO: the machine boots the ISO, whose ignition the image service fetched.
    NetworkSegment network = new NetworkSegment("192.168.222.0/24");
    String mac = "52:54:00:aa:00:01";
    Machine machine = Machine.server("sno-host-0", mac, network.lease(mac), network.gateway());
    network.record("api.sno.lab.home", machine.ip());
    network.record("api-int.sno.lab.home", machine.ip());
    network.record("*.apps.sno.lab.home", machine.ip());
    network.record("quay.io", "203.0.113.10");
    AtomicReference<JsonNode> rebooted = new AtomicReference<>();
    try (Agents agents =
        new Agents(
            new DiscoveryAgent.Pacing(1.0 / 30, Duration.ofMillis(200), Duration.ofMillis(200)))) {
      String isoIgnition =
          agents.liveIsoIgnition(isoUrl, service.restRoot(), service.caPem()).orElseThrow();
      AgentIgnition ignition = AgentIgnition.parse(isoIgnition).orElseThrow();
      assertThat(ignition.infraEnvId()).isEqualTo(fromDiskImage.infraEnvId());
      agents.boot(
          machine,
          network,
          ignition,
          new DiscoveryAgent.Installation() {
            @Override
            public void rebooted(DiscoveryAgent agent, JsonNode request) {
              rebooted.set(request);
            }
          });

      String agentName = machine.hostId().toString();
      GenericKubernetesResource agent =
          await(
              "the Agent",
              () -> get(client, "agent-install.openshift.io/v1beta1", "Agent", agentName));
      assertThat(Fields.isTrue(agent, "spec", "approved")).isFalse();
      assertThat(Fields.string(agent, "spec", "clusterDeploymentName", "name")).isEqualTo("sno");
      client
          .genericKubernetesResources("agent-install.openshift.io/v1beta1", "Agent")
          .inNamespace(NAMESPACE)
          .withName(agentName)
          .patch(
              io.fabric8.kubernetes.client.dsl.base.PatchContext.of(
                  io.fabric8.kubernetes.client.dsl.base.PatchType.JSON_MERGE),
              "{\"spec\":{\"approved\":true,\"hostname\":\"sno-0\"}}");

      JsonNode install = await("the host's reboot into the installed system", rebooted::get);
      String clusterId = install.path("cluster_id").asText();
      GenericKubernetesResource aci =
          get(client, "extensions.hive.openshift.io/v1beta1", "AgentClusterInstall", "sno");
      String eventsUrl = Fields.string(aci, "status", "debugInfo", "eventsURL");
      String clusterToken = eventsUrl.replaceAll(".*[?&]api_key=([^&]+).*", "$1");
      InstallerController controller =
          new InstallerController(
              HttpClient.newBuilder().sslContext(service.trustingCa()).build(),
              service.restRoot(),
              clusterId,
              clusterToken);
      for (String stage : InstallerController.joinStages("bootstrap", true)) {
        controller.hostStage(ignition.infraEnvId(), agentName, stage);
      }
      String installedKubeconfig = hub.kubeConfigYaml();
      controller.finish(
          service.workDir(),
          installedKubeconfig,
          TestPki.newCertificateAuthority("ingress").caPem());

      GenericKubernetesResource installed =
          await(
              "the installation to finish",
              () -> {
                GenericKubernetesResource i =
                    get(
                        client,
                        "extensions.hive.openshift.io/v1beta1",
                        "AgentClusterInstall",
                        "sno");
                String state = Fields.string(i, "status", "debugInfo", "state");
                return "adding-hosts".equals(state) ? i : null;
              });
      String secretName =
          Fields.string(installed, "spec", "clusterMetadata", "adminKubeconfigSecretRef", "name");
      Secret adminKubeconfig = client.secrets().inNamespace(NAMESPACE).withName(secretName).get();
      String kubeconfig =
          new String(
              Base64.getDecoder().decode(adminKubeconfig.getData().get("kubeconfig")),
              StandardCharsets.UTF_8);
      assertThat(kubeconfig).contains(hub.client().getMasterUrl().getHost());
    }
    System.out.println("oc calls: " + service.ocCalls());
  }

  /**
   * The faults the fault tests make, at the process level: a killed service comes back with what
   * its database holds; a refusing REST port refuses, then serves again; with PostgreSQL stopped
   * the service fails its requests, and serves again once the database is back.
   */
  @Test
  void survivesItsFaultsWithItsData() throws Exception {
    KubernetesClient client = hub.client();
    client.namespaces().resource(namespace("faults")).create();
    apply(client, FAULTS_MANIFESTS);
    GenericKubernetesResource infraEnv =
        await(
            "the InfraEnv's image",
            () -> {
              GenericKubernetesResource i =
                  client
                      .genericKubernetesResources("agent-install.openshift.io/v1beta1", "InfraEnv")
                      .inNamespace("faults")
                      .withName("faults")
                      .get();
              return Fields.string(i, "status", "bootArtifacts", "discoveryIgnitionURL") == null
                  ? null
                  : i;
            });
    String url = Fields.string(infraEnv, "status", "bootArtifacts", "discoveryIgnitionURL");
    HttpClient http =
        HttpClient.newBuilder()
            .sslContext(service.trustingCa())
            .connectTimeout(Duration.ofSeconds(5))
            .build();
    Supplier<Integer> download =
        () -> {
          try {
            return http.send(
                    java.net.http.HttpRequest.newBuilder(URI.create(url))
                        .timeout(Duration.ofSeconds(20))
                        .build(),
                    java.net.http.HttpResponse.BodyHandlers.discarding())
                .statusCode();
          } catch (java.io.IOException refused) {
            return -1;
          } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return -1;
          }
        };
    assertThat(download.get()).isEqualTo(200);

    service.kill();
    assertThat(download.get()).as("a killed service").isNotEqualTo(200);
    service.start();
    System.out.println("assisted-service restarted in " + service.lastStart().toMillis() + " ms");
    assertThat(download.get()).as("the InfraEnv after a restart (from PostgreSQL)").isEqualTo(200);

    service.refuseRest();
    assertThat(download.get()).as("a refused connection").isEqualTo(-1);
    service.acceptRest();
    assertThat(download.get()).isEqualTo(200);

    service.postgres().stop();
    assertThat(download.get()).as("without its database").isBetween(500, 599);
    service.postgres().start();
    await(
        "the service to serve again with its database back",
        () -> download.get() == 200 ? true : null);
  }

  private static final String FAULTS_MANIFESTS =
      """
      apiVersion: v1
      kind: Secret
      metadata: {name: pull-secret, namespace: faults}
      type: kubernetes.io/dockerconfigjson
      stringData:
        .dockerconfigjson: '{"auths":{"quay.io":{"auth":"dXNlcjpwYXNzd29yZA=="}}}'
      ---
      apiVersion: agent-install.openshift.io/v1beta1
      kind: InfraEnv
      metadata: {name: faults, namespace: faults}
      spec:
        pullSecretRef: {name: pull-secret}
      """;

  private static final String MANIFESTS =
      """
      apiVersion: v1
      kind: Secret
      metadata: {name: pull-secret, namespace: sno}
      type: kubernetes.io/dockerconfigjson
      stringData:
        .dockerconfigjson: '{"auths":{"quay.io":{"auth":"dXNlcjpwYXNzd29yZA=="}}}'
      ---
      apiVersion: hive.openshift.io/v1
      kind: ClusterImageSet
      metadata: {name: ocp-4.20.0}
      spec: {releaseImage: "quay.io/openshift-release-dev/ocp-release:4.20.0-x86_64"}
      ---
      apiVersion: hive.openshift.io/v1
      kind: ClusterDeployment
      metadata: {name: sno, namespace: sno}
      spec:
        baseDomain: lab.home
        clusterName: sno
        clusterInstallRef:
          group: extensions.hive.openshift.io
          kind: AgentClusterInstall
          name: sno
          version: v1beta1
        platform:
          agentBareMetal:
            agentSelector: {}
        pullSecretRef: {name: pull-secret}
      ---
      apiVersion: extensions.hive.openshift.io/v1beta1
      kind: AgentClusterInstall
      metadata: {name: sno, namespace: sno}
      spec:
        clusterDeploymentRef: {name: sno}
        imageSetRef: {name: ocp-4.20.0}
        platformType: None
        networking:
          clusterNetwork: [{cidr: 10.128.0.0/14, hostPrefix: 23}]
          serviceNetwork: [172.30.0.0/16]
          machineNetwork: [{cidr: 192.168.222.0/24}]
          userManagedNetworking: true
        provisionRequirements: {controlPlaneAgents: 1}
        sshPublicKey: ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIPWCmCQBl8AFoeTGj8v52CkBt9PxUkUJ7Ss2++ELtgNq user@example
      ---
      apiVersion: agent-install.openshift.io/v1beta1
      kind: InfraEnv
      metadata: {name: sno, namespace: sno}
      spec:
        clusterRef: {name: sno, namespace: sno}
        pullSecretRef: {name: pull-secret}
        sshAuthorizedKey: ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIPWCmCQBl8AFoeTGj8v52CkBt9PxUkUJ7Ss2++ELtgNq user@example
      """;

  private static void apply(KubernetesClient client, String yaml) {
    for (HasMetadata object :
        client.load(new ByteArrayInputStream(yaml.getBytes(StandardCharsets.UTF_8))).items()) {
      client.resource(object).create();
    }
  }

  private static io.fabric8.kubernetes.api.model.Namespace namespace(String name) {
    return new io.fabric8.kubernetes.api.model.NamespaceBuilder()
        .withNewMetadata()
        .withName(name)
        .endMetadata()
        .build();
  }

  private static GenericKubernetesResource get(
      KubernetesClient client, String apiVersion, String kind, String name) {
    return client
        .genericKubernetesResources(apiVersion, kind)
        .inNamespace(NAMESPACE)
        .withName(name)
        .get();
  }

  private static <T> T await(String what, Supplier<T> value) throws InterruptedException {
    long deadline = System.nanoTime() + WAIT.toNanos();
    long started = System.nanoTime();
    while (System.nanoTime() < deadline) {
      T result = value.get();
      if (result != null) {
        System.out.printf("%s after %d ms%n", what, (System.nanoTime() - started) / 1_000_000);
        return result;
      }
      Thread.sleep(200);
    }
    throw new AssertionError(
        "no " + what + " after " + WAIT + "; see " + service.log() + "\n" + dump());
  }

  private static String dump() {
    StringBuilder out = new StringBuilder();
    for (String kind : List.of("InfraEnv", "Agent")) {
      hub.client()
          .genericKubernetesResources("agent-install.openshift.io/v1beta1", kind)
          .inNamespace(NAMESPACE)
          .list()
          .getItems()
          .forEach(
              o -> out.append(Serialization.asYaml(o.getAdditionalProperties().get("status"))));
    }
    hub.client()
        .genericKubernetesResources("extensions.hive.openshift.io/v1beta1", "AgentClusterInstall")
        .inNamespace(NAMESPACE)
        .list()
        .getItems()
        .forEach(o -> out.append(Serialization.asYaml(o.getAdditionalProperties().get("status"))));
    return out.toString();
  }
}
