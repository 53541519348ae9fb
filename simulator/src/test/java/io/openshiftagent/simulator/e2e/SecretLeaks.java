package io.openshiftagent.simulator.e2e;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLMapper;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.Secret;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.openshiftagent.simulator.ApiVersions;
import io.openshiftagent.simulator.Fields;
import io.openshiftagent.testsupport.SecretScanner;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Base64;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

/**
 * The secrets an end-to-end run's clusters had — pull secrets and the credentials in them,
 * kubeconfigs and their keys and tokens, bootstrap data (ignition), assisted-service's presigned
 * {@code api_key}s — and the check that none of them appears in what the run produced: every log
 * under the world's directory (both providers, across restarts, and Cluster API's), and the Events
 * and conditions of the clusters' namespaces.
 *
 * <p>Secrets are remembered while they exist (a test may delete its cluster before the check), by
 * tests that may run side by side.
 */
final class SecretLeaks {
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final ObjectMapper YAML = new YAMLMapper();

  /** By a name that says what and where, never the value. */
  private final Map<String, String> secrets = new LinkedHashMap<>();

  /** Remembers the secrets {@code namespace} holds now. */
  synchronized void remember(KubernetesClient hub, String namespace) {
    for (Secret secret : hub.secrets().inNamespace(namespace).list().getItems()) {
      if ("kubernetes.io/service-account-token".equals(secret.getType())
          || secret.getData() == null) {
        continue;
      }
      secret
          .getData()
          .forEach(
              (key, encoded) -> {
                String where = "Secret " + namespace + "/" + secret.getMetadata().getName();
                String value =
                    new String(Base64.getDecoder().decode(encoded), StandardCharsets.UTF_8);
                add(where + " " + key, value);
                credentialsIn(value)
                    .forEach((part, text) -> add(where + " " + key + " " + part, text));
              });
    }
    for (GenericKubernetesResource infraEnv :
        hub.genericKubernetesResources(ApiVersions.AGENT_INSTALL, "InfraEnv")
            .inNamespace(namespace)
            .list()
            .getItems()) {
      String url = Fields.string(infraEnv, "status", "bootArtifacts", "discoveryIgnitionURL");
      if (url != null) {
        add(
            "api_key of InfraEnv " + namespace + "/" + infraEnv.getMetadata().getName(),
            query(url, "api_key"));
      }
    }
  }

  /**
   * The credentials inside a value: each registry's {@code auth} of a pull secret; a kubeconfig's
   * client keys (encoded, and each line of their PEM) and tokens.
   */
  static Map<String, String> credentialsIn(String value) {
    Map<String, String> found = new LinkedHashMap<>();
    JsonNode tree = parse(value);
    if (tree == null) {
      return found;
    }
    tree.path("auths")
        .properties()
        .forEach(
            auth -> found.put("auth of " + auth.getKey(), auth.getValue().path("auth").asText()));
    for (JsonNode user : tree.path("users")) {
      JsonNode credentials = user.path("user");
      String name = user.path("name").asText();
      found.put("token of " + name, credentials.path("token").asText());
      String key = credentials.path("client-key-data").asText();
      found.put("client key of " + name, key);
      if (!key.isEmpty()) {
        // A log would show the key as PEM, perhaps one line of it.
        List<String> lines =
            new String(Base64.getDecoder().decode(key), StandardCharsets.UTF_8)
                .lines()
                .filter(line -> !line.startsWith("-----"))
                .toList();
        for (int i = 0; i < lines.size(); i++) {
          found.put("client key PEM line " + (i + 1) + " of " + name, lines.get(i));
        }
      }
    }
    found.values().removeIf(String::isEmpty);
    return found;
  }

  /** JSON (a pull secret) or YAML (a kubeconfig); null for anything else. */
  private static JsonNode parse(String value) {
    for (ObjectMapper mapper : List.of(JSON, YAML)) {
      try {
        JsonNode tree = mapper.readTree(value);
        if (tree != null && tree.isObject()) {
          return tree;
        }
      } catch (IOException notThisFormat) {
        // try the next
      }
    }
    return null;
  }

  private static String query(String url, String parameter) {
    String query = URI.create(url).getRawQuery();
    for (String pair : query == null ? new String[0] : query.split("&")) {
      if (pair.startsWith(parameter + "=")) {
        return pair.substring(parameter.length() + 1);
      }
    }
    return "";
  }

  private void add(String name, String value) {
    if (value.length() >= 12) {
      secrets.putIfAbsent(name, value);
    }
  }

  /** What is remembered: each secret by a name that says what and where. */
  synchronized Map<String, String> byName() {
    return Map.copyOf(secrets);
  }

  synchronized int size() {
    return secrets.size();
  }

  /** What is remembered of {@code namespace}: the names, never the values. */
  synchronized List<String> namesIn(String namespace) {
    return secrets.keySet().stream().filter(name -> name.contains(" " + namespace + "/")).toList();
  }

  /** What a check found, and how many logs it read. */
  record Scan(List<SecretScanner.Finding> findings, int logs) {}

  /**
   * Where the remembered secrets appear: in the logs under {@code workDir} and in the Events and
   * conditions of {@code namespaces}.
   */
  synchronized Scan findIn(Path workDir, KubernetesClient hub, Collection<String> namespaces) {
    SecretScanner scanner = new SecretScanner(secrets);
    List<SecretScanner.Finding> findings = new ArrayList<>();
    List<Path> logs;
    try (Stream<Path> files = Files.walk(workDir)) {
      logs = files.filter(f -> f.toString().endsWith(".log")).toList();
    } catch (IOException e) {
      throw new UncheckedIOException("cannot list the logs under " + workDir, e);
    }
    logs.forEach(log -> findings.addAll(scanner.scanFile(log)));
    for (String namespace : namespaces) {
      findings.addAll(scanner.scanNamespace(hub, namespace));
    }
    return new Scan(findings, logs.size());
  }
}
