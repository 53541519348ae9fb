package io.openshiftagent.registry;

import static org.assertj.core.api.Assertions.assertThat;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Metrics;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.openshiftagent.testsupport.Crane;
import io.openshiftagent.testsupport.FreePorts;
import io.openshiftagent.testsupport.OciRegistry;
import io.openshiftagent.testsupport.TestPki;
import io.openshiftagent.tls.TrustedCertificates;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * What the control plane gets for a request, against a real registry: lookups only when nothing
 * recorded or cached answers, and none at all for what the user pinned or asked to keep.
 */
class ReleaseImagesTest {
  @TempDir static Path dir;
  static OciRegistry registry;
  static TrustedCertificates trust;
  static String tag;
  static String digest;

  private final ResolutionCache cache =
      new ResolutionCache(Clock.systemUTC(), Duration.ofSeconds(10), Duration.ofMinutes(5), 100);
  private final ReleaseImages images =
      ReleaseImages.overRegistries(
          Duration.ofSeconds(5), "openshift-agent-tests", cache, Clock.systemUTC());

  @BeforeAll
  static void registry() throws Exception {
    TestPki ca = TestPki.newCertificateAuthority("release images tests");
    registry = OciRegistry.start(dir.resolve("registry"), ca, Map.of());
    trust = TrustedCertificates.withBundles(List.of(ca.caPem()));
    tag = registry.host() + "/ocp/release:4.20.0-x86_64";
    digest =
        new Crane(dir.resolve("crane"), registry)
            .pushRelease(registry.host() + "/ocp/release", "4.20.0-x86_64", "amd64", "1.33.2");
  }

  @AfterAll
  static void stop() throws Exception {
    registry.close();
  }

  private ReleaseImages.Request request(
      String requested, boolean keepTag, String token, ReleaseImages.Recorded recorded) {
    return new ReleaseImages.Request(
        requested,
        Set.of("amd64"),
        PullSecret.none(),
        RegistriesConf.EMPTY,
        trust,
        keepTag,
        token,
        recorded);
  }

  /** What a scrape shows: each lookup that asked registries, by outcome; cached answers not. */
  @Test
  void lookupsAreCountedByOutcome() {
    SimpleMeterRegistry meters = new SimpleMeterRegistry();
    Metrics.globalRegistry.add(meters);
    try {
      String other = registry.host() + "/ocp/release:4.20.0-x86_64";
      images.answer(request(other, false, "counted", null));
      images.answer(request(other, false, "counted", null));
      String unreachable = "127.0.0.1:" + FreePorts.next() + "/ocp/release:4.20.0";
      images.answer(request(unreachable, false, "", null));

      assertThat(count(meters, ReleaseImages.RESOLVED)).isEqualTo(1);
      assertThat(count(meters, Reasons.REGISTRY_UNREACHABLE)).isEqualTo(1);
    } finally {
      Metrics.globalRegistry.remove(meters);
    }
  }

  private static double count(SimpleMeterRegistry meters, String outcome) {
    Counter counter = meters.find(ReleaseImages.LOOKUPS).tag("outcome", outcome).counter();
    return counter == null ? 0 : counter.count();
  }

  @Test
  void aTagIsLookedUpOnceThenAnsweredFromTheCache() {
    ReleaseImages.Ready first = (ReleaseImages.Ready) images.answer(request(tag, false, "", null));
    ReleaseImages.Ready second = (ReleaseImages.Ready) images.answer(request(tag, false, "", null));

    assertThat(first.image()).isEqualTo(registry.host() + "/ocp/release@" + digest);
    assertThat(first.how()).isEqualTo(ReleaseImages.RESOLVED);
    assertThat(first.resolvedFrom()).isEqualTo(tag);
    assertThat(first.lookedUp()).isTrue();
    assertThat(second.image()).isEqualTo(first.image());
    assertThat(second.lookedUp()).isFalse();
    assertThat(cache.lookups()).isEqualTo(1);
  }

  @Test
  void aRecordedDigestIsReusedWithoutAskingAfterARestart() {
    String unreachable = "127.0.0.1:" + FreePorts.next() + "/ocp/release:4.20.0-x86_64";
    ReleaseImages.Recorded recorded =
        new ReleaseImages.Recorded(
            unreachable,
            unreachable.replace(":4.20.0-x86_64", "@" + digest),
            "mirror.example/ocp/release:4.20.0-x86_64",
            Instant.parse("2026-01-01T00:00:00Z"),
            "");

    ReleaseImages.Ready ready =
        (ReleaseImages.Ready) images.answer(request(unreachable, false, "", recorded));

    assertThat(ready.image()).isEqualTo(recorded.image());
    assertThat(ready.resolvedAt()).isEqualTo(recorded.resolvedAt());
    assertThat(ready.lookedUp()).isFalse();
    assertThat(cache.lookups()).isZero();
  }

  @Test
  void aNewReResolutionTokenLooksTheTagUpAgain() {
    ReleaseImages.Ready first = (ReleaseImages.Ready) images.answer(request(tag, false, "", null));
    ReleaseImages.Recorded recorded =
        new ReleaseImages.Recorded(
            first.requested(), first.image(), first.resolvedFrom(), first.resolvedAt(), "");

    ReleaseImages.Ready again =
        (ReleaseImages.Ready) images.answer(request(tag, false, "2026-11-25", recorded));

    assertThat(again.lookedUp()).isTrue();
    assertThat(again.token()).isEqualTo("2026-11-25");
    assertThat(cache.lookups()).isEqualTo(2);
  }

  @Test
  void aPinnedDigestOrAKeptTagAsksNoRegistry() {
    String pinned = "127.0.0.1:" + FreePorts.next() + "/ocp/release@" + digest;
    String unreachableTag = "127.0.0.1:" + FreePorts.next() + "/ocp/release:4.20.0-x86_64";

    ReleaseImages.Ready byDigest =
        (ReleaseImages.Ready) images.answer(request(pinned, false, "", null));
    ReleaseImages.Ready byTag =
        (ReleaseImages.Ready) images.answer(request(unreachableTag, true, "", null));

    assertThat(byDigest.image()).isEqualTo(pinned);
    assertThat(byDigest.how()).isEqualTo(ReleaseImages.PINNED_BY_USER);
    assertThat(byTag.image()).isEqualTo(unreachableTag);
    assertThat(byTag.how()).isEqualTo(ReleaseImages.TAG_KEPT);
    assertThat(cache.lookups()).isZero();
  }

  @Test
  void aFailureSaysWhenItIsTriedAgainAndAnInvalidSpecSaysNothingWill() {
    String unreachable = "127.0.0.1:" + FreePorts.next() + "/ocp/release:4.20.0-x86_64";

    ReleaseImages.NotReady failed =
        (ReleaseImages.NotReady) images.answer(request(unreachable, false, "", null));
    ReleaseImages.NotReady heldBack =
        (ReleaseImages.NotReady) images.answer(request(unreachable, false, "", null));
    ReleaseImages.NotReady invalid =
        (ReleaseImages.NotReady) images.answer(request("ocp/release:4.20", false, "", null));

    assertThat(failed.reason()).isEqualTo(Reasons.REGISTRY_UNREACHABLE);
    assertThat(failed.retryAt()).isAfter(Instant.now());
    assertThat(failed.lookedUp()).isTrue();
    assertThat(heldBack.reason()).isEqualTo(failed.reason());
    assertThat(heldBack.lookedUp()).as("answered from the cache until the retry time").isFalse();
    assertThat(cache.lookups()).isEqualTo(1);
    assertThat(invalid.reason()).isEqualTo(ReleaseImages.RELEASE_IMAGE_INVALID);
    assertThat(invalid.message()).contains("names no registry host");
    assertThat(invalid.retryAt()).isNull();
  }
}
