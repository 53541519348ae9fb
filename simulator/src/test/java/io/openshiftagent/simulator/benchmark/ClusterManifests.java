package io.openshiftagent.simulator.benchmark;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.Secret;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.utils.Serialization;
import io.openshiftagent.simulator.World;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The demo's HA LiveISO cluster ({@code demo/ha-cluster.yaml}), renamed for one cluster of the
 * benchmark, with {@code workers} workers and a BareMetalHost (with its BMC Secret) for each of its
 * Machines, every name unique in the world so that Node names are too.
 *
 * <p>With a boot mode, the same cluster as both provider pairs take it: the boot mode in its config
 * specs (the Go provider's CRDs have no such field; the API server drops it, and the Go pair boots
 * the disk image, its only mode), and its release named in the world's registry by the control
 * plane's annotation, which both pairs honour.
 */
final class ClusterManifests {
  private static final String TEMPLATE = "/demo/ha-cluster.yaml";
  private static final String TEMPLATE_NAME = "demo";
  private static final String TEMPLATE_HOST = "host-0";

  private ClusterManifests() {}

  /**
   * @param index the cluster's number in the run, from 1; it makes host MAC addresses unique
   */
  static List<HasMetadata> of(
      KubernetesClient client, String cluster, int index, int workers, Optional<String> bootMode) {
    String yaml;
    try (InputStream in = ClusterManifests.class.getResourceAsStream(TEMPLATE)) {
      yaml = new String(in.readAllBytes(), StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    List<HasMetadata> objects = new ArrayList<>();
    HasMetadata hostSecret = null;
    HasMetadata host = null;
    for (Map.Entry<String, String> variable : World.releaseRepositories().entrySet()) {
      yaml = yaml.replace("${" + variable.getKey() + "}", variable.getValue());
    }
    for (HasMetadata loaded : client.load(toStream(yaml.replace(TEMPLATE_NAME, cluster))).items()) {
      HasMetadata object = loaded instanceof Secret ? loaded : generic(loaded);
      String name = object.getMetadata().getName();
      if (name.equals(TEMPLATE_HOST)) {
        host = object;
      } else if (name.equals(TEMPLATE_HOST + "-bmc")) {
        hostSecret = object;
      } else if (!name.startsWith("host-")) {
        objects.add(object);
      }
    }
    for (HasMetadata object : objects) {
      if (object.getKind().equals("MachineDeployment")) {
        ((GenericKubernetesResource) object)
            .setAdditionalProperty("spec", withReplicas(object, workers));
      }
      if (object instanceof GenericKubernetesResource generic) {
        bootMode.ifPresent(mode -> asBothPairsTakeIt(generic, mode));
      }
    }
    for (int i = 0; i < 3 + workers; i++) {
      String name = cluster + "-host-" + i;
      Secret secret = Serialization.clone((Secret) hostSecret);
      secret.getMetadata().setName(name + "-bmc");
      objects.add(secret);
      GenericKubernetesResource bmh = Serialization.clone((GenericKubernetesResource) host);
      bmh.getMetadata().setName(name);
      @SuppressWarnings("unchecked")
      Map<String, Object> spec = (Map<String, Object>) bmh.getAdditionalProperties().get("spec");
      spec.put(
          "bootMACAddress", String.format("52:54:%02x:%02x:00:%02x", index >> 8, index & 0xff, i));
      spec.put(
          "bmc",
          Map.of(
              "address",
              "redfish-virtualmedia://192.168.222.1:8000/redfish/v1/Systems/" + name,
              "credentialsName",
              name + "-bmc"));
      objects.add(bmh);
    }
    return objects;
  }

  private static void asBothPairsTakeIt(GenericKubernetesResource object, String bootMode) {
    switch (object.getKind()) {
      case "OpenshiftAssistedControlPlane" -> {
        object
            .getMetadata()
            .setAnnotations(
                Map.of(
                    "cluster.x-k8s.io/release-image-repository-override",
                    World.releaseRepositories().get("RELEASE_REPOSITORY")));
        map(map(object.getAdditionalProperties(), "spec"), "openshiftAssistedConfigSpec")
            .put("bootMode", bootMode);
      }
      case "OpenshiftAssistedConfigTemplate" ->
          map(map(map(object.getAdditionalProperties(), "spec"), "template"), "spec")
              .put("bootMode", bootMode);
      default -> {}
    }
  }

  @SuppressWarnings("unchecked")
  private static Map<String, Object> map(Map<String, Object> parent, String key) {
    return (Map<String, Object>) parent.get(key);
  }

  @SuppressWarnings("unchecked")
  private static Map<String, Object> withReplicas(HasMetadata deployment, int replicas) {
    Map<String, Object> spec =
        (Map<String, Object>)
            ((GenericKubernetesResource) deployment).getAdditionalProperties().get("spec");
    spec.put("replicas", replicas);
    return spec;
  }

  /** Whether the kind has a Java model here or not, as an untyped object. */
  private static GenericKubernetesResource generic(HasMetadata object) {
    return object instanceof GenericKubernetesResource g
        ? g
        : Serialization.unmarshal(Serialization.asJson(object), GenericKubernetesResource.class);
  }

  private static InputStream toStream(String yaml) {
    return new java.io.ByteArrayInputStream(yaml.getBytes(StandardCharsets.UTF_8));
  }
}
