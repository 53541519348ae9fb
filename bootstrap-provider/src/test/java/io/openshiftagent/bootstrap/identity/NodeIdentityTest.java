package io.openshiftagent.bootstrap.identity;

import static org.assertj.core.api.Assertions.assertThat;

import io.openshiftagent.api.bootstrap.v1alpha2.NodeRegistrationOptions;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** What each node registration becomes, on a Metal3 host (resolved here) and on others. */
class NodeIdentityTest {
  private static final Optional<HostMetadata> METAL3 =
      Optional.of(HostMetadata.metal3("uid-1", "ns", "host-0", "index: '7'\n"));

  private static NodeRegistrationOptions registration(
      String name, String providerID, String... labels) {
    NodeRegistrationOptions options = new NodeRegistrationOptions();
    options.name = name;
    options.providerID = providerID;
    options.kubeletExtraLabels = labels.length == 0 ? null : List.of(labels);
    return options;
  }

  @Test
  void theGoProvidersExampleOnAMetal3HostIsResolvedOnTheHub() {
    NodeIdentity identity =
        NodeIdentity.of(
            registration("$METADATA_NAME", null, "metal3.io/uuid=$METADATA_UUID"),
            "ocp-w-7xk2p",
            METAL3);

    assertThat(identity.hostname()).isEqualTo("host-0");
    assertThat(identity.labels()).isEqualTo(Map.of("metal3.io/uuid", "uid-1"));
    assertThat(identity.providerID()).isNull();
    assertThat(identity.onHost()).isEmpty();
  }

  @Test
  void valuesInQuotesAsTheGoProvidersOkdExampleWritesThemAreReadWithoutThem() {
    NodeIdentity resolvedHere =
        NodeIdentity.of(
            registration("'${METADATA_NAME}'", null, "metal3.io/uuid=\"${METADATA_UUID}\""),
            "ocp-w-7xk2p",
            METAL3);
    NodeIdentity resolvedOnTheHost =
        NodeIdentity.of(
            registration(null, null, "metal3.io/uuid=\"${METADATA_UUID}\"", "zone='a'", "q=\"x"),
            "ocp-w-7xk2p",
            Optional.empty());

    assertThat(resolvedHere.hostname()).isEqualTo("host-0");
    assertThat(resolvedHere.labels()).isEqualTo(Map.of("metal3.io/uuid", "uid-1"));
    assertThat(resolvedOnTheHost.labels()).isEqualTo(Map.of("zone", "a", "q", "\"x"));
    assertThat(resolvedOnTheHost.onHost().orElseThrow().labels())
        .isEqualTo(Map.of("metal3.io/uuid", MetadataTemplate.parse("${METADATA_UUID}")));
  }

  @Test
  void aKeyTheHostDoesNotHaveIsNothing() {
    NodeIdentity identity =
        NodeIdentity.of(
            registration(
                "$METADATA_HOSTNAME",
                "openstack://$METADATA_PROVIDERID",
                "rack=$METADATA_RACK",
                "index=${METADATA_INDEX}"),
            "ocp-w-7xk2p",
            METAL3);

    // An empty name leaves the host its own, as the Go provider's set-hostname does.
    assertThat(identity.hostname()).isNull();
    assertThat(identity.labels()).isEqualTo(Map.of("rack", "", "index", "7"));
    assertThat(identity.providerID()).isEqualTo("openstack://");
  }

  @Test
  void otherHostsResolveReferencesThemselvesAndStaticValuesAreKnownHere() {
    NodeIdentity identity =
        NodeIdentity.of(
            registration(
                "$METADATA_NAME", "openstack://$METADATA_UUID", "zone=a", "uuid=$METADATA_UUID"),
            "ocp-w-7xk2p",
            Optional.empty());

    assertThat(identity.hostname()).isNull();
    assertThat(identity.labels()).isEqualTo(Map.of("zone", "a"));
    assertThat(identity.providerID()).isNull();
    NodeIdentity.OnHost onHost = identity.onHost().orElseThrow();
    assertThat(onHost.name()).isEqualTo(MetadataTemplate.parse("$METADATA_NAME"));
    assertThat(onHost.labels()).containsOnlyKeys("uuid");
    assertThat(onHost.providerID()).isEqualTo(MetadataTemplate.parse("openstack://$METADATA_UUID"));
  }

  @Test
  void withoutANameTheNodeIsNamedAfterItsMachineAndStaticValuesPassAsTheyAre() {
    NodeIdentity identity =
        NodeIdentity.of(
            registration(null, " aws:///zone/i-1 ", "zone=a"), "ocp-w-7xk2p", Optional.empty());

    assertThat(identity.hostname()).isEqualTo("ocp-w-7xk2p");
    assertThat(identity.providerID()).isEqualTo("aws:///zone/i-1");
    assertThat(identity.labels()).isEqualTo(Map.of("zone", "a"));
    assertThat(identity.onHost()).isEmpty();
    assertThat(NodeIdentity.of(null, "m", Optional.empty()).hostname()).isEqualTo("m");
  }

  @Test
  void referencesAreTold() {
    assertThat(NodeIdentity.referencesMetadata(registration("a", "b", "c=d"))).isFalse();
    assertThat(NodeIdentity.referencesMetadata(registration(null, null, "c=$X"))).isTrue();
    assertThat(NodeIdentity.referencesMetadata(null)).isFalse();
  }
}
