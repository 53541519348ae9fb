package io.openshiftagent.bootstrap.identity;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.fabric8.kubernetes.client.utils.Serialization;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * The metadata a host reads from its config drive ({@code openstack/latest/meta_data.json}), and
 * the variables the Go provider's {@code configdrive-metadata} unit makes of it: each key {@code
 * local-hostname} becomes a line {@code METADATA_LOCAL_HOSTNAME=<value>} of {@code
 * /etc/metadata_env}, the lines sorted and without duplicates, and a variable's value is what
 * {@code grep "^VAR=" | cut -d= -f2-} finds there (several lines joined by a newline, nothing when
 * there is none).
 */
public final class HostMetadata {
  private static final ObjectMapper JSON = new ObjectMapper();

  private final Map<String, Object> metaData;

  private HostMetadata(Map<String, Object> metaData) {
    this.metaData = metaData;
  }

  public static HostMetadata of(Map<String, ?> metaData) {
    return new HostMetadata(new TreeMap<>(metaData));
  }

  /**
   * What a Metal3 host's config drive holds: the baremetal-operator's defaults for the
   * BareMetalHost, overlaid by the YAML map of the metaData Secret (as rendered by CAPM3 from the
   * Metal3DataTemplate), whose keys win.
   *
   * @param metaDataYaml the Secret's {@code metaData} key, or null when the Metal3Machine names no
   *     such Secret (a Metal3DataTemplate without {@code metaData})
   * @throws IllegalArgumentException if the YAML is not a map
   */
  public static HostMetadata metal3(
      String hostUid, String hostNamespace, String hostName, String metaDataYaml) {
    Map<String, Object> metaData = new LinkedHashMap<>();
    metaData.put("uuid", hostUid);
    metaData.put("metal3-namespace", hostNamespace);
    metaData.put("metal3-name", hostName);
    metaData.put("local-hostname", hostName);
    metaData.put("local_hostname", hostName);
    metaData.put("name", hostName);
    if (metaDataYaml != null && !metaDataYaml.isBlank()) {
      Object rendered;
      try {
        rendered = Serialization.unmarshal(metaDataYaml, Object.class);
      } catch (RuntimeException e) {
        throw new IllegalArgumentException("the metaData is not YAML: " + e.getMessage(), e);
      }
      if (!(rendered instanceof Map<?, ?> map)) {
        throw new IllegalArgumentException("the metaData is not a YAML map");
      }
      map.forEach((key, value) -> metaData.put(String.valueOf(key), value));
    }
    return of(metaData);
  }

  /** The metadata keys and values. */
  public Map<String, Object> metaData() {
    return metaData;
  }

  /** The lines of {@code /etc/metadata_env}, sorted and unique. */
  public List<String> environmentFile() {
    TreeSet<String> lines = new TreeSet<>();
    metaData.forEach(
        (key, value) -> {
          String line = variableOf(key) + "=" + text(value);
          lines.addAll(List.of(line.split("\n", -1)));
        });
    return new ArrayList<>(lines);
  }

  /** The value of {@code variable} as the host units read it; empty when there is none. */
  public String lookup(String variable) {
    List<String> values = new ArrayList<>();
    for (String line : environmentFile()) {
      if (line.startsWith(variable + "=")) {
        values.add(line.substring(variable.length() + 1));
      }
    }
    return String.join("\n", values);
  }

  /** {@code local-hostname} → {@code METADATA_LOCAL_HOSTNAME}. */
  static String variableOf(String key) {
    StringBuilder name = new StringBuilder("METADATA_");
    for (char c : key.toCharArray()) {
      // tr a-z A-Z | tr - _ : ASCII letters only, as the unit does
      name.append(c >= 'a' && c <= 'z' ? (char) (c - 'a' + 'A') : c == '-' ? '_' : c);
    }
    return name.toString();
  }

  /** A value as {@code jq -r} prints it: strings as they are, anything else as JSON. */
  private static String text(Object value) {
    if (value instanceof String s) {
      return s;
    }
    try {
      return JSON.writeValueAsString(value);
    } catch (JsonProcessingException e) {
      throw new IllegalStateException(e);
    }
  }
}
