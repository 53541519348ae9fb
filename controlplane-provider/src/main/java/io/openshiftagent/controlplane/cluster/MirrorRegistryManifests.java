package io.openshiftagent.controlplane.cluster;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.openshiftagent.controlplane.names.Names;
import io.openshiftagent.registry.RegistriesConf;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Turns a mirror-registry description (a containers-registries.conf TOML file and an optional CA
 * bundle) into the OpenShift manifests that make the installed cluster use the mirrors: an
 * ImageDigestMirrorSet, an ImageTagMirrorSet, the trusted CA ConfigMap and the cluster Image
 * config. They are installed with the cluster as extra manifests. The file is read as the registry
 * module reads it to resolve release images ({@link RegistriesConf}).
 */
public final class MirrorRegistryManifests {
  static final String MIRROR_SET_NAME = "additional-registry";
  static final String CA_CONFIG_MAP_NAME = "additional-registry-certificate";

  private static final ObjectMapper JSON = new ObjectMapper();

  private MirrorRegistryManifests() {}

  /**
   * The ConfigMap data (file name → JSON manifest).
   *
   * @throws IllegalArgumentException with a message for a person when the input is unusable
   */
  public static Map<String, String> generate(String registriesConf, String caBundle) {
    if (registriesConf == null || registriesConf.isBlank()) {
      throw new IllegalArgumentException(
          "key " + Names.REGISTRIES_CONF_KEY + " is missing or empty");
    }
    List<RegistriesConf.Registry> registries = RegistriesConf.parse(registriesConf).registries();
    ArrayNode digestMirrors = JSON.createArrayNode();
    ArrayNode tagMirrors = JSON.createArrayNode();
    Set<String> insecure = new LinkedHashSet<>();
    Set<String> mirrorHosts = new LinkedHashSet<>();
    for (RegistriesConf.Registry registry : registries) {
      List<String> byDigest = new ArrayList<>();
      List<String> byTag = new ArrayList<>();
      for (RegistriesConf.Mirror mirror : registry.mirrors()) {
        boolean tagOnly = mirror.pullFromMirror() == RegistriesConf.PullFromMirror.TAG_ONLY;
        (tagOnly ? byTag : byDigest).add(mirror.location());
        if (mirror.insecure()) {
          insecure.add(mirror.location());
        }
        mirrorHosts.add(host(mirror.location()));
      }
      addMirrors(digestMirrors, registry.location(), byDigest);
      addMirrors(tagMirrors, registry.location(), byTag);
    }
    if (digestMirrors.isEmpty() && tagMirrors.isEmpty()) {
      throw new IllegalArgumentException(
          "key "
              + Names.REGISTRIES_CONF_KEY
              + " defines no [[registry]] with a location and [[registry.mirror]] entries");
    }
    Map<String, String> data = new LinkedHashMap<>();
    data.put(
        "image-digest-mirror-set.json",
        mirrorSet("ImageDigestMirrorSet", "imageDigestMirrors", digestMirrors));
    data.put(
        "image-tag-mirror-set.json", mirrorSet("ImageTagMirrorSet", "imageTagMirrors", tagMirrors));
    boolean withCa = caBundle != null && !caBundle.isBlank();
    if (withCa) {
      ObjectNode configMap =
          JSON.createObjectNode().put("apiVersion", "v1").put("kind", "ConfigMap");
      configMap
          .putObject("metadata")
          .put("name", CA_CONFIG_MAP_NAME)
          .put("namespace", "openshift-config");
      ObjectNode caData = configMap.putObject("data");
      // OpenShift looks a registry's CA up by host name, with ':' written as '..'.
      mirrorHosts.forEach(h -> caData.put(h.replace(":", ".."), caBundle));
      data.put("additional-registry-certificate.json", configMap.toString());
    }
    if (withCa || !insecure.isEmpty()) {
      ObjectNode image =
          JSON.createObjectNode().put("apiVersion", "config.openshift.io/v1").put("kind", "Image");
      image.putObject("metadata").put("name", "cluster");
      ObjectNode spec = image.putObject("spec");
      if (withCa) {
        spec.putObject("additionalTrustedCA").put("name", CA_CONFIG_MAP_NAME);
      }
      if (!insecure.isEmpty()) {
        ArrayNode list = spec.putObject("registrySources").putArray("insecureRegistries");
        insecure.forEach(list::add);
      }
      data.put("image-config.json", image.toString());
    }
    return data;
  }

  private static void addMirrors(ArrayNode target, String source, List<String> mirrors) {
    if (mirrors.isEmpty()) {
      return;
    }
    ObjectNode entry = target.addObject().put("source", source);
    ArrayNode list = entry.putArray("mirrors");
    mirrors.forEach(list::add);
  }

  private static String mirrorSet(String kind, String field, ArrayNode mirrors) {
    ObjectNode set =
        JSON.createObjectNode().put("apiVersion", "config.openshift.io/v1").put("kind", kind);
    set.putObject("metadata").put("name", MIRROR_SET_NAME);
    set.putObject("spec").set(field, mirrors);
    return set.toString();
  }

  private static String host(String location) {
    int slash = location.indexOf('/');
    return slash < 0 ? location : location.substring(0, slash);
  }
}
