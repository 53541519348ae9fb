package io.openshiftagent.simulator.assisted;

import com.fasterxml.jackson.core.JsonProcessingException;
import io.fabric8.kubernetes.client.utils.Serialization;
import io.openshiftagent.testsupport.ReleaseRegistry;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The OpenShift releases a world's assisted-service knows: its {@code RELEASE_IMAGES} (one entry
 * per release image the tests' ClusterImageSets name, so the service asks {@code oc} nothing about
 * their version), {@code OS_IMAGES} (one live ISO per minor version of every release; the URL is
 * only written into InfraEnv statuses), and what {@link OcStandIn} answers about an image named by
 * digest, in any repository (a mirror holds the same digests), for every release.
 *
 * @param releases listed in {@code RELEASE_IMAGES}
 * @param unlisted known to the service only through {@code oc} (the releases users name: too many
 *     for one environment variable)
 */
public record ReleaseCatalog(List<Release> releases, List<Release> unlisted) {
  private static final Pattern TAG =
      Pattern.compile(
          "^[^@]+:((\\d+)\\.(\\d+)\\.[^:/]*?)(?:-(x86_64|aarch64|ppc64le|s390x|multi))?$");

  /**
   * @param image the release image, by tag or by digest
   * @param version its OpenShift version
   * @param architecture its CPU architecture as the service names them ({@code x86_64}, ...)
   */
  public record Release(String image, String version, String architecture) {
    String minor() {
      String[] parts = version.split("\\.", 3);
      return parts[0] + "." + parts[1];
    }

    String digest() {
      int at = image.indexOf('@');
      return at < 0 ? null : image.substring(at + 1);
    }
  }

  public ReleaseCatalog {
    releases = List.copyOf(releases);
    unlisted = List.copyOf(unlisted);
  }

  /** Releases all listed in {@code RELEASE_IMAGES}. */
  public ReleaseCatalog(List<Release> releases) {
    this(releases, List.of());
  }

  /**
   * Releases tagged {@code <repository>:<version>[-<architecture>]}, as our providers name them
   * when asked for tags; no suffix is x86_64.
   */
  public static ReleaseCatalog tagged(List<String> images) {
    return new ReleaseCatalog(images.stream().map(ReleaseCatalog::parseTag).toList());
  }

  /**
   * The single-architecture releases of a release registry, by digest there: those the tests name
   * listed, those it {@linkplain ReleaseRegistry#published() publishes} for users not. Its OKD
   * releases are manifest lists of amd64 and arm64 images; the service is told x86_64, as for a
   * tagged OKD release. Its OpenShift multi-architecture releases are left out: no world installs
   * one.
   */
  public static ReleaseCatalog of(ReleaseRegistry registry) {
    List<Release> listed = new ArrayList<>();
    List<Release> unlisted = new ArrayList<>();
    for (ReleaseRegistry.Release release : registry.catalog()) {
      boolean okd = release.version().contains("okd");
      if (release.architecture().equals("multi") && !okd) {
        continue;
      }
      Release known =
          new Release(release.image(), release.version(), okd ? "x86_64" : release.architecture());
      (registry.published().contains(release) ? unlisted : listed).add(known);
    }
    return new ReleaseCatalog(listed, unlisted);
  }

  /** Every release the service can be asked to install. */
  private List<Release> all() {
    List<Release> all = new ArrayList<>(releases);
    all.addAll(unlisted);
    return all;
  }

  private static Release parseTag(String image) {
    Matcher tag = TAG.matcher(image);
    if (!tag.matches()) {
      throw new IllegalArgumentException(
          "not a release image tagged <repository>:<version>[-<architecture>]: " + image);
    }
    return new Release(image, tag.group(1), tag.group(4) == null ? "x86_64" : tag.group(4));
  }

  /** {@code others} and the registries (host and port) of the catalog's images, each once. */
  Set<String> registries(String... others) {
    Set<String> registries = new LinkedHashSet<>(List.of(others));
    all().forEach(r -> registries.add(r.image().substring(0, r.image().indexOf('/'))));
    return registries;
  }

  /** The value of {@code RELEASE_IMAGES}; the first release is the default. */
  String releaseImagesJson() {
    List<Map<String, Object>> entries = new ArrayList<>();
    for (Release release : releases) {
      Map<String, Object> entry = new LinkedHashMap<>();
      entry.put("openshift_version", release.minor());
      entry.put("cpu_architecture", release.architecture());
      entry.put("cpu_architectures", List.of(release.architecture()));
      entry.put("url", release.image());
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
    for (Release release : all()) {
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

  /**
   * One line {@code <digest> <version> <architecture>} per release named by digest, for {@link
   * OcStandIn}.
   */
  String digestLines() {
    StringBuilder lines = new StringBuilder();
    for (Release release : all()) {
      if (release.digest() != null) {
        lines.append(release.digest()).append(' ').append(release.version());
        lines.append(' ').append(release.architecture()).append('\n');
      }
    }
    return lines.toString();
  }

  private static String json(Object value) {
    try {
      return Serialization.jsonMapper().writeValueAsString(value);
    } catch (JsonProcessingException e) {
      throw new IllegalStateException(e);
    }
  }
}
