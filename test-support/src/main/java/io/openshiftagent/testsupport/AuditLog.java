package io.openshiftagent.testsupport;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * The kube-apiserver's audit log: the flags that make a server write one (every request at the
 * Metadata level, as JSON lines) and a reader that turns it into one {@link Request} per request.
 */
public final class AuditLog {
  /** Who did what, no request or response bodies: enough to count and time requests. */
  static final String METADATA_POLICY =
      """
      apiVersion: audit.k8s.io/v1
      kind: Policy
      omitStages: ["RequestReceived"]
      rules:
        - level: Metadata
      """;

  private static final ObjectMapper JSON = new ObjectMapper();

  private AuditLog() {}

  /**
   * The kube-apiserver flags (name, value, name, value...) that write the audit log to {@code log};
   * the policy file goes next to it.
   */
  public static List<String> apiServerFlags(Path log) {
    try {
      Path dir = log.toAbsolutePath().getParent();
      Files.createDirectories(dir);
      Path policy = dir.resolve("audit-policy.yaml");
      Files.writeString(policy, METADATA_POLICY);
      return List.of(
          "--audit-policy-file",
          policy.toString(),
          "--audit-log-path",
          log.toAbsolutePath().toString(),
          "--audit-log-format",
          "json",
          "--audit-log-maxsize",
          "0");
    } catch (IOException e) {
      throw new UncheckedIOException("cannot write the audit policy next to " + log, e);
    }
  }

  /**
   * One audited request, from its last recorded stage.
   *
   * @param resource the resource with its subresource, e.g. {@code agents} or {@code
   *     openshiftassistedconfigs/status}; for a request to no resource, its path
   * @param user the authenticated user, e.g. {@code system:serviceaccount:<namespace>:<name>}
   * @param webhooks the time spent calling admission webhooks (mutating and validating), which the
   *     API server records only for a request that took over half a second
   */
  public record Request(
      String auditId,
      String userAgent,
      String verb,
      String apiGroup,
      String resource,
      String namespace,
      String name,
      int code,
      Instant received,
      Instant completed,
      String user,
      Optional<Duration> webhooks) {
    private static final Set<String> WRITES =
        Set.of("create", "update", "patch", "delete", "deletecollection");

    /** Whether the request changes an object (Events and Leases included). */
    public boolean isWrite() {
      return WRITES.contains(verb);
    }
  }

  /**
   * The requests of the log, once each (a long-running watch is logged when its response starts and
   * again when it ends), in the order they were received.
   */
  public static List<Request> read(Path log) {
    Map<String, Request> byId = new LinkedHashMap<>();
    try (Stream<String> lines = Files.lines(log)) {
      lines
          .filter(line -> !line.isBlank())
          .map(AuditLog::parse)
          .forEach(request -> byId.put(request.auditId(), request));
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read the audit log " + log, e);
    }
    return byId.values().stream()
        .sorted(java.util.Comparator.comparing(Request::received))
        .toList();
  }

  /**
   * The deletes in {@code namespace} that succeeded and whose user agent ends with {@code
   * userAgentSuffix} (a controller naming itself, e.g. {@code /generic-garbage-collector}), once
   * each, in the order they were received. Only lines naming that user agent are parsed, so a long
   * log reads quickly.
   */
  public static List<Request> deletesBy(Path log, String userAgentSuffix, String namespace) {
    Map<String, Request> byId = new LinkedHashMap<>();
    try (Stream<String> lines = Files.lines(log)) {
      lines
          .filter(line -> line.contains(userAgentSuffix) && line.contains("\"delete\""))
          .map(AuditLog::parse)
          .filter(
              r ->
                  r.verb().equals("delete")
                      && r.namespace().equals(namespace)
                      && r.userAgent().endsWith(userAgentSuffix))
          .forEach(request -> byId.put(request.auditId(), request));
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read the audit log " + log, e);
    }
    return byId.values().stream()
        .filter(r -> r.code() >= 200 && r.code() < 300)
        .sorted(java.util.Comparator.comparing(Request::received))
        .toList();
  }

  /** What a request count is keyed by. */
  public record Count(String userAgent, String verb, String resource) {}

  /** How many requests each user agent made, by verb and resource. */
  public static Map<Count, Long> countByUserAgentVerbAndResource(List<Request> requests) {
    Map<Count, Long> counts = new java.util.TreeMap<>(COUNT_ORDER);
    for (Request r : requests) {
      counts.merge(new Count(r.userAgent(), r.verb(), r.resource()), 1L, Long::sum);
    }
    return counts;
  }

  private static final java.util.Comparator<Count> COUNT_ORDER =
      java.util.Comparator.comparing(Count::userAgent)
          .thenComparing(Count::resource)
          .thenComparing(Count::verb);

  private static final List<String> WEBHOOK_LATENCIES =
      List.of(
          "apiserver.latency.k8s.io/mutating-webhook",
          "apiserver.latency.k8s.io/validating-webhook");

  /**
   * A Go duration as the API server writes it, e.g. {@code 1.02s}, {@code 417.3ms}, {@code 50µs}.
   */
  private static final Pattern GO_DURATION_PART = Pattern.compile("([0-9.]+)(h|ms|µs|us|ns|m|s)");

  private static Optional<Duration> webhooks(JsonNode annotations) {
    Duration total = null;
    for (String key : WEBHOOK_LATENCIES) {
      if (annotations.hasNonNull(key)) {
        Duration spent = goDuration(annotations.get(key).asText());
        total = total == null ? spent : total.plus(spent);
      }
    }
    return Optional.ofNullable(total);
  }

  static Duration goDuration(String text) {
    Matcher part = GO_DURATION_PART.matcher(text);
    double nanos = 0;
    int end = 0;
    while (part.find() && part.start() == end) {
      double value = Double.parseDouble(part.group(1));
      nanos +=
          value
              * switch (part.group(2)) {
                case "h" -> 3.6e12;
                case "m" -> 6e10;
                case "s" -> 1e9;
                case "ms" -> 1e6;
                case "µs", "us" -> 1e3;
                default -> 1;
              };
      end = part.end();
    }
    if (end != text.length()) {
      throw new IllegalArgumentException("not a Go duration: " + text);
    }
    return Duration.ofNanos(Math.round(nanos));
  }

  static Request parse(String line) {
    try {
      JsonNode event = JSON.readTree(line);
      JsonNode ref = event.path("objectRef");
      String resource = ref.path("resource").asText("");
      String subresource = ref.path("subresource").asText("");
      return new Request(
          event.path("auditID").asText(),
          event.path("userAgent").asText(""),
          event.path("verb").asText(""),
          ref.path("apiGroup").asText(""),
          resource.isEmpty()
              ? event.path("requestURI").asText("").replaceAll("\\?.*", "")
              : subresource.isEmpty() ? resource : resource + "/" + subresource,
          ref.path("namespace").asText(""),
          ref.path("name").asText(""),
          event.path("responseStatus").path("code").asInt(0),
          Instant.parse(event.path("requestReceivedTimestamp").asText()),
          Instant.parse(event.path("stageTimestamp").asText()),
          event.path("user").path("username").asText(""),
          webhooks(event.path("annotations")));
    } catch (IOException e) {
      throw new UncheckedIOException("not an audit event: " + line, e);
    }
  }
}
