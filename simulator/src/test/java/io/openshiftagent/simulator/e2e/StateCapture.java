package io.openshiftagent.simulator.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.utils.Serialization;
import io.openshiftagent.simulator.ApiVersions;
import io.openshiftagent.testsupport.SecretScanner;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Base64;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;

/**
 * Everything a namespace of the hub holds, and every ClusterImageSet, written as YAML: the state a
 * provider pair left, as test resources. Secret values are replaced: each Secret's data value by
 * {@code REPLACED (<n> bytes)}, and any secret the namespace held (pull-secret credentials,
 * kubeconfig keys and tokens, assisted-service's presigned {@code api_key}s, in a query or the
 * image service's {@code /byapikey/<token>/} path, {@link SecretLeaks}) wherever else it appears by
 * {@code REPLACED}; the files are then checked to hold none. The namespace's name is written as
 * {@code ${NAMESPACE}}. Server-side bookkeeping ({@code managedFields}) is left out; UIDs, owner
 * references and resource versions are kept, as they say what was made again.
 */
final class StateCapture {
  private static final Pattern API_KEY = Pattern.compile("api_key=[^&\"'\\s]+");

  /** The image service's presigned token in a path ({@code /byapikey/<token>/full.iso}). */
  private static final Pattern BY_API_KEY = Pattern.compile("/byapikey/[^/\"'\\s]+");

  private StateCapture() {}

  /**
   * Writes {@code namespace.yaml} (every object of {@code namespace} by {@link ApiObjects}, by kind
   * and name), {@code events.yaml} (kept apart: what happened, not what is) and {@code
   * clusterimagesets.yaml} into {@code dir}; returns how many objects, Events aside.
   */
  static int write(KubernetesClient hub, String namespace, Path dir) {
    SecretLeaks secrets = new SecretLeaks();
    secrets.remember(hub, namespace);
    List<GenericKubernetesResource> state = new ArrayList<>();
    ApiObjects.objects(hub, true, namespace)
        .forEach(
            (key, object) -> {
              // A list's items may lack their kind: the key ("apiVersion kind name") says it.
              String[] apiVersionKind = key.split(" ");
              object.setApiVersion(apiVersionKind[0]);
              object.setKind(apiVersionKind[1]);
              state.add(object);
            });
    List<GenericKubernetesResource> events =
        new ArrayList<>(
            hub.genericKubernetesResources("v1", "Event").inNamespace(namespace).list().getItems());
    events.forEach(
        event -> {
          event.setApiVersion("v1");
          event.setKind("Event");
        });
    List<GenericKubernetesResource> imageSets =
        hub.genericKubernetesResources(ApiVersions.HIVE, "ClusterImageSet").list().getItems();
    try {
      Files.createDirectories(dir);
      write(dir.resolve("namespace.yaml"), state, namespace, secrets);
      write(dir.resolve("events.yaml"), events, namespace, secrets);
      write(dir.resolve("clusterimagesets.yaml"), imageSets, namespace, secrets);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return state.size() + imageSets.size();
  }

  private static void write(
      Path file, List<GenericKubernetesResource> objects, String namespace, SecretLeaks secrets)
      throws IOException {
    objects.sort(
        Comparator.comparing((GenericKubernetesResource o) -> o.getApiVersion() + "/" + o.getKind())
            .thenComparing(o -> o.getMetadata().getName()));
    StringBuilder yaml =
        new StringBuilder(
            "# Captured by GoProviderSingleNodeTest from the hub of a world running the Go provider"
                + " pair;\n# secret values replaced (StateCapture).\n");
    for (GenericKubernetesResource object : objects) {
      object.getMetadata().setManagedFields(null);
      if ("Secret".equals(object.getKind()) && "v1".equals(object.getApiVersion())) {
        replaceData(object);
      }
      yaml.append(Serialization.asYaml(object));
    }
    String text = yaml.toString();
    // Longest first: a kubeconfig's token is part of the kubeconfig.
    List<String> values = new ArrayList<>(secrets.byName().values());
    values.sort(Comparator.comparingInt(String::length).reversed());
    for (String secret : values) {
      text = text.replace(secret, "REPLACED");
    }
    text = API_KEY.matcher(text).replaceAll("api_key=REPLACED");
    text = BY_API_KEY.matcher(text).replaceAll("/byapikey/REPLACED");
    text = text.replace(namespace, "${NAMESPACE}");
    assertThat(new SecretScanner(secrets.byName()).scan(file.toString(), text))
        .as("secrets left in " + file)
        .isEmpty();
    Files.writeString(file, text, StandardCharsets.UTF_8);
  }

  @SuppressWarnings("unchecked")
  private static void replaceData(GenericKubernetesResource secret) {
    Object data = secret.getAdditionalProperties().get("data");
    if (data instanceof Map<?, ?> values) {
      Map<String, Object> replaced = new LinkedHashMap<>();
      ((Map<String, Object>) values)
          .forEach(
              (key, value) -> {
                int bytes = Base64.getDecoder().decode(String.valueOf(value)).length;
                replaced.put(
                    key,
                    Base64.getEncoder()
                        .encodeToString(
                            ("REPLACED (" + bytes + " bytes)").getBytes(StandardCharsets.UTF_8)));
              });
      secret.getAdditionalProperties().put("data", replaced);
    }
  }
}
