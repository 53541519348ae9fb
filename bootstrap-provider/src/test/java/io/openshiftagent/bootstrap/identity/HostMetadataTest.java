package io.openshiftagent.bootstrap.identity;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class HostMetadataTest {

  @Test
  void aMetal3HostHasTheBaremetalOperatorsDefaults() {
    HostMetadata host = HostMetadata.metal3("uid-1", "ns", "host-0", null);

    assertThat(host.lookup("METADATA_UUID")).isEqualTo("uid-1");
    assertThat(host.lookup("METADATA_NAME")).isEqualTo("host-0");
    assertThat(host.lookup("METADATA_METAL3_NAME")).isEqualTo("host-0");
    assertThat(host.lookup("METADATA_METAL3_NAMESPACE")).isEqualTo("ns");
    // local-hostname and local_hostname are one variable; equal values make one line.
    assertThat(host.lookup("METADATA_LOCAL_HOSTNAME")).isEqualTo("host-0");
    assertThat(host.environmentFile())
        .containsExactly(
            "METADATA_LOCAL_HOSTNAME=host-0",
            "METADATA_METAL3_NAME=host-0",
            "METADATA_METAL3_NAMESPACE=ns",
            "METADATA_NAME=host-0",
            "METADATA_UUID=uid-1");
    // With an empty Metal3DataTemplate nothing else is there: a reference to more is nothing.
    assertThat(host.lookup("METADATA_PROVIDERID")).isEmpty();
  }

  @Test
  void theRenderedMetaDataWinsOverTheDefaults() {
    String rendered =
        """
        name: worker-7
        providerid: ns/host-0/m3m-0
        index: "7"
        """;
    HostMetadata host = HostMetadata.metal3("uid-1", "ns", "host-0", rendered);

    assertThat(host.lookup("METADATA_NAME")).isEqualTo("worker-7");
    assertThat(host.lookup("METADATA_PROVIDERID")).isEqualTo("ns/host-0/m3m-0");
    assertThat(host.lookup("METADATA_INDEX")).isEqualTo("7");
    assertThat(host.lookup("METADATA_UUID")).isEqualTo("uid-1");
  }

  @Test
  void theEnvironmentFileIsWhatTheUnitWritesSortedAndUnique() {
    HostMetadata host =
        HostMetadata.of(
            Map.of(
                "local-hostname", "a",
                "local_hostname", "b",
                "count", 3,
                "two-lines", "x\ny",
                "list", List.of("p", "q")));

    assertThat(host.environmentFile())
        .containsExactly(
            "METADATA_COUNT=3",
            "METADATA_LIST=[\"p\",\"q\"]",
            "METADATA_LOCAL_HOSTNAME=a",
            "METADATA_LOCAL_HOSTNAME=b",
            "METADATA_TWO_LINES=x",
            "y");
    // grep finds both lines of a variable two keys map to; cut keeps what follows the first '='.
    assertThat(host.lookup("METADATA_LOCAL_HOSTNAME")).isEqualTo("a\nb");
    assertThat(host.lookup("METADATA_TWO_LINES")).isEqualTo("x");
  }
}
