package io.openshiftagent.controlplane.release;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.fabric8.kubernetes.api.model.Secret;
import io.fabric8.kubernetes.api.model.SecretBuilder;
import io.openshiftagent.api.common.LocalObjectReference;
import io.openshiftagent.api.controlplane.v1alpha3.ClusterConfig;
import io.openshiftagent.api.controlplane.v1alpha3.OpenshiftAssistedControlPlane;
import io.openshiftagent.api.controlplane.v1alpha3.OpenshiftAssistedControlPlaneSpec;
import io.openshiftagent.api.controlplane.v1alpha3.OpenshiftAssistedControlPlaneStatus;
import io.openshiftagent.registry.Reasons;
import io.openshiftagent.registry.ReleaseImages;
import io.openshiftagent.registry.ResolutionCache;
import io.openshiftagent.testsupport.Crane;
import io.openshiftagent.testsupport.FreePorts;
import io.openshiftagent.testsupport.OciRegistry;
import io.openshiftagent.testsupport.TestPki;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A control plane's release image from its objects, against a real registry that plays a
 * disconnected site's mirror: the source is unreachable, the mirror (with its own CA and
 * credentials) holds the release.
 */
class ReleaseImageResolutionTest {
  @TempDir static Path dir;
  static OciRegistry mirror;
  static String mirrorCa;
  static String digest;
  static String source;

  private final ResolutionCache cache =
      new ResolutionCache(Clock.systemUTC(), Duration.ofSeconds(10), Duration.ofMinutes(5), 100);
  private final ReleaseImageResolution resolution =
      new ReleaseImageResolution(
          ReleaseImages.overRegistries(
              Duration.ofSeconds(5), "openshift-agent-tests", cache, Clock.systemUTC()),
          HubRegistries.none(),
          Clock.systemUTC());

  @BeforeAll
  static void mirror() throws Exception {
    TestPki ca = TestPki.newCertificateAuthority("mirror");
    mirrorCa = ca.caPem();
    mirror = OciRegistry.start(dir.resolve("mirror"), ca, Map.of("mirror-user", "mirror-pass"));
    digest =
        new Crane(dir.resolve("crane"), mirror)
            .pushRelease(mirror.host() + "/ocp4/release", "4.20.0-x86_64", "amd64", "1.33.2");
    source = "127.0.0.1:" + FreePorts.next() + "/openshift-release-dev/ocp-release";
  }

  @AfterAll
  static void stop() throws Exception {
    mirror.close();
  }

  @Test
  void theTagIsResolvedThroughTheMirrorToTheSourcesDigestOnce() {
    OpenshiftAssistedControlPlane cp = controlPlane(Map.of());
    ReleaseImageResolution.Use first = throughTheMirror(cp);

    assertThat(first.image()).isEqualTo(source + "@" + digest);
    assertThat(first.reason()).isEqualTo(ReleaseImages.RESOLVED);
    assertThat(first.newlyResolved()).isTrue();
    assertThat(first.status().requested).isEqualTo(source + ":4.20.0-x86_64");
    assertThat(first.status().resolvedFrom)
        .isEqualTo(mirror.host() + "/ocp4/release:4.20.0-x86_64");
    assertThat(first.message()).contains(source + "@" + digest).contains(mirror.host());

    // The status written, as the next reconcile (or a restarted provider) reads it.
    cp.setStatus(new OpenshiftAssistedControlPlaneStatus());
    cp.getStatus().releaseImage = first.status();
    ReleaseImageResolution.Use again = throughTheMirror(cp);
    assertThat(again.image()).isEqualTo(first.image());
    assertThat(again.newlyResolved()).isFalse();
    assertThat(cache.lookups()).isEqualTo(1);
  }

  @Test
  void aNewResolveRequestLooksTheTagUpAgainAndIsRecorded() {
    OpenshiftAssistedControlPlane cp = controlPlane(Map.of());
    ReleaseImageResolution.Use first = throughTheMirror(cp);
    cp.setStatus(new OpenshiftAssistedControlPlaneStatus());
    cp.getStatus().releaseImage = first.status();
    cp.getMetadata().setAnnotations(Map.of(ReleaseImageResolution.RESOLVE_ANNOTATION, "again"));

    ReleaseImageResolution.Use again = throughTheMirror(cp);

    assertThat(again.newlyResolved()).isTrue();
    assertThat(again.status().resolveRequest).isEqualTo("again");
    assertThat(cache.lookups()).isEqualTo(2);
  }

  @Test
  void withoutTheMirrorTheUnreachableSourceIsAWaitWithARetry() {
    ReleaseImageResolution.Wait wait =
        (ReleaseImageResolution.Wait)
            resolution.resolve(
                inputs(controlPlane(Map.of()), source + ":4.20.0-x86_64", pullSecret(), null));

    assertThat(wait.reason()).isEqualTo(Reasons.REGISTRY_UNREACHABLE);
    assertThat(wait.message()).contains(source + ":4.20.0-x86_64");
    assertThat(wait.retryAfter()).isPositive().isLessThanOrEqualTo(Duration.ofSeconds(11));
  }

  @Test
  void aTagKeptByAnnotationOrADigestPinnedAsksNoRegistry() {
    ReleaseImageResolution.Use byTag =
        (ReleaseImageResolution.Use)
            resolution.resolve(
                inputs(
                    controlPlane(Map.of(ReleaseImageResolution.REFERENCE_ANNOTATION, "tag")),
                    source + ":4.20.0-x86_64",
                    pullSecret(),
                    null));
    String pinned =
        ReleaseImage.pullSpec(OpenShiftVersion.parse("4.20.0"), "x86_64", source + "@" + digest);
    ReleaseImageResolution.Use byDigest =
        (ReleaseImageResolution.Use)
            resolution.resolve(inputs(controlPlane(Map.of()), pinned, pullSecret(), null));

    assertThat(byTag.image()).isEqualTo(source + ":4.20.0-x86_64");
    assertThat(byTag.reason()).isEqualTo(ReleaseImages.TAG_KEPT);
    assertThat(byDigest.image()).isEqualTo(source + "@" + digest);
    assertThat(byDigest.reason()).isEqualTo(ReleaseImages.PINNED_BY_USER);
    assertThat(cache.lookups()).isZero();
  }

  @Test
  void anUnusablePullSecretOrMirrorConfigurationIsAWaitUntilTheyChange() {
    Secret broken =
        new SecretBuilder()
            .withMetadata(new ObjectMetaBuilder().withName("pull-secret").build())
            .withType("kubernetes.io/dockerconfigjson")
            .withData(
                Map.of(
                    ".dockerconfigjson",
                    Base64.getEncoder()
                        .encodeToString(
                            "{\"auths\":{\"m\":{\"auth\":\"c2VjcmV0\"}}}"
                                .getBytes(StandardCharsets.UTF_8))))
            .build();
    ConfigMap badConf =
        new ConfigMapBuilder()
            .withMetadata(new ObjectMetaBuilder().withName("mirrors").build())
            .withData(Map.of("registries.conf", "[[registry]]\nlocation = \"a\"\nnonsense\n"))
            .build();

    ReleaseImageResolution.Wait secret =
        (ReleaseImageResolution.Wait)
            resolution.resolve(
                inputs(controlPlane(Map.of()), source + ":4.20.0-x86_64", broken, null));
    ReleaseImageResolution.Wait conf =
        (ReleaseImageResolution.Wait)
            resolution.resolve(
                inputs(controlPlane(Map.of()), source + ":4.20.0-x86_64", pullSecret(), badConf));

    assertThat(secret.reason()).isEqualTo(ReleaseImageResolution.PULL_SECRET_INVALID);
    assertThat(secret.message())
        .contains("Secret pull-secret")
        .contains("not username:password")
        .doesNotContain("secret\"");
    assertThat(secret.retryAfter()).isNull();
    assertThat(conf.reason()).isEqualTo(ReleaseImageResolution.IMAGE_REGISTRY_CONFIG_INVALID);
    assertThat(conf.message()).contains("ConfigMap mirrors").contains("line 3");
    assertThat(conf.retryAfter()).isNull();
  }

  @Test
  void theHubsMirrorsAnswerForAClusterThatNamesNone() throws Exception {
    Path conf = dir.resolve("hub-registries.conf");
    java.nio.file.Files.writeString(conf, registriesConf());
    Path ca = dir.resolve("hub-ca.crt");
    java.nio.file.Files.writeString(ca, mirrorCa);
    ReleaseImageResolution onAHubWithMirrors =
        new ReleaseImageResolution(
            ReleaseImages.overRegistries(
                Duration.ofSeconds(5), "openshift-agent-tests", cache, Clock.systemUTC()),
            HubRegistries.fromEnvironment(
                Map.of(
                    HubRegistries.REGISTRIES_CONF_ENV,
                    conf.toString(),
                    HubRegistries.CA_BUNDLE_ENV,
                    ca.toString())),
            Clock.systemUTC());

    ReleaseImageResolution.Use use =
        (ReleaseImageResolution.Use)
            onAHubWithMirrors.resolve(
                inputs(controlPlane(Map.of()), source + ":4.20.0-x86_64", pullSecret(), null));

    assertThat(use.image()).isEqualTo(source + "@" + digest);
    assertThat(use.status().resolvedFrom).isEqualTo(mirror.host() + "/ocp4/release:4.20.0-x86_64");

    java.nio.file.Files.writeString(conf, "[[registry]]\nnonsense\n");
    ReleaseImageResolution.Wait broken =
        (ReleaseImageResolution.Wait)
            onAHubWithMirrors.resolve(
                inputs(controlPlane(Map.of()), source + ":4.20.1-x86_64", pullSecret(), null));
    assertThat(broken.reason()).isEqualTo(ReleaseImageResolution.HUB_REGISTRIES_CONF_INVALID);
    assertThat(broken.message())
        .contains(HubRegistries.REGISTRIES_CONF_ENV + " " + conf)
        .contains("line 2");
  }

  /** The x86_64 release of the unreachable source, with the mirror's configuration. */
  private ReleaseImageResolution.Use throughTheMirror(OpenshiftAssistedControlPlane cp) {
    return (ReleaseImageResolution.Use)
        resolution.resolve(inputs(cp, source + ":4.20.0-x86_64", pullSecret(), registryConfig()));
  }

  /**
   * What a reconcile hands over: the control plane names the pull secret and, when {@code config}
   * is given, the mirror configuration.
   */
  private static ReleaseInputs inputs(
      OpenshiftAssistedControlPlane cp, String requested, Secret pullSecret, ConfigMap config) {
    cp.getSpec().config.pullSecretRef =
        new LocalObjectReference(pullSecret.getMetadata().getName());
    cp.getSpec().config.imageRegistryRef =
        config == null ? null : new LocalObjectReference(config.getMetadata().getName());
    return new ReleaseInputs(
        cp,
        requested,
        List.of("x86_64"),
        () -> Optional.of(pullSecret),
        () -> Optional.ofNullable(config));
  }

  private static OpenshiftAssistedControlPlane controlPlane(Map<String, String> annotations) {
    OpenshiftAssistedControlPlane cp = new OpenshiftAssistedControlPlane();
    cp.setMetadata(
        new ObjectMetaBuilder()
            .withName("cp")
            .withNamespace("ns")
            .withAnnotations(new java.util.HashMap<>(annotations))
            .build());
    cp.setSpec(new OpenshiftAssistedControlPlaneSpec());
    cp.getSpec().config = new ClusterConfig();
    return cp;
  }

  private static Secret pullSecret() {
    return new SecretBuilder()
        .withMetadata(new ObjectMetaBuilder().withName("pull-secret").build())
        .withType("kubernetes.io/dockerconfigjson")
        .withData(
            Map.of(
                ".dockerconfigjson",
                Base64.getEncoder()
                    .encodeToString(mirror.dockerConfigJson().getBytes(StandardCharsets.UTF_8))))
        .build();
  }

  private static ConfigMap registryConfig() {
    return new ConfigMapBuilder()
        .withMetadata(new ObjectMetaBuilder().withName("mirrors").build())
        .withData(Map.of("registries.conf", registriesConf(), "ca-bundle.crt", mirrorCa))
        .build();
  }

  /** The unreachable source mirrored to the registry. */
  private static String registriesConf() {
    return "[[registry]]\nlocation = \""
        + source
        + "\"\n[[registry.mirror]]\nlocation = \""
        + mirror.host()
        + "/ocp4/release\"\n";
  }
}
