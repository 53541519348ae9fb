package io.openshiftagent.bootstrap.identity;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Map;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

class MetadataTemplateTest {
  private static final Map<String, String> HOST =
      Map.of("METADATA_NAME", "host-0", "METADATA_UUID", "1234");

  @ParameterizedTest(name = "{0} -> {1}")
  @CsvSource(
      delimiter = '|',
      value = {
        "worker-0|worker-0",
        "$METADATA_NAME|host-0",
        "${METADATA_NAME}|host-0",
        "openstack://$METADATA_UUID|openstack://1234",
        "node-${METADATA_UUID}-x|node-1234-x",
        "$METADATA_NAME.$METADATA_UUID|host-0.1234",
        // A variable the host does not have is nothing, as in the Go provider's units.
        "openstack://$METADATA_NOPE|openstack://",
        "${METADATA_NAME}suffix|host-0suffix",
        // Without braces the name runs as far as name characters go.
        "$METADATA_NAMEsuffix|"
      })
  void referencesResolveAsTheHostResolvesThem(String value, String resolved) {
    assertThat(MetadataTemplate.parse(value).resolve(v -> HOST.getOrDefault(v, "")))
        .isEqualTo(resolved == null ? "" : resolved);
  }

  @ParameterizedTest
  @ValueSource(strings = {"$(whoami)", "node-$", "${METADATA_NAME", "${9x}", "$ x", "`id`$1"})
  void aDollarThatStartsNoReferenceIsRefused(String value) {
    assertThatThrownBy(() -> MetadataTemplate.parse(value))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("must start a variable reference");
  }

  @org.junit.jupiter.api.Test
  void staticValuesAndVariablesAreTold() {
    assertThat(MetadataTemplate.parse("a-b").isStatic()).isTrue();
    assertThat(MetadataTemplate.parse("$A-${B}$A").variables()).containsExactly("A", "B");
  }
}
