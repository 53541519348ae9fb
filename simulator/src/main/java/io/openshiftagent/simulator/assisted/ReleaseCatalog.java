package io.openshiftagent.simulator.assisted;

import com.fasterxml.jackson.core.JsonProcessingException;
import io.fabric8.kubernetes.client.utils.Serialization;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The OpenShift releases a world's assisted-service knows from the start: its {@code
 * RELEASE_IMAGES} (one entry per release image the ClusterImageSets name, so the service asks
 * {@code oc} nothing about them) and {@code OS_IMAGES} (one live ISO per minor version; the URL is
 * only written into InfraEnv statuses). Release images are tagged {@code
 * <repository>:<version>[-<architecture>]}, as our providers name them.
 */
record ReleaseCatalog(List<String> releaseImages) {
  private static final Pattern TAG =
      Pattern.compile(
          "^[^@]+:((\\d+)\\.(\\d+)\\.[^:/]*?)(?:-(x86_64|aarch64|ppc64le|s390x|multi))?$");

  ReleaseCatalog {
    releaseImages = List.copyOf(releaseImages);
    releaseImages.forEach(ReleaseCatalog::parse);
  }

  private record Release(String url, String version, String minor, String architecture) {}

  private static Release parse(String image) {
    Matcher tag = TAG.matcher(image);
    if (!tag.matches()) {
      throw new IllegalArgumentException(
          "not a release image tagged <repository>:<version>[-<architecture>]: " + image);
    }
    String architecture = tag.group(4) == null ? "x86_64" : tag.group(4);
    return new Release(image, tag.group(1), tag.group(2) + "." + tag.group(3), architecture);
  }

  /** The value of {@code RELEASE_IMAGES}; the first release is the default. */
  String releaseImagesJson() {
    List<Map<String, Object>> entries = new ArrayList<>();
    for (String image : releaseImages) {
      Release release = parse(image);
      Map<String, Object> entry = new LinkedHashMap<>();
      entry.put("openshift_version", release.minor());
      entry.put("cpu_architecture", release.architecture());
      entry.put("cpu_architectures", List.of(release.architecture()));
      entry.put("url", release.url());
      entry.put("version", release.version());
      entry.put("default", entries.isEmpty());
      entry.put("support_level", "production");
      entries.add(entry);
    }
    return json(entries);
  }

  /** The value of {@code OS_IMAGES}: a live ISO for each minor version and architecture. */
  String osImagesJson() {
    Set<List<String>> seen = new LinkedHashSet<>();
    List<Map<String, Object>> entries = new ArrayList<>();
    for (String image : releaseImages) {
      Release release = parse(image);
      String arch = release.architecture().equals("multi") ? "x86_64" : release.architecture();
      if (seen.add(List.of(release.minor(), arch))) {
        entries.add(
            Map.of(
                "openshift_version",
                release.minor(),
                "cpu_architecture",
                arch,
                "url",
                "https://rhcos.simulator.invalid/"
                    + release.minor()
                    + "/rhcos-live."
                    + arch
                    + ".iso",
                "version",
                release.minor().replace(".", "") + ".0.0"));
      }
    }
    return json(entries);
  }

  private static String json(Object value) {
    try {
      return Serialization.jsonMapper().writeValueAsString(value);
    } catch (JsonProcessingException e) {
      throw new IllegalStateException(e);
    }
  }
}
