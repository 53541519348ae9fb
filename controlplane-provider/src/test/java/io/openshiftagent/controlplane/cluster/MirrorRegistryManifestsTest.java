package io.openshiftagent.controlplane.cluster;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Map;
import org.junit.jupiter.api.Test;

public class MirrorRegistryManifestsTest {
  public static final String REGISTRIES_CONF =
      """
      unqualified-search-registries = ["registry.access.redhat.com"]
      # release images by digest
      [[registry]]
        prefix = ""
        location = "quay.io/openshift-release-dev/ocp-release"
        [[registry.mirror]]
          location = "mirror.example.com:5000/ocp/release" # the mirror
      [[registry]]
        location = "quay.io/openshift-release-dev/ocp-v4.0-art-dev"
        [[registry.mirror]]
          location = "mirror.example.com:5000/ocp/art"
          pull-from-mirror = "tag-only"
          insecure = true
      """;

  @Test
  void digestAndTagMirrorsBecomeMirrorSets() {
    Map<String, String> data = MirrorRegistryManifests.generate(REGISTRIES_CONF, null);
    assertThat(data)
        .containsOnlyKeys(
            "image-digest-mirror-set.json", "image-tag-mirror-set.json", "image-config.json");
    assertThat(data.get("image-digest-mirror-set.json"))
        .isEqualTo(
            "{\"apiVersion\":\"config.openshift.io/v1\",\"kind\":\"ImageDigestMirrorSet\",\"metadata\":"
                + "{\"name\":\"additional-registry\"},\"spec\":{\"imageDigestMirrors\":[{\"source\":"
                + "\"quay.io/openshift-release-dev/ocp-release\",\"mirrors\":[\"mirror.example.com:5000/ocp/release\"]}]}}");
    assertThat(data.get("image-tag-mirror-set.json"))
        .contains("\"kind\":\"ImageTagMirrorSet\"")
        .contains(
            "{\"source\":\"quay.io/openshift-release-dev/ocp-v4.0-art-dev\",\"mirrors\":[\"mirror.example.com:5000/ocp/art\"]}");
    assertThat(data.get("image-config.json"))
        .isEqualTo(
            "{\"apiVersion\":\"config.openshift.io/v1\",\"kind\":\"Image\",\"metadata\":{\"name\":\"cluster\"},"
                + "\"spec\":{\"registrySources\":{\"insecureRegistries\":[\"mirror.example.com:5000/ocp/art\"]}}}");
  }

  @Test
  void caBundleIsTrustedForEachMirrorHost() {
    Map<String, String> data = MirrorRegistryManifests.generate(REGISTRIES_CONF, "PEM");
    assertThat(data.get("additional-registry-certificate.json"))
        .isEqualTo(
            "{\"apiVersion\":\"v1\",\"kind\":\"ConfigMap\",\"metadata\":{\"name\":\"additional-registry-certificate\","
                + "\"namespace\":\"openshift-config\"},\"data\":{\"mirror.example.com..5000\":\"PEM\"}}");
    assertThat(data.get("image-config.json"))
        .contains("\"additionalTrustedCA\":{\"name\":\"additional-registry-certificate\"}");
  }

  @Test
  void aFileWithoutMirrorsIsRejectedWithAReason() {
    assertThatThrownBy(
            () -> MirrorRegistryManifests.generate("[[registry]]\nlocation = \"quay.io\"\n", null))
        .hasMessageContaining("no [[registry]] with a location and [[registry.mirror]]");
    assertThatThrownBy(() -> MirrorRegistryManifests.generate(null, null))
        .hasMessageContaining("registries.conf is missing");
    assertThatThrownBy(() -> MirrorRegistryManifests.generate("[[registry]]\nnonsense\n", null))
        .hasMessageContaining("line 2");
  }
}
