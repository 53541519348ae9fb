package io.openshiftagent.testsupport;

import io.fabric8.kubernetes.api.model.APIGroup;
import io.fabric8.kubernetes.api.model.APIResource;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

/**
 * Looks for secret values in what a run produced: log text, files, and in a namespace every Event
 * and the conditions of every object. A value is found as written and base64-encoded (standard and
 * URL-safe, at any alignment, so also inside a larger encoded document). A finding names the secret
 * and where it is, never the value.
 */
public final class SecretScanner {
  /** Shorter values would match by chance. */
  static final int MIN_LENGTH = 12;

  /** Where a secret was found: its name, its form (plain or base64), and a location. */
  public record Finding(String secret, String form, String location, int offset) {
    @Override
    public String toString() {
      return secret + " (" + form + ") in " + location + " at " + offset;
    }
  }

  private record Needle(String secret, String form, String text) {}

  private final List<Needle> needles = new ArrayList<>();

  /**
   * @param secrets the values to look for, by a name for reports (e.g. "pull secret")
   */
  public SecretScanner(Map<String, String> secrets) {
    secrets.forEach(
        (name, value) -> {
          if (value.length() < MIN_LENGTH) {
            throw new IllegalArgumentException(
                name + " is shorter than " + MIN_LENGTH + " characters: too short to look for");
          }
          add(new Needle(name, "plain", value));
          byte[] bytes = value.getBytes(StandardCharsets.UTF_8);
          for (int shift = 0; shift < 3; shift++) {
            add(new Needle(name, "base64", alignedBase64(bytes, shift, false)));
            add(new Needle(name, "base64url", alignedBase64(bytes, shift, true)));
          }
        });
  }

  /** Adds {@code needle} unless the same text is looked for already (URL-safe often is). */
  private void add(Needle needle) {
    if (needles.stream().noneMatch(n -> n.text().equals(needle.text()))) {
      needles.add(needle);
    }
  }

  /**
   * The part of the base64 encoding of {@code bytes} that is the same wherever they start in a
   * longer byte string whose offset modulo 3 is {@code shift}: only whole 3-byte groups count.
   */
  static String alignedBase64(byte[] bytes, int shift, boolean urlSafe) {
    byte[] shifted = new byte[shift + bytes.length];
    System.arraycopy(bytes, 0, shifted, shift, bytes.length);
    String encoded =
        (urlSafe ? Base64.getUrlEncoder() : Base64.getEncoder())
            .withoutPadding()
            .encodeToString(shifted);
    int firstWholeGroup = (shift + 2) / 3;
    int lastWholeGroup = shifted.length / 3;
    return encoded.substring(firstWholeGroup * 4, lastWholeGroup * 4);
  }

  /** Every occurrence in {@code text}, located as {@code location}. */
  public List<Finding> scan(String location, String text) {
    List<Finding> findings = new ArrayList<>();
    if (text == null) {
      return findings;
    }
    for (Needle needle : needles) {
      for (int at = text.indexOf(needle.text());
          at >= 0;
          at = text.indexOf(needle.text(), at + 1)) {
        findings.add(new Finding(needle.secret(), needle.form(), location, at));
      }
    }
    return findings;
  }

  /** Every occurrence in each text, by location. */
  public List<Finding> scan(Map<String, String> texts) {
    List<Finding> findings = new ArrayList<>();
    texts.forEach((location, text) -> findings.addAll(scan(location, text)));
    return findings;
  }

  /** Every occurrence in the lines of a log, located by line number and the line's start. */
  public List<Finding> scanLines(String log, List<String> lines) {
    List<Finding> findings = new ArrayList<>();
    for (int i = 0; i < lines.size(); i++) {
      String line = lines.get(i);
      String start =
          line.substring(
              0, Math.min(line.indexOf(' ') < 0 ? line.length() : line.indexOf(' '), 80));
      findings.addAll(scan(log + " line " + (i + 1) + " (" + start + ")", line));
    }
    return findings;
  }

  public List<Finding> scanFile(Path file) {
    try {
      return scan(file.toString(), Files.readString(file, StandardCharsets.UTF_8));
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read " + file, e);
    }
  }

  /**
   * Every occurrence in the namespace's Events (reason and message) and in the conditions (type,
   * reason, message) of every object of every namespaced kind the API server serves, Secrets aside.
   */
  public List<Finding> scanNamespace(KubernetesClient client, String namespace) {
    return scan(namespaceTexts(client, namespace));
  }

  /** The texts {@link #scanNamespace} looks at, by location. */
  static Map<String, String> namespaceTexts(KubernetesClient client, String namespace) {
    Map<String, String> texts = new LinkedHashMap<>();
    client
        .v1()
        .events()
        .inNamespace(namespace)
        .list()
        .getItems()
        .forEach(
            e ->
                texts.put(
                    "Event " + namespace + "/" + e.getMetadata().getName(),
                    e.getReason() + "\n" + e.getMessage()));
    for (APIResource kind : namespacedKinds(client)) {
      if (kind.getKind().equals("Secret") || kind.getKind().equals("Event")) {
        continue;
      }
      for (GenericKubernetesResource object :
          client
              .genericKubernetesResources(kind.getVersion(), kind.getKind())
              .inNamespace(namespace)
              .list()
              .getItems()) {
        conditions(object)
            .forEach(
                (type, text) ->
                    texts.put(
                        kind.getKind()
                            + " "
                            + namespace
                            + "/"
                            + object.getMetadata().getName()
                            + " condition "
                            + type,
                        text));
      }
    }
    return texts;
  }

  /**
   * Each listable namespaced kind once, at its group's preferred version ({@code version} set to
   * group/version).
   */
  private static List<APIResource> namespacedKinds(KubernetesClient client) {
    List<String> groupVersions = new ArrayList<>(List.of("v1"));
    for (APIGroup group : client.getApiGroups().getGroups()) {
      groupVersions.add(group.getPreferredVersion().getGroupVersion());
    }
    List<APIResource> kinds = new ArrayList<>();
    for (String groupVersion : groupVersions) {
      for (APIResource resource : client.getApiResources(groupVersion).getResources()) {
        if (Boolean.TRUE.equals(resource.getNamespaced())
            && !resource.getName().contains("/")
            && resource.getVerbs().contains("list")) {
          resource.setVersion(groupVersion);
          kinds.add(resource);
        }
      }
    }
    return kinds;
  }

  /** status.conditions by type: their reason and message. */
  private static Map<String, String> conditions(GenericKubernetesResource object) {
    Map<String, String> conditions = new LinkedHashMap<>();
    if (object.getAdditionalProperties().get("status") instanceof Map<?, ?> status
        && status.get("conditions") instanceof List<?> list) {
      for (Object item : list) {
        if (item instanceof Map<?, ?> condition) {
          conditions.put(
              String.valueOf(condition.get("type")),
              condition.get("reason") + "\n" + condition.get("message"));
        }
      }
    }
    return conditions;
  }

  /** Fails, naming each finding, when there is any. */
  public static void assertNone(List<Finding> findings) {
    if (!findings.isEmpty()) {
      throw new AssertionError(
          "secrets found:\n  "
              + findings.stream().map(Finding::toString).collect(Collectors.joining("\n  ")));
    }
  }
}
