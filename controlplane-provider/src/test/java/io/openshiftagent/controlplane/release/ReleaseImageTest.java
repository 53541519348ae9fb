package io.openshiftagent.controlplane.release;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class ReleaseImageTest {
  @Test
  void ocpReleaseIsTaggedWithVersionAndArchitecture() {
    assertThat(ReleaseImage.pullSpec(OpenShiftVersion.parse("4.20.0"), null, null))
        .isEqualTo("quay.io/openshift-release-dev/ocp-release:4.20.0-x86_64");
    assertThat(ReleaseImage.pullSpec(OpenShiftVersion.parse("4.20.0"), "arm64", null))
        .isEqualTo("quay.io/openshift-release-dev/ocp-release:4.20.0-aarch64");
  }

  @Test
  void okdReleaseComesFromTheScosRepositoryWithoutArchitecture() {
    assertThat(
            ReleaseImage.pullSpec(OpenShiftVersion.parse("4.19.0-okd-scos.ec.6"), "x86_64", null))
        .isEqualTo("quay.io/okd/scos-release:4.19.0-okd-scos.ec.6");
  }

  @Test
  void repositoryOverrideReplacesTheRepository() {
    assertThat(
            ReleaseImage.pullSpec(
                OpenShiftVersion.parse("4.20.0-ec.3"),
                "x86_64",
                "mirror.example.com:5000/ocp/release"))
        .isEqualTo("mirror.example.com:5000/ocp/release:4.20.0-ec.3-x86_64");
    assertThat(ReleaseImage.isDefaultRepository(null)).isTrue();
    assertThat(ReleaseImage.isDefaultRepository(ReleaseImage.OCP_REPOSITORY)).isTrue();
    assertThat(ReleaseImage.isDefaultRepository("mirror.example.com/ocp")).isFalse();
  }

  @org.junit.jupiter.params.ParameterizedTest
  @org.junit.jupiter.params.provider.CsvSource(
      delimiter = '|',
      value = {
        "'' | x86_64",
        "x86_64 | x86_64",
        "x86_64,amd64 | x86_64",
        "arm64,aarch64 | aarch64",
        "x86_64,aarch64 | multi",
        "ppc64le,s390x,x86_64 | multi",
      })
  void configsThatNameDifferentArchitecturesGetTheMultiRelease(
      String architectures, String release) {
    java.util.List<String> archs =
        architectures.isEmpty() ? java.util.List.of() : java.util.List.of(architectures.split(","));

    assertThat(ReleaseImage.architecture(archs)).isEqualTo(release);
    assertThat(ReleaseImage.pullSpec(OpenShiftVersion.parse("4.20.0"), release, null))
        .isEqualTo("quay.io/openshift-release-dev/ocp-release:4.20.0-" + release);
  }

  @Test
  void aDigestInTheOverrideIsTheReleaseAsItIs() {
    String pinned =
        "mirror.example.com:5000/ocp/release@sha256:0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef";

    assertThat(ReleaseImage.pullSpec(OpenShiftVersion.parse("4.20.0"), "x86_64", pinned))
        .isEqualTo(pinned);
    assertThat(ReleaseImage.pullSpec(OpenShiftVersion.parse("4.19.0-okd-scos.1"), null, pinned))
        .isEqualTo(pinned);
  }
}
