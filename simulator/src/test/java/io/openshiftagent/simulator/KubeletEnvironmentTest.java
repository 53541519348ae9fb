package io.openshiftagent.simulator;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.client.utils.Serialization;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class KubeletEnvironmentTest {
  private static final Map<String, String> HOST =
      Map.of("METADATA_UUID", "4f1c-uid", "METADATA_NAME", "host-0");

  /** An install ignition with one script file, as a data URL (base64). */
  private static String ignition(String script) {
    String source =
        "data:text/plain;charset=utf-8;base64,"
            + Base64.getEncoder().encodeToString(script.getBytes(StandardCharsets.UTF_8));
    return Serialization.asJson(
        Map.of(
            "ignition",
            Map.of("version", "3.1.0"),
            "storage",
            Map.of(
                "files",
                List.of(
                    Map.of(
                        "path", "/usr/local/bin/labels", "contents", Map.of("source", source))))));
  }

  @Test
  void labelsAndProviderIdEchoedIntoTheKubeletEnvironmentAreResolvedFromTheHostMetadata() {
    KubeletEnvironment kubelet =
        KubeletEnvironment.of(
            ignition(
                """
                #!/bin/bash
                METADATA_UUID=$(grep "^METADATA_UUID=" /etc/metadata_env | cut -d'=' -f2-)
                echo "CUSTOM_KUBELET_LABELS=metal3.io/uuid=${METADATA_UUID},tier=gold,zone=$METADATA_ZONE" | tee -a /etc/kubernetes/kubelet-env
                echo "KUBELET_PROVIDERID=metal3://${METADATA_NAME}" | tee -a /etc/kubernetes/kubelet-env
                """),
            HOST);

    assertThat(kubelet.labels())
        .containsExactlyInAnyOrderEntriesOf(
            Map.of("metal3.io/uuid", "4f1c-uid", "tier", "gold", "zone", ""));
    assertThat(kubelet.providerID()).isEqualTo("metal3://host-0");
    assertThat(kubelet.unresolved()).isEmpty();
  }

  @Test
  void aValueNamingAnotherShellVariableIsLeftOut() {
    KubeletEnvironment kubelet =
        KubeletEnvironment.of(
            ignition("echo \"CUSTOM_KUBELET_LABELS=$labels\" >> /etc/kubernetes/kubelet-env\n"),
            HOST);

    assertThat(kubelet.labels()).isEmpty();
    assertThat(kubelet.providerID()).isNull();
    assertThat(kubelet.unresolved()).contains("$labels");
  }

  @Test
  void noOverrideNoKubeletEnvironment() {
    assertThat(KubeletEnvironment.of(null, HOST)).isEqualTo(KubeletEnvironment.NONE);
    assertThat(KubeletEnvironment.of(ignition("echo hello\n"), HOST).labels()).isEmpty();
  }
}
