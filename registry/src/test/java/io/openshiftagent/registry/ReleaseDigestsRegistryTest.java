package io.openshiftagent.registry;

import static org.assertj.core.api.Assertions.assertThat;

import io.openshiftagent.testsupport.Crane;
import io.openshiftagent.testsupport.FreePorts;
import io.openshiftagent.testsupport.OciRegistry;
import io.openshiftagent.testsupport.TestPki;
import io.openshiftagent.tls.TrustedCertificates;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Digest resolution against real CNCF distribution registries on loopback (TLS from a test CA,
 * htpasswd users), holding small release images that crane pushed and copied: a source and a
 * mirror, each with its own credentials.
 */
class ReleaseDigestsRegistryTest {
  private static final Duration TIMEOUT = Duration.ofSeconds(2);

  @TempDir static Path dir;
  static TestPki ca;
  static String caPem;
  static OciRegistry source;
  static OciRegistry mirror;
  static Crane crane;
  static String x86Digest;
  static String armDigest;
  static String multiDigest;
  static String okdDigest;
  static final ReleaseDigests RESOLVER =
      new ReleaseDigests(new RegistryLookup(TIMEOUT, "openshift-agent-tests"), Clock.systemUTC());

  @BeforeAll
  static void registries() throws Exception {
    long started = System.nanoTime();
    ca = TestPki.newCertificateAuthority("registry tests");
    caPem = ca.caPem();
    source = OciRegistry.start(dir.resolve("source"), ca, Map.of("puller", "source-password"));
    mirror = OciRegistry.start(dir.resolve("mirror"), ca, Map.of("mirrorer", "mirror-password"));
    crane = new Crane(dir.resolve("crane"), source, mirror);
    String release = source.host() + "/ocp/release";
    x86Digest = crane.pushRelease(release, "4.20.0-x86_64", "amd64", "1.33.2");
    armDigest = crane.pushRelease(release, "4.20.0-aarch64", "arm64", "1.33.2");
    multiDigest =
        crane.pushIndex(
            release + ":4.20.0-multi",
            List.of(release + "@" + x86Digest, release + "@" + armDigest));
    String okd = source.host() + "/okd/scos-release";
    String okdAmd = crane.pushRelease(okd, "amd64-4.19.0-okd-scos.1", "amd64", "1.32.4");
    String okdArm = crane.pushRelease(okd, "arm64-4.19.0-okd-scos.1", "arm64", "1.32.4");
    okdDigest =
        crane.pushIndex(
            okd + ":4.19.0-okd-scos.1", List.of(okd + "@" + okdAmd, okd + "@" + okdArm));
    // A mirror made as disconnected installs make them: a copy that keeps the digests.
    for (String tag : List.of("4.20.0-x86_64", "4.20.0-multi")) {
      crane.run("copy", release + ":" + tag, mirror.host() + "/mirror/ocp/release:" + tag);
    }
    System.out.printf(
        "registry tests: two registries started and 7 images pushed in %d ms%n",
        (System.nanoTime() - started) / 1_000_000);
  }

  @AfterAll
  static void stop() throws Exception {
    source.close();
    mirror.close();
  }

  @Test
  void aTagResolvesToTheDigestTheRegistryHolds() {
    ReleaseDigests.Resolution resolution =
        RESOLVER.resolve(request(source.host() + "/ocp/release:4.20.0-x86_64", "amd64"));

    assertThat(resolution).isInstanceOf(ReleaseDigests.Resolved.class);
    ReleaseDigests.Resolved resolved = (ReleaseDigests.Resolved) resolution;
    assertThat(resolved.image().toString()).isEqualTo(source.host() + "/ocp/release@" + x86Digest);
    assertThat(resolved.pinnedByUser()).isFalse();
  }

  @Test
  void theMultiReleaseResolvesWhenItsListHasEveryArchitecture() {
    ReleaseDigests.Resolved resolved =
        (ReleaseDigests.Resolved)
            RESOLVER.resolve(
                request(source.host() + "/ocp/release:4.20.0-multi", "amd64", "arm64"));

    assertThat(resolved.image().digest()).isEqualTo(multiDigest);
  }

  @Test
  void okdsManifestListResolvesToTheListsDigest() {
    ReleaseDigests.Resolved resolved =
        (ReleaseDigests.Resolved)
            RESOLVER.resolve(
                request(source.host() + "/okd/scos-release:4.19.0-okd-scos.1", "arm64"));

    assertThat(resolved.image().digest()).isEqualTo(okdDigest);
  }

  @Test
  void aMirrorIsAskedBeforeTheSourceAndTheDigestNamesTheSource() {
    String unreachable = "127.0.0.1:" + FreePorts.next();

    ReleaseDigests.Resolved resolved = (ReleaseDigests.Resolved) throughMirror(unreachable, "");

    assertThat(resolved.image().toString()).isEqualTo(unreachable + "/ocp/release@" + x86Digest);
    assertThat(resolved.answeredBy().toString())
        .isEqualTo(mirror.host() + "/mirror/ocp/release:4.20.0-x86_64");
  }

  @Test
  void aDigestOnlyMirrorIsNotAskedForATag() {
    ReleaseDigests.Unresolved unresolved =
        (ReleaseDigests.Unresolved)
            throughMirror("127.0.0.1:" + FreePorts.next(), "pull-from-mirror = \"digest-only\"");

    assertThat(unresolved.reason()).isEqualTo(Reasons.REGISTRY_UNREACHABLE);
    assertThat(unresolved.message()).doesNotContain(mirror.host());
  }

  /** The x86_64 release from {@code source}, which registries.conf mirrors to the mirror. */
  private static ReleaseDigests.Resolution throughMirror(String source, String mirrorOptions) {
    RegistriesConf conf =
        RegistriesConf.parse(
            """
            [[registry]]
            location = "%s/ocp/release"
            [[registry.mirror]]
            location = "%s/mirror/ocp/release"
            %s
            """
                .formatted(source, mirror.host(), mirrorOptions));
    return RESOLVER.resolve(
        request(
            source + "/ocp/release:4.20.0-x86_64",
            pullSecret(ReleaseDigestsRegistryTest.source, mirror),
            conf,
            TrustedCertificates.withBundles(List.of(caPem))));
  }

  @Test
  void anUnknownTagIsReleaseImageNotFoundNamingTheImageAndTheRegistry() {
    ReleaseDigests.Unresolved unresolved =
        (ReleaseDigests.Unresolved)
            RESOLVER.resolve(request(source.host() + "/ocp/release:4.99.0-x86_64", "amd64"));

    assertThat(unresolved.reason()).isEqualTo(Reasons.RELEASE_IMAGE_NOT_FOUND);
    assertThat(unresolved.message())
        .contains(source.host() + "/ocp/release:4.99.0-x86_64")
        .contains("manifest unknown");
    System.out.println("ReleaseImageNotFound: " + unresolved.message());
  }

  @Test
  void wrongCredentialsAreRegistryUnauthorizedAndNeverShown() {
    PullSecret wrong =
        PullSecret.parse(
            OciRegistry.dockerConfigJson(source.host(), Map.of("puller", "not-the-password"))
                .getBytes(StandardCharsets.UTF_8));
    ReleaseDigests.Unresolved unresolved =
        (ReleaseDigests.Unresolved)
            RESOLVER.resolve(
                request(
                    source.host() + "/ocp/release:4.20.0-x86_64",
                    wrong,
                    RegistriesConf.EMPTY,
                    TrustedCertificates.withBundles(List.of(caPem))));

    assertThat(unresolved.reason()).isEqualTo(Reasons.REGISTRY_UNAUTHORIZED);
    assertThat(unresolved.message())
        .contains(source.host())
        .contains("with the pull secret's credentials for " + source.host())
        .doesNotContain("not-the-password")
        .doesNotContain("puller");
    System.out.println("RegistryUnauthorized: " + unresolved.message());
  }

  @Test
  void noCredentialsForAnAuthenticatingRegistrySaysThePullSecretHasNoEntry() {
    ReleaseDigests.Unresolved unresolved =
        (ReleaseDigests.Unresolved)
            RESOLVER.resolve(
                request(
                    source.host() + "/ocp/release:4.20.0-x86_64",
                    PullSecret.none(),
                    RegistriesConf.EMPTY,
                    TrustedCertificates.withBundles(List.of(caPem))));

    assertThat(unresolved.reason()).isEqualTo(Reasons.REGISTRY_UNAUTHORIZED);
    assertThat(unresolved.message()).contains("the pull secret has no entry for " + source.host());
  }

  @Test
  void aCertificateFromAnUntrustedCaIsRegistryTlsFailed() {
    ReleaseDigests.Unresolved unresolved =
        (ReleaseDigests.Unresolved)
            RESOLVER.resolve(
                request(
                    source.host() + "/ocp/release:4.20.0-x86_64",
                    pullSecret(source),
                    RegistriesConf.EMPTY,
                    TrustedCertificates.jvmDefaults()));

    assertThat(unresolved.reason()).isEqualTo(Reasons.REGISTRY_TLS_FAILED);
    assertThat(unresolved.message()).contains(source.host()).contains("CA");
    System.out.println("RegistryTLSFailed: " + unresolved.message());
  }

  @Test
  void aRegistryThatNeverAnswersIsRegistryTimeoutWithinTheTimeout() throws Exception {
    try (ServerSocket silent = new ServerSocket(0, 50, java.net.InetAddress.getLoopbackAddress())) {
      List<Socket> held = new ArrayList<>();
      Thread acceptor =
          new Thread(
              () -> {
                try {
                  while (true) {
                    held.add(silent.accept()); // accept, then never say a word
                  }
                } catch (Exception e) {
                  // closed
                }
              });
      acceptor.start();
      long started = System.nanoTime();
      ReleaseDigests.Unresolved unresolved =
          (ReleaseDigests.Unresolved)
              RESOLVER.resolve(
                  request(
                      "127.0.0.1:" + silent.getLocalPort() + "/ocp/release:4.20.0-x86_64",
                      "amd64"));
      long tookMs = (System.nanoTime() - started) / 1_000_000;

      assertThat(unresolved.reason()).isEqualTo(Reasons.REGISTRY_TIMEOUT);
      assertThat(unresolved.message()).contains("127.0.0.1:" + silent.getLocalPort());
      assertThat(tookMs).as("one try, bounded by the timeout").isLessThan(3 * TIMEOUT.toMillis());
      System.out.printf("RegistryTimeout after %d ms: %s%n", tookMs, unresolved.message());
    }
  }

  @Test
  void aPortNobodyListensOnIsRegistryUnreachable() {
    String host = "127.0.0.1:" + FreePorts.next();
    ReleaseDigests.Unresolved unresolved =
        (ReleaseDigests.Unresolved)
            RESOLVER.resolve(request(host + "/ocp/release:4.20.0-x86_64", "amd64"));

    assertThat(unresolved.reason()).isEqualTo(Reasons.REGISTRY_UNREACHABLE);
    assertThat(unresolved.message()).contains(host).contains("cannot connect (connection refused)");
    System.out.println("RegistryUnreachable: " + unresolved.message());
  }

  @Test
  void aNameThatDoesNotResolveIsRegistryUnreachableUnknownHost() {
    // .invalid never resolves (RFC 2606): what a disconnected site's hub sees of quay.io.
    ReleaseDigests.Unresolved unresolved =
        (ReleaseDigests.Unresolved)
            RESOLVER.resolve(request("registry.invalid/ocp/release:4.20.0-x86_64", "amd64"));

    assertThat(unresolved.reason()).isEqualTo(Reasons.REGISTRY_UNREACHABLE);
    assertThat(unresolved.message())
        .contains("registry registry.invalid: cannot connect (unknown host)");
  }

  @Test
  void aManifestListWithoutTheClustersArchitectureIsArchitectureNotInRelease() {
    ReleaseDigests.Unresolved unresolved =
        (ReleaseDigests.Unresolved)
            RESOLVER.resolve(
                request(source.host() + "/okd/scos-release:4.19.0-okd-scos.1", "amd64", "ppc64le"));

    assertThat(unresolved.reason())
        .as(unresolved.message())
        .isEqualTo(Reasons.ARCHITECTURE_NOT_IN_RELEASE);
    assertThat(unresolved.message())
        .contains(source.host() + "/okd/scos-release:4.19.0-okd-scos.1")
        .contains("amd64, arm64")
        .contains("without ppc64le");
    System.out.println("ArchitectureNotInRelease: " + unresolved.message());
  }

  @Test
  void aDigestTheUserPinnedIsKeptWithoutAskingAnyRegistry() {
    String pinned = "127.0.0.1:" + FreePorts.next() + "/ocp/release@" + x86Digest;
    ReleaseDigests.Resolved resolved =
        (ReleaseDigests.Resolved) RESOLVER.resolve(request(pinned, "amd64"));

    assertThat(resolved.image().toString()).isEqualTo(pinned);
    assertThat(resolved.pinnedByUser()).isTrue();
  }

  private static ReleaseDigests.Request request(
      String image, PullSecret pullSecret, RegistriesConf mirrors, TrustedCertificates trust) {
    return new ReleaseDigests.Request(
        ImageReference.parse(image), Set.of("amd64"), pullSecret, mirrors, trust);
  }

  private static ReleaseDigests.Request request(String image, String... architectures) {
    return new ReleaseDigests.Request(
        ImageReference.parse(image),
        Set.of(architectures),
        pullSecret(source),
        RegistriesConf.EMPTY,
        TrustedCertificates.withBundles(List.of(caPem)));
  }

  private static PullSecret pullSecret(OciRegistry... registries) {
    StringBuilder auths = new StringBuilder();
    for (OciRegistry r : registries) {
      String one = r.dockerConfigJson();
      auths.append(auths.length() == 0 ? "" : ",").append(one, 10, one.length() - 2);
    }
    return PullSecret.parse(("{\"auths\":{" + auths + "}}").getBytes(StandardCharsets.UTF_8));
  }
}
