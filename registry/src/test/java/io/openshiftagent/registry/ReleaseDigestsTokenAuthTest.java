package io.openshiftagent.registry;

import static org.assertj.core.api.Assertions.assertThat;

import io.openshiftagent.testsupport.Crane;
import io.openshiftagent.testsupport.OciRegistry;
import io.openshiftagent.testsupport.TestPki;
import io.openshiftagent.testsupport.TokenService;
import io.openshiftagent.tls.TrustedCertificates;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A real distribution registry behind a bearer-token service (the flow Quay and Docker Hub use):
 * the resolver gets a token with the pull secret's credentials, and a refusal of the token service
 * (401 wrong credentials, 403 a user without access) is told apart.
 */
class ReleaseDigestsTokenAuthTest {
  @TempDir static Path dir;
  static TokenService tokens;
  static OciRegistry registry;
  static String caPem;
  static String digest;
  static final ReleaseDigests RESOLVER =
      new ReleaseDigests(
          new RegistryLookup(Duration.ofSeconds(5), "openshift-agent-tests"), Clock.systemUTC());

  @BeforeAll
  static void registry() throws Exception {
    TestPki ca = TestPki.newCertificateAuthority("token registry tests");
    caPem = ca.caPem();
    tokens =
        TokenService.start(
            ca,
            Map.of("puller", "pull-password", "outsider", "outsider-password"),
            Set.of("outsider"));
    // crane refuses a token realm on another loopback port than the registry's (its guard against
    // requests to private addresses), so it pushes through the same storage served with htpasswd.
    try (OciRegistry pushing =
        OciRegistry.start(dir.resolve("registry"), ca, Map.of("pusher", "push-password"))) {
      digest =
          new Crane(dir.resolve("crane"), pushing)
              .pushRelease(pushing.host() + "/ocp/release", "4.20.0-x86_64", "amd64", "1.33.2");
    }
    registry =
        OciRegistry.startWithTokens(
            dir.resolve("registry"), ca, tokens, Map.of("puller", "pull-password"));
  }

  @AfterAll
  static void stop() throws Exception {
    registry.close();
    tokens.close();
  }

  @Test
  void aTokenFromTheTokenServiceResolvesTheTag() {
    ReleaseDigests.Resolved resolved =
        (ReleaseDigests.Resolved) RESOLVER.resolve(request("puller", "pull-password"));

    assertThat(resolved.image().digest()).isEqualTo(digest);
  }

  @Test
  void wrongCredentialsRefusedByTheTokenServiceAreRegistryUnauthorized() {
    ReleaseDigests.Unresolved unresolved =
        (ReleaseDigests.Unresolved) RESOLVER.resolve(request("puller", "wrong"));

    assertThat(unresolved.reason()).isEqualTo(Reasons.REGISTRY_UNAUTHORIZED);
    assertThat(unresolved.message()).contains("token service").doesNotContain("wrong");
  }

  @Test
  void aUserTheTokenServiceForbidsIsRegistryForbidden() {
    ReleaseDigests.Unresolved unresolved =
        (ReleaseDigests.Unresolved) RESOLVER.resolve(request("outsider", "outsider-password"));

    assertThat(unresolved.reason()).isEqualTo(Reasons.REGISTRY_FORBIDDEN);
    assertThat(unresolved.message())
        .contains(registry.host() + "/ocp/release:4.20.0-x86_64")
        .contains("403")
        .doesNotContain("outsider-password");
    System.out.println("RegistryForbidden: " + unresolved.message());
  }

  @Test
  void anAnonymousTokenGrantsNothingSoTheRegistryRefuses() {
    ReleaseDigests.Unresolved unresolved =
        (ReleaseDigests.Unresolved)
            RESOLVER.resolve(
                new ReleaseDigests.Request(
                    ImageReference.parse(registry.host() + "/ocp/release:4.20.0-x86_64"),
                    Set.of("amd64"),
                    PullSecret.none(),
                    RegistriesConf.EMPTY,
                    TrustedCertificates.withBundles(List.of(caPem))));

    assertThat(unresolved.reason()).isEqualTo(Reasons.REGISTRY_UNAUTHORIZED);
    assertThat(unresolved.message())
        .contains("the pull secret has no entry for " + registry.host());
  }

  private static ReleaseDigests.Request request(String user, String password) {
    return new ReleaseDigests.Request(
        ImageReference.parse(registry.host() + "/ocp/release:4.20.0-x86_64"),
        Set.of("amd64"),
        PullSecret.parse(
            OciRegistry.dockerConfigJson(registry.host(), Map.of(user, password))
                .getBytes(StandardCharsets.UTF_8)),
        RegistriesConf.EMPTY,
        TrustedCertificates.withBundles(List.of(caPem)));
  }
}
