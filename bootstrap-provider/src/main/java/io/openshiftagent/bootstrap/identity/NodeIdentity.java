package io.openshiftagent.bootstrap.identity;

import io.openshiftagent.api.bootstrap.v1alpha2.NodeRegistrationOptions;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.SortedMap;
import java.util.TreeMap;

/**
 * Who a host becomes: what {@code spec.nodeRegistration} asks for, with each {@code $METADATA_*}
 * reference resolved where it can be.
 *
 * <ul>
 *   <li>A Metal3 host's metadata is known on the hub ({@link HostMetadata#metal3}): everything is
 *       resolved here, and the host gets plain values (the Agent's hostname and node labels, the
 *       provider ID in its install ignition).
 *   <li>Other hosts resolve references themselves, from their config drive, as the Go provider's
 *       units do: what needs the host is in {@link #onHost()}.
 * </ul>
 *
 * A reference to a variable the host does not have resolves to nothing: a label {@code k=} with an
 * empty value, a provider ID without that part, and a name that is empty leaves the host its own
 * hostname (the Go provider's {@code set-hostname} does nothing then). A value wholly in double or
 * single quotes, as the Go provider's OKD example writes {@code metal3.io/uuid="${METADATA_UUID}"},
 * is read without them: no label value, node name or provider ID can hold a quote.
 *
 * @param hostname the Agent's hostname; null leaves the host's own (a reference the host resolves,
 *     or one that resolved to nothing)
 * @param labels node labels known here
 * @param providerID the kubelet's provider ID known here, or null
 * @param onHost what the host resolves from its config drive, if anything
 */
public record NodeIdentity(
    String hostname, Map<String, String> labels, String providerID, Optional<OnHost> onHost) {

  /**
   * Values the host resolves itself.
   *
   * @param name the node name, or null
   * @param labels the labels whose values reference host metadata ({@code key=template})
   * @param providerID the provider ID, or null
   */
  public record OnHost(
      MetadataTemplate name, Map<String, MetadataTemplate> labels, MetadataTemplate providerID) {}

  /**
   * @param machineName the node name when the registration names none
   * @param metadata the host's metadata when known on the hub (Metal3 hosts)
   * @throws IllegalArgumentException when a value holds a '$' that starts no reference (the CRD
   *     refuses those)
   */
  public static NodeIdentity of(
      NodeRegistrationOptions registration, String machineName, Optional<HostMetadata> metadata) {
    NodeRegistrationOptions reg =
        registration == null ? new NodeRegistrationOptions() : registration;
    MetadataTemplate name = template(reg.name);
    MetadataTemplate providerID = template(reg.providerID);
    Map<String, String> labels = new TreeMap<>();
    Map<String, MetadataTemplate> hostLabels = new TreeMap<>();
    for (String label :
        reg.kubeletExtraLabels == null ? List.<String>of() : reg.kubeletExtraLabels) {
      int eq = label.indexOf('=');
      if (eq <= 0) {
        continue; // the CRD admits only key=value
      }
      MetadataTemplate value = MetadataTemplate.parse(unquoted(label.substring(eq + 1)));
      String key = label.substring(0, eq);
      if (value.isStatic() || metadata.isPresent()) {
        labels.put(key, resolve(value, metadata));
      } else {
        hostLabels.put(key, value);
      }
    }

    String hostname;
    MetadataTemplate hostName = null;
    if (name == null) {
      hostname = machineName;
    } else if (name.isStatic() || metadata.isPresent()) {
      hostname = emptyToNull(resolve(name, metadata));
    } else {
      hostname = null;
      hostName = name;
    }
    String resolvedProviderID = null;
    MetadataTemplate hostProviderID = null;
    if (providerID != null && (providerID.isStatic() || metadata.isPresent())) {
      resolvedProviderID = emptyToNull(resolve(providerID, metadata).strip());
    } else {
      hostProviderID = providerID;
    }
    Optional<OnHost> onHost =
        hostName == null && hostLabels.isEmpty() && hostProviderID == null
            ? Optional.empty()
            : Optional.of(new OnHost(hostName, sorted(hostLabels), hostProviderID));
    return new NodeIdentity(hostname, sorted(labels), resolvedProviderID, onHost);
  }

  /** Whether any value references host metadata (a '$' in it: the CRD admits only references). */
  public static boolean referencesMetadata(NodeRegistrationOptions registration) {
    return registration != null
        && (hasReference(registration.name)
            || hasReference(registration.providerID)
            || (registration.kubeletExtraLabels != null
                && registration.kubeletExtraLabels.stream().anyMatch(NodeIdentity::hasReference)));
  }

  private static boolean hasReference(String value) {
    return value != null && value.contains("$");
  }

  private static <V> SortedMap<String, V> sorted(Map<String, V> map) {
    return Collections.unmodifiableSortedMap(new TreeMap<>(map));
  }

  private static MetadataTemplate template(String value) {
    return value == null || value.isBlank()
        ? null
        : MetadataTemplate.parse(unquoted(value.strip()));
  }

  /** {@code value} without the one pair of quotes (double or single) that wholly encloses it. */
  private static String unquoted(String value) {
    if (value.length() >= 2) {
      char first = value.charAt(0);
      if ((first == '"' || first == '\'') && value.charAt(value.length() - 1) == first) {
        return value.substring(1, value.length() - 1);
      }
    }
    return value;
  }

  private static String resolve(MetadataTemplate value, Optional<HostMetadata> metadata) {
    return value.resolve(variable -> metadata.map(m -> m.lookup(variable)).orElse(""));
  }

  private static String emptyToNull(String value) {
    return value == null || value.isEmpty() ? null : value;
  }
}
