package io.openshiftagent.registry;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

class ImageReferenceTest {
  private static final String DIGEST =
      "sha256:0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef";

  @ParameterizedTest
  @CsvSource({
    "quay.io/openshift-release-dev/ocp-release:4.20.0-x86_64, quay.io, openshift-release-dev/ocp-release, 4.20.0-x86_64,",
    "mirror.example:5000/ocp/release:4.20.0-multi, mirror.example:5000, ocp/release, 4.20.0-multi,",
    "127.0.0.1:5000/okd/scos-release:4.19.0-okd-scos.1, 127.0.0.1:5000, okd/scos-release, 4.19.0-okd-scos.1,",
    "localhost/release, localhost, release,,",
  })
  void parsesRegistryRepositoryAndTag(
      String value, String registry, String repository, String tag, String digest) {
    ImageReference ref = ImageReference.parse(value);

    assertThat(ref.registry()).isEqualTo(registry);
    assertThat(ref.repository()).isEqualTo(repository);
    assertThat(ref.tag()).isEqualTo(tag);
    assertThat(ref.digest()).isEqualTo(digest);
    assertThat(ref.toString()).isEqualTo(value);
  }

  @ParameterizedTest
  @ValueSource(
      strings = {
        "quay.io/ocp/release@" + DIGEST,
        "quay.io/ocp/release:4.20.0@" + DIGEST,
        "mirror.example:5000/a/b/c@" + DIGEST
      })
  void keepsADigestAndPinsToIt(String value) {
    ImageReference ref = ImageReference.parse(value);

    assertThat(ref.digest()).isEqualTo(DIGEST);
    assertThat(ref.hasDigest()).isTrue();
    assertThat(ref.qualifier()).isEqualTo(DIGEST);
    assertThat(ref.withDigest(DIGEST).toString()).isEqualTo(ref.name() + "@" + DIGEST);
  }

  @ParameterizedTest
  @CsvSource(
      delimiter = '|',
      value = {
        "ocp/release:4.20.0 | names no registry host",
        "release | names no registry host",
        "quay.io/ocp/release@sha256:abc | the digest is not sha256",
        "quay.io/OCP/release:1 | invalid repository",
        "quay.io/ocp/release:bad tag | invalid tag",
        "'' | empty",
      })
  void refusesWhatIsNotAnImageWithARegistry(String value, String problem) {
    assertThatThrownBy(() -> ImageReference.parse(value))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining(problem);
  }

  @org.junit.jupiter.api.Test
  void movesToAMirrorKeepingTheTag() {
    ImageReference ref = ImageReference.parse("quay.io/ocp/release:4.20.0-x86_64");

    assertThat(ref.inRepository("mirror.example:5000/ocp4/release").toString())
        .isEqualTo("mirror.example:5000/ocp4/release:4.20.0-x86_64");
  }
}
