package io.openshiftagent.simulator.e2e;

import static io.openshiftagent.simulator.Fields.conditionTrue;
import static io.openshiftagent.simulator.Fields.string;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.dsl.base.PatchContext;
import io.fabric8.kubernetes.client.dsl.base.PatchType;
import io.openshiftagent.simulator.ApiVersions;
import io.openshiftagent.simulator.Fields;
import io.openshiftagent.testsupport.ReleaseRegistry;
import io.openshiftagent.testsupport.TcpRelay;
import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.parallel.ResourceAccessMode;
import org.junit.jupiter.api.parallel.ResourceLock;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A disconnected site: the public release repository ({@code quay.io}, which this hub cannot reach)
 * mirrored to a real registry on loopback with TLS from a CA of its own, named by the control
 * plane's {@code spec.config.imageRegistryRef} (a {@code registries.conf} and the mirror's CA). The
 * user's manifest asks for no tag and no override: the control plane resolves 4.20.0 through the
 * mirror, and the ClusterImageSet assisted-service installs from, then the upgrade to 4.20.1 the
 * Cluster Version Operator is asked for, name the source repository by digest. The simulated
 * installed cluster knows the version of a digest from the registry's catalog, as a real one reads
 * it from the release image.
 *
 * <p>The site reaches its mirror through a relay ({@link TcpRelay}), cut when the upgrade is asked
 * for: the mirror is down for this cluster alone. The control plane says so on {@code
 * UpgradeCompleted} and {@code ReleaseImageResolved} ({@code RegistryUnreachable}), asks the
 * installed cluster for nothing, and upgrades once the mirror is back.
 *
 * <p>Before the upgrade, a user's edit of the AgentClusterInstall's {@code imageSetRef} is refused
 * by assisted-service's own admission webhook, in its words.
 */
@ResourceLock(value = E2eWorld.WORLD, mode = ResourceAccessMode.READ)
class DisconnectedInstallTest {
  private static final Logger LOG = LoggerFactory.getLogger(DisconnectedInstallTest.class);

  @RegisterExtension static final E2eWorld world = new E2eWorld();

  private static final String CONTROL_PLANE = "test-multinode";
  private static final String SOURCE = "quay.io/" + ReleaseRegistry.OCP_REPOSITORY;
  private static final String MIRRORS = "mirrors";

  /** How long the mirror stays down once the control plane reported it. */
  private static final Duration MIRROR_OUTAGE = Duration.ofSeconds(5);

  @Test
  void installsAndUpgradesByDigestThroughTheMirrorRidingOutTheMirrorDown() throws Exception {
    ReleaseRegistry registry = ReleaseRegistry.shared();
    try (TcpRelay link = TcpRelay.to(registry.registry().port())) {
      installAndUpgrade(registry, link);
    }
  }

  private static void installAndUpgrade(ReleaseRegistry registry, TcpRelay link)
      throws InterruptedException {
    String mirror = "127.0.0.1:" + link.port();
    ClusterScenario cluster = world.scenario("e2e-disconnected", CONTROL_PLANE);
    cluster.enrolHosts(3);
    createMirrorConfig(cluster, mirror + "/" + ReleaseRegistry.OCP_REPOSITORY, registry.caPem());
    cluster.apply(
        "/e2e/ha.yaml",
        Map.of("BOOT_MODE", "LiveISO", "WORKERS", "0"),
        DisconnectedInstallTest::asADisconnectedSiteWritesIt);
    cluster.awaitInstalled(3);

    String installed = digestOf(registry, "4.20.0");
    GenericKubernetesResource cp = cluster.controlPlane();
    assertThat(reason(cp)).isEqualTo("Resolved");
    assertThat(message(cp)).contains(mirror);
    assertThat(string(cp, "status", "releaseImage", "image")).isEqualTo(installed);
    String imageSet =
        string(
            cluster.get(ApiVersions.HIVE_EXTENSION, "AgentClusterInstall", CONTROL_PLANE),
            "spec",
            "imageSetRef",
            "name");
    assertThat(
            string(
                cluster
                    .hub()
                    .genericKubernetesResources(ApiVersions.HIVE, "ClusterImageSet")
                    .withName(imageSet)
                    .get(),
                "spec",
                "releaseImage"))
        .as("the ClusterImageSet assisted-service installs from")
        .isEqualTo(installed);
    assertTheServiceRefusesAnotherImageSet(cluster);
    cluster.await(
        "the control plane to report 4.20.0, which the installed cluster knows from the digest",
        () -> "4.20.0".equals(string(cluster.controlPlane(), "status", "distributionVersion")));

    link.cut();
    Instant healed;
    try {
      cluster.setSpec(
          ApiVersions.CONTROL_PLANE,
          "OpenshiftAssistedControlPlane",
          CONTROL_PLANE,
          "distributionVersion",
          "4.20.1");
      cluster.await(
          "UpgradeCompleted False, RegistryUnreachable, while the mirror is down",
          () ->
              "RegistryUnreachable".equals(upgradeCompleted(cluster.controlPlane()).get("reason")));
      GenericKubernetesResource waiting = cluster.controlPlane();
      assertThat(upgradeCompleted(waiting).get("status")).isEqualTo("False");
      assertThat((String) upgradeCompleted(waiting).get("message")).contains(mirror);
      assertThat(reason(waiting)).isEqualTo("RegistryUnreachable");
      assertThat(conditionTrue(waiting, "Available")).as("the cluster still Available").isTrue();
      Thread.sleep(MIRROR_OUTAGE.toMillis());
      assertThat(string(clusterVersion(cluster), "spec", "desiredUpdate", "image"))
          .as("no upgrade asked of the installed cluster while the release is unresolved")
          .isNotEqualTo(digestOf(registry, "4.20.1"));
      LOG.info(
          "disconnected: the mirror down, the control plane says {}", upgradeCompleted(waiting));
    } finally {
      link.restore();
      healed = Instant.now();
    }
    String upgraded = digestOf(registry, "4.20.1");
    cluster.await(
        "the upgrade to 4.20.1 done",
        () -> {
          GenericKubernetesResource now = cluster.controlPlane();
          return "4.20.1".equals(string(now, "status", "distributionVersion"))
              && conditionTrue(now, "Available");
        });
    LOG.info(
        "disconnected: upgraded {} ms after the mirror was back",
        Duration.between(healed, Instant.now()).toMillis());
    GenericKubernetesResource version = clusterVersion(cluster);
    assertThat(string(version, "spec", "desiredUpdate", "image"))
        .as("the upgrade the Cluster Version Operator is asked for")
        .isEqualTo(upgraded);
    assertThat(string(cluster.controlPlane(), "status", "releaseImage", "image"))
        .isEqualTo(upgraded);
    LOG.info(
        "disconnected: installed {} and upgraded to {} through {}", installed, upgraded, mirror);
  }

  /**
   * assisted-service's own admission webhook, registered with the hub, refuses a user's edit of the
   * installed AgentClusterInstall's {@code imageSetRef} in the service's words: a release changes
   * through the control plane's {@code distributionVersion} (below), never through that reference.
   */
  private static void assertTheServiceRefusesAnotherImageSet(ClusterScenario cluster) {
    var install =
        cluster
            .hub()
            .genericKubernetesResources(ApiVersions.HIVE_EXTENSION, "AgentClusterInstall")
            .inNamespace(cluster.namespace())
            .withName(CONTROL_PLANE);
    assertThatThrownBy(
            () ->
                install.patch(
                    PatchContext.of(PatchType.JSON_MERGE),
                    "{\"spec\":{\"imageSetRef\":{\"name\":\"another-release\"}}}"))
        .isInstanceOf(KubernetesClientException.class)
        .hasMessageContaining("admission webhook")
        .hasMessageContaining(
            "Attempted to change AgentClusterInstall.ImageSetRef which is immutable");
    LOG.info("disconnected: the hub refused another imageSetRef, in assisted-service's words");
  }

  /**
   * The HA manifest as a disconnected site writes it: no repository override (the public release
   * repository, reached through the mirror), the mirror configuration named.
   */
  private static void asADisconnectedSiteWritesIt(HasMetadata object) {
    if (!(object instanceof GenericKubernetesResource resource)
        || !"OpenshiftAssistedControlPlane".equals(object.getKind())) {
      return;
    }
    resource
        .getMetadata()
        .getAnnotations()
        .remove("cluster.x-k8s.io/release-image-repository-override");
    @SuppressWarnings("unchecked")
    Map<String, Object> spec = (Map<String, Object>) resource.getAdditionalProperties().get("spec");
    @SuppressWarnings("unchecked")
    Map<String, Object> config = new HashMap<>((Map<String, Object>) spec.get("config"));
    config.put("imageRegistryRef", Map.of("name", MIRRORS));
    spec.put("config", config);
  }

  /** The site's mirror configuration: the source repository mirrored, the mirror's CA. */
  private static void createMirrorConfig(ClusterScenario cluster, String mirror, String caPem) {
    String conf =
        "[[registry]]\nlocation = \""
            + SOURCE
            + "\"\n[[registry.mirror]]\nlocation = \""
            + mirror
            + "\"\n";
    cluster
        .hub()
        .resource(
            new ConfigMapBuilder()
                .withNewMetadata()
                .withName(MIRRORS)
                .withNamespace(cluster.namespace())
                .endMetadata()
                .addToData("registries.conf", conf)
                .addToData("ca-bundle.crt", caPem)
                .build())
        .create();
  }

  /** The release of {@code version} named in the source repository by its digest. */
  private static String digestOf(ReleaseRegistry mirror, String version) {
    return SOURCE + "@" + mirror.release(version, "x86_64").digest();
  }

  private static GenericKubernetesResource clusterVersion(ClusterScenario cluster) {
    return cluster
        .workload()
        .genericKubernetesResources(ApiVersions.CLUSTER_VERSION, "ClusterVersion")
        .withName("version")
        .get();
  }

  private static String reason(GenericKubernetesResource cp) {
    return (String) releaseImageResolved(cp).get("reason");
  }

  private static String message(GenericKubernetesResource cp) {
    return (String) releaseImageResolved(cp).get("message");
  }

  private static Map<String, Object> releaseImageResolved(GenericKubernetesResource cp) {
    return condition(cp, "ReleaseImageResolved");
  }

  private static Map<String, Object> upgradeCompleted(GenericKubernetesResource cp) {
    return condition(cp, "UpgradeCompleted");
  }

  private static Map<String, Object> condition(GenericKubernetesResource cp, String type) {
    return Fields.findCondition(cp, type)
        .orElseThrow(() -> new AssertionError("no " + type + " condition"));
  }
}
