package io.openshiftagent.controlplane;

import static io.openshiftagent.provider.testing.TestWorld.eventually;
import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.Condition;
import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import io.fabric8.kubernetes.api.model.events.v1.Event;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.dsl.base.PatchContext;
import io.fabric8.kubernetes.client.dsl.base.PatchType;
import io.javaoperatorsdk.operator.Operator;
import io.openshiftagent.api.common.LocalObjectReference;
import io.openshiftagent.api.controlplane.v1alpha3.OpenshiftAssistedControlPlane;
import io.openshiftagent.api.external.hive.ClusterImageSet;
import io.openshiftagent.controlplane.release.ReleaseImage;
import io.openshiftagent.provider.reconcile.EventRecorder;
import io.openshiftagent.provider.testing.TestWorld;
import io.openshiftagent.testsupport.Crane;
import io.openshiftagent.testsupport.FreePorts;
import io.openshiftagent.testsupport.KubeApiServerEnvironment;
import io.openshiftagent.testsupport.OciRegistry;
import io.openshiftagent.testsupport.ReleaseRegistry;
import io.openshiftagent.testsupport.TestPaths;
import io.openshiftagent.testsupport.TestPki;
import io.openshiftagent.testsupport.TokenService;
import io.openshiftagent.testsupport.WithKubeApiServer;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The release image as the provider resolves it on a real API server, against real registries: a
 * disconnected site's mirror with credentials (the public source unreachable), and each way a
 * registry or the objects that reach it can fail, with what a user sees ({@code kubectl describe}
 * of the control plane: the condition, the Events), the retry after the back-off without any change
 * of the objects, and nothing else of the cluster held.
 */
@WithKubeApiServer
class ReleaseImageReconcileTest {
  private static final String PUBLIC_OCP = "quay.io/openshift-release-dev/ocp-release";

  @TempDir static Path dir;
  private static KubeApiServerEnvironment env;
  private static KubernetesClient client;
  private static Operator operator;
  private static TestPki mirrorCa;
  private static OciRegistry mirror;
  private static TokenService tokens;
  private static OciRegistry tokenRegistry;
  private static ServerSocket silent;
  private static final List<Socket> held = new CopyOnWriteArrayList<>();

  @BeforeAll
  static void start() throws Exception {
    env = KubeApiServerEnvironment.shared();
    client = env.client();
    operator = Fixtures.startProvider(env);

    // A disconnected site's mirror: its own CA and credentials, the public release copied in.
    mirrorCa = TestPki.newCertificateAuthority("mirror");
    mirror =
        OciRegistry.start(dir.resolve("mirror"), mirrorCa, Map.of("mirror-user", "mirror-pass"));
    new Crane(dir.resolve("crane"), Fixtures.releases().registry(), mirror)
        .run(
            "copy",
            Fixtures.releases().release("4.20.0", "x86_64").tag(),
            mirror.host() + "/" + ReleaseRegistry.OCP_REPOSITORY + ":4.20.0-x86_64");

    // A registry behind a token service that refuses one of its users (403).
    tokens =
        TokenService.start(
            mirrorCa,
            Map.of("puller", "pull-password", "outsider", "outsider-password"),
            Set.of("outsider"));
    tokenRegistry =
        OciRegistry.startWithTokens(
            dir.resolve("token-registry"), mirrorCa, tokens, Map.of("puller", "pull-password"));

    // A registry that accepts connections and never says a word.
    silent = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
    Thread acceptor =
        new Thread(
            () -> {
              try {
                while (true) {
                  held.add(silent.accept());
                }
              } catch (Exception closed) {
                // the test is over
              }
            },
            "silent-registry");
    acceptor.setDaemon(true);
    acceptor.start();
  }

  @AfterAll
  static void stop() throws Exception {
    operator.stop();
    silent.close();
    for (Socket socket : held) {
      socket.close();
    }
    tokenRegistry.close();
    tokens.close();
    mirror.close();
  }

  @Test
  void aDisconnectedSiteGetsThePublicDigestThroughItsMirrorAndReResolvesOnlyWhenAsked() {
    TestWorld c = Fixtures.provisioned(env, "disconnected");
    c.createPullSecret(Fixtures.PULL_SECRET, mirror.dockerConfigJson());
    Fixtures.createMirrorConfig(c, "mirrors", mirror.host(), caPem(mirrorCa));
    OpenshiftAssistedControlPlane cp = Fixtures.controlPlane(c.ns, "cp", 3);
    cp.getMetadata().getAnnotations().remove(ReleaseImage.REPOSITORY_OVERRIDE_ANNOTATION);
    cp.getSpec().config.imageRegistryRef = new LocalObjectReference("mirrors");
    c.providers.createControlPlane(cp);

    String digest = Fixtures.releases().release("4.20.0", "x86_64").digest();
    eventually(() -> assertThat(imageSet(c)).isEqualTo(PUBLIC_OCP + "@" + digest));
    Condition resolved = c.awaitCondition("cp", "ReleaseImageResolved", "Resolved");
    assertThat(resolved.getStatus()).isEqualTo("True");
    var recorded = c.controlPlane("cp").getStatus().releaseImage;
    assertThat(recorded.requested).isEqualTo(PUBLIC_OCP + ":4.20.0-x86_64");
    assertThat(recorded.image).isEqualTo(PUBLIC_OCP + "@" + digest);
    assertThat(recorded.resolvedFrom)
        .isEqualTo(mirror.host() + "/" + ReleaseRegistry.OCP_REPOSITORY + ":4.20.0-x86_64");
    assertThat(events(c, "ReleaseImageResolved")).hasSize(1);
    System.out.println("kubectl describe, resolved:\n" + describe(c, "cp"));

    // Asked explicitly (a tag moved on purpose): looked up again, recorded and told.
    annotate(c, Map.of("controlplane.cluster.x-k8s.io/resolve-release-image", "2026-11-26"));
    eventually(
        () ->
            assertThat(c.controlPlane("cp").getStatus().releaseImage.resolveRequest)
                .isEqualTo("2026-11-26"));
    eventually(() -> assertThat(events(c, "ReleaseImageResolved")).hasSize(2));

    // The user asks for the tag: written as it is, no registry asked.
    annotate(c, Map.of("controlplane.cluster.x-k8s.io/release-image-reference", "tag"));
    eventually(() -> assertThat(imageSet(c)).isEqualTo(PUBLIC_OCP + ":4.20.0-x86_64"));
    c.awaitCondition("cp", "ReleaseImageResolved", "TagKept");
    assertThat(events(c, "ReleaseImageResolved")).hasSize(2);
  }

  /** One bad case: how its cluster is set up, and what the user must be told. */
  private record BadCase(String name, String reason, List<String> told, Consumer<Setup> setup) {}

  /** What a case may change before its control plane is created. */
  private record Setup(TestWorld cluster, OpenshiftAssistedControlPlane cp) {
    void overrideRepository(String repository) {
      cp.getMetadata()
          .getAnnotations()
          .put(ReleaseImage.REPOSITORY_OVERRIDE_ANNOTATION, repository);
    }

    void mirrors(String registriesConf, String caBundle) {
      cluster
          .client
          .resource(
              new ConfigMapBuilder()
                  .withNewMetadata()
                  .withName("mirrors")
                  .withNamespace(cluster.ns)
                  .endMetadata()
                  .addToData("registries.conf", registriesConf)
                  .addToData("ca-bundle.crt", caBundle)
                  .build())
          .create();
      cp.getSpec().config.imageRegistryRef = new LocalObjectReference("mirrors");
    }
  }

  @Test
  void eachBadCaseIsAConditionAUserCanActOnAndNothingElseOfTheClusterWaits() throws Exception {
    String mirrorRepository = mirror.host() + "/" + ReleaseRegistry.OCP_REPOSITORY;
    String unreachable = "127.0.0.1:" + FreePorts.next();
    String silentHost = "127.0.0.1:" + silent.getLocalPort();
    String tokenHost = tokenRegistry.host();
    List<BadCase> cases =
        List.of(
            new BadCase(
                "unknown tag",
                "ReleaseImageNotFound",
                List.of(Fixtures.releases().ocpRepository() + ":4.99.0-x86_64", "manifest unknown"),
                s -> s.cp().getSpec().distributionVersion = "4.99.0"),
            new BadCase(
                "wrong password for the mirror",
                "RegistryUnauthorized",
                List.of(PUBLIC_OCP + ":4.20.0-x86_64", "mirror " + mirror.host(), "401"),
                s -> {
                  s.cluster()
                      .createPullSecret(
                          Fixtures.PULL_SECRET,
                          OciRegistry.dockerConfigJson(
                              mirror.host(), Map.of("mirror-user", "wrong")));
                  s.cp()
                      .getMetadata()
                      .getAnnotations()
                      .remove(ReleaseImage.REPOSITORY_OVERRIDE_ANNOTATION);
                  s.mirrors(mirrorsConf(mirrorRepository), caPem(mirrorCa));
                }),
            new BadCase(
                "refused by the token service",
                "RegistryForbidden",
                List.of(tokenHost, "refused access (403)"),
                s -> {
                  s.cluster()
                      .createPullSecret(
                          Fixtures.PULL_SECRET,
                          OciRegistry.dockerConfigJson(
                              tokenHost, Map.of("outsider", "outsider-password")));
                  s.overrideRepository(tokenHost + "/" + ReleaseRegistry.OCP_REPOSITORY);
                  s.mirrors("", caPem(mirrorCa));
                }),
            new BadCase(
                "untrusted certificate",
                "RegistryTLSFailed",
                List.of(mirror.host(), "TLS failed", "trusted CA bundles"),
                s -> s.overrideRepository(mirrorRepository)),
            new BadCase(
                "no answer",
                "RegistryTimeout",
                List.of(silentHost, "no answer within 10 s"),
                s -> s.overrideRepository(silentHost + "/" + ReleaseRegistry.OCP_REPOSITORY)),
            new BadCase(
                "nothing listening",
                "RegistryUnreachable",
                List.of(unreachable, "cannot connect"),
                s -> s.overrideRepository(unreachable + "/" + ReleaseRegistry.OCP_REPOSITORY)),
            new BadCase(
                "no image for the hosts' architecture",
                "ArchitectureNotInRelease",
                List.of("scos-release:4.19.0-okd-scos.ec.6", "without ppc64le"),
                s -> {
                  s.cp().getSpec().distributionVersion = "4.19.0-okd-scos.ec.6";
                  s.cp().getSpec().openshiftAssistedConfigSpec.cpuArchitecture = "ppc64le";
                  s.overrideRepository(Fixtures.releases().okdRepository());
                }),
            new BadCase(
                "blocked by registries.conf",
                "RegistryBlocked",
                List.of("registries.conf blocks"),
                s ->
                    s.mirrors(
                        "[[registry]]\nlocation = \""
                            + Fixtures.releases().ocpRepository()
                            + "\"\nblocked = true\n",
                        "")),
            new BadCase(
                "pull secret missing",
                "PullSecretNotFound",
                List.of("Secret other-pull-secret (spec.config.pullSecretRef) not found"),
                s ->
                    s.cp().getSpec().config.pullSecretRef =
                        new LocalObjectReference("other-pull-secret")),
            new BadCase(
                "pull secret not a docker config",
                "PullSecretInvalid",
                List.of("Secret pull-secret (spec.config.pullSecretRef)", "no \"auths\""),
                s -> s.cluster().createPullSecret(Fixtures.PULL_SECRET, "{\"registries\":{}}")),
            new BadCase(
                "override names no registry",
                "ReleaseImageInvalid",
                List.of("names no registry host"),
                s -> s.overrideRepository("ocp/release")));

    Map<BadCase, TestWorld> clusters = new LinkedHashMap<>();
    int n = 0;
    for (BadCase bad : cases) {
      TestWorld c = Fixtures.provisioned(env, "bad-" + n++);
      OpenshiftAssistedControlPlane cp = Fixtures.controlPlane(c.ns, "cp", 3);
      bad.setup().accept(new Setup(c, cp));
      c.providers.createControlPlane(cp);
      clusters.put(bad, c);
    }
    StringBuilder described = new StringBuilder();
    for (Map.Entry<BadCase, TestWorld> entry : clusters.entrySet()) {
      described.append(told(entry.getKey(), entry.getValue()));
      if (entry.getKey() == cases.get(0)) {
        // The unknown tag appears in its registry now: the provider asks again at its back-off,
        // with no change of the objects (checked below).
        assertThat(events(entry.getValue(), "ReleaseImageNotFound")).isNotEmpty();
        new Crane(dir.resolve("crane-late"), Fixtures.releases().registry())
            .run(
                "copy",
                Fixtures.releases().release("4.20.0", "x86_64").tag(),
                Fixtures.releases().ocpRepository() + ":4.99.0-x86_64");
      }
    }
    System.out.println("kubectl describe, bad cases:\n" + described);

    TestWorld notFound = clusters.get(cases.get(0));
    notFound.awaitCondition("cp", "ReleaseImageResolved", "Resolved");
    eventually(() -> assertThat(notFound.clusterInstall("cp")).isNotNull());
    notFound.awaitCondition("cp", "ClusterInstallConfigured", "Configured");
  }

  /**
   * Checks what a bad case's control plane tells and holds back; returns what {@code kubectl
   * describe} prints of it.
   */
  private static String told(BadCase bad, TestWorld c) {
    Condition condition = c.awaitCondition("cp", "ReleaseImageResolved", bad.reason());
    assertThat(condition.getStatus()).isEqualTo("False");
    for (String told : bad.told()) {
      assertThat(condition.getMessage()).as(bad.name()).contains(told);
    }
    assertThat(c.condition("cp", "ClusterInstallConfigured").orElseThrow())
        .as(bad.name())
        .extracting(Condition::getReason, Condition::getMessage)
        .containsExactly(bad.reason(), condition.getMessage());
    c.awaitCondition("cp", "Available", "WaitingForReleaseImage");
    assertThat(client.resources(ClusterImageSet.class).withName(c.ns + ".cp").get())
        .as(bad.name() + ": no ClusterImageSet")
        .isNull();
    assertThat(c.clusterInstall("cp")).as(bad.name() + ": no AgentClusterInstall").isNull();
    // Nothing else waits: the control-plane Machines are made all the same.
    eventually(() -> assertThat(c.machines()).as(bad.name()).hasSize(3));
    return "--- " + bad.name() + " ---\n" + releaseImageParts(describe(c, "cp"));
  }

  private static String mirrorsConf(String mirrorRepository) {
    return "[[registry]]\nlocation = \""
        + PUBLIC_OCP
        + "\"\n[[registry.mirror]]\nlocation = \""
        + mirrorRepository
        + "\"\n";
  }

  private static String caPem(TestPki ca) {
    try {
      return ca.caPem();
    } catch (Exception e) {
      throw new IllegalStateException(e);
    }
  }

  private static String imageSet(TestWorld c) {
    ClusterImageSet set = client.resources(ClusterImageSet.class).withName(c.ns + ".cp").get();
    return set == null ? null : set.getSpec().releaseImage;
  }

  private static void annotate(TestWorld c, Map<String, String> annotations) {
    c.resource(OpenshiftAssistedControlPlane.class, "cp")
        .patch(
            PatchContext.of(PatchType.JSON_MERGE),
            io.fabric8.kubernetes.client.utils.Serialization.asJson(
                Map.of("metadata", Map.of("annotations", annotations))));
  }

  /** The Events about the control plane with {@code reason}, once written. */
  private static List<Event> events(TestWorld c, String reason) {
    EventRecorder.flush(Duration.ofSeconds(10));
    return client.events().v1().events().inNamespace(c.ns).list().getItems().stream()
        .filter(e -> reason.equals(e.getReason()))
        .toList();
  }

  /** What {@code kubectl describe} prints for the control plane. */
  private static String describe(TestWorld c, String name) {
    try {
      Path kubeconfig = Files.createTempFile(dir, "kubeconfig", ".yaml");
      Files.writeString(kubeconfig, env.kubeConfigYaml());
      Process kubectl =
          new ProcessBuilder(
                  TestPaths.kubectl().toString(),
                  "--kubeconfig",
                  kubeconfig.toString(),
                  "describe",
                  "openshiftassistedcontrolplane",
                  name,
                  "-n",
                  c.ns)
              .redirectErrorStream(true)
              .start();
      String out = new String(kubectl.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
      if (!kubectl.waitFor(30, TimeUnit.SECONDS) || kubectl.exitValue() != 0) {
        throw new AssertionError("kubectl describe failed: " + out);
      }
      return out;
    } catch (Exception e) {
      throw new IllegalStateException(e);
    }
  }

  /**
   * The lines of a description about the release image: the ReleaseImageResolved and
   * ClusterInstallConfigured conditions (message, reason, status, type) and the Events.
   */
  private static String releaseImageParts(String description) {
    List<String> lines = description.lines().toList();
    List<String> kept = new ArrayList<>();
    for (int i = 0; i < lines.size(); i++) {
      String line = lines.get(i);
      if (line.trim().startsWith("Type:")
          && (line.contains("ReleaseImageResolved") || line.contains("ClusterInstallConfigured"))) {
        // kubectl prints a condition's fields in alphabetical order, Type last.
        int start = i;
        while (start > 0 && !lines.get(start - 1).trim().startsWith("Last Transition Time:")) {
          start--;
        }
        kept.addAll(lines.subList(start, i + 1));
      }
    }
    int events = lines.indexOf("Events:");
    if (events >= 0) {
      kept.addAll(lines.subList(events, lines.size()));
    }
    return String.join("\n", kept) + "\n";
  }
}
