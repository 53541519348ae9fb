package io.openshiftagent.delivery;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.DynamicTest.dynamicTest;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.dataformat.yaml.YAMLMapper;
import io.openshiftagent.testsupport.Command;
import io.openshiftagent.testsupport.TestPaths;
import java.io.IOException;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;
import org.junit.jupiter.api.io.TempDir;

/**
 * The Argo CD health checks of config/argocd, run in the real Lua 5.1 interpreter against status
 * fixtures of every state, and the argocd-cm snippet that embeds them.
 */
class ArgoCdHealthTest {
  private static final Path ARGOCD = TestPaths.repoRoot().resolve("config/argocd");
  private static final YAMLMapper YAML = new YAMLMapper();
  private static final String KEY_PREFIX = "resource.customizations.health.";

  @TempDir static Path work;

  /** One test per fixture case: the script's status and message for that object. */
  @TestFactory
  Stream<DynamicTest> healthOfEveryFixture() throws Exception {
    List<DynamicTest> tests = new ArrayList<>();
    for (Map.Entry<String, Path> kind : scripts().entrySet()) {
      String simpleKind = kind.getKey().substring(kind.getKey().indexOf('_') + 1);
      for (JsonNode c : cases(simpleKind)) {
        tests.add(
            dynamicTest(
                simpleKind + ": " + c.get("name").asText(),
                () -> {
                  List<String> result = runHealth(kind.getValue(), c.get("obj"));
                  assertThat(result)
                      .as("status and message")
                      .containsExactly(
                          c.get("expect").get("status").asText(),
                          c.get("expect").get("message").asText());
                }));
      }
    }
    assertThat(tests).hasSizeGreaterThan(10);
    return tests.stream();
  }

  @Test
  void everyKindHasFixturesForEveryHealthState() throws Exception {
    for (String key : scripts().keySet()) {
      String simpleKind = key.substring(key.indexOf('_') + 1);
      Set<String> states = new TreeSet<>();
      cases(simpleKind).forEach(c -> states.add(c.get("expect").get("status").asText()));
      assertThat(states)
          .as("health states the %s fixtures reach", simpleKind)
          .containsExactlyInAnyOrder("Progressing", "Healthy", "Degraded", "Suspended");
    }
  }

  /** A kind whose status no controller writes (no status subresource) has no health to report. */
  @Test
  void everyKindWithStatusHasAScriptAndTemplatesHaveNone() throws IOException {
    Set<String> withStatus = new TreeSet<>();
    Set<String> withoutStatus = new TreeSet<>();
    for (Path file : TestPaths.ourCrdFiles()) {
      JsonNode crd = YAML.readTree(file.toFile());
      String key = crd.at("/spec/group").asText() + "_" + crd.at("/spec/names/kind").asText();
      boolean hasStatus = false;
      for (JsonNode version : crd.at("/spec/versions")) {
        hasStatus |= version.at("/subresources").has("status");
      }
      (hasStatus ? withStatus : withoutStatus).add(key);
    }
    assertThat(withStatus)
        .containsExactlyInAnyOrder(
            "bootstrap.cluster.x-k8s.io_OpenshiftAssistedConfig",
            "controlplane.cluster.x-k8s.io_OpenshiftAssistedControlPlane");
    assertThat(withoutStatus).hasSize(2).allMatch(k -> k.endsWith("Template"));
    assertThat(scripts().keySet()).isEqualTo(withStatus);
  }

  @Test
  void argocdConfigMapEmbedsExactlyTheLuaScripts() throws IOException {
    JsonNode cm = YAML.readTree(ARGOCD.resolve("argocd-cm.yaml").toFile());
    assertThat(cm.at("/kind").asText()).isEqualTo("ConfigMap");
    assertThat(cm.at("/metadata/name").asText()).isEqualTo("argocd-cm");
    Map<String, String> embedded = new TreeMap<>();
    cm.get("data").fields().forEachRemaining(e -> embedded.put(e.getKey(), e.getValue().asText()));
    Map<String, String> scripts = new TreeMap<>();
    for (Map.Entry<String, Path> script : scripts().entrySet()) {
      scripts.put(KEY_PREFIX + script.getKey(), Files.readString(script.getValue()));
    }
    assertThat(embedded)
        .as("config/argocd/argocd-cm.yaml is stale: run hack/update-argocd-cm.sh")
        .isEqualTo(scripts);
  }

  /** {@code <group>_<Kind>} → its script in config/argocd. */
  private static Map<String, Path> scripts() throws IOException {
    Map<String, Path> scripts = new TreeMap<>();
    try (Stream<Path> files = Files.list(ARGOCD)) {
      files
          .filter(p -> p.toString().endsWith(".lua"))
          .forEach(p -> scripts.put(p.getFileName().toString().replace(".lua", ""), p));
    }
    return scripts;
  }

  private static List<JsonNode> cases(String simpleKind) throws IOException, URISyntaxException {
    var resource = ArgoCdHealthTest.class.getResource("/argocd/" + simpleKind + ".yaml");
    assertThat(resource).as("fixtures for %s", simpleKind).isNotNull();
    List<JsonNode> cases = new ArrayList<>();
    YAML.readTree(resource).forEach(cases::add);
    return cases;
  }

  /** Runs the script in lua5.1 with {@code obj} as Argo CD's global; returns status and message. */
  private static List<String> runHealth(Path script, JsonNode obj) throws Exception {
    Path fixture = Files.createTempFile(work, "obj", ".lua");
    Files.writeString(fixture, "return " + LuaLiteral.of(obj) + "\n");
    Path harness = Path.of(ArgoCdHealthTest.class.getResource("/argocd/harness.lua").toURI());
    Command.Result run =
        Command.run(
                Duration.ofSeconds(30),
                List.of(lua(), harness.toString(), script.toString(), fixture.toString()))
            .succeeded();
    return run.stdout().lines().toList();
  }

  private static String lua() {
    for (String dir : System.getenv().getOrDefault("PATH", "").split(":")) {
      Path candidate = Path.of(dir, "lua5.1");
      if (Files.isExecutable(candidate)) {
        return candidate.toString();
      }
    }
    throw new IllegalStateException(
        "lua5.1 is not on the PATH: run hack/build-tools.sh (as root it installs the Debian package"
            + " lua5.1)");
  }

  /** A JSON value written as a Lua 5.1 table constructor, as Argo CD hands objects to scripts. */
  static final class LuaLiteral {
    private LuaLiteral() {}

    static String of(JsonNode node) {
      if (node == null || node.isNull()) {
        return "nil";
      }
      if (node.isObject()) {
        StringBuilder table = new StringBuilder("{");
        Iterator<Map.Entry<String, JsonNode>> fields = node.fields();
        while (fields.hasNext()) {
          Map.Entry<String, JsonNode> field = fields.next();
          table.append('[').append(quote(field.getKey())).append("]=").append(of(field.getValue()));
          table.append(fields.hasNext() ? ", " : "");
        }
        return table.append('}').toString();
      }
      if (node.isArray()) {
        List<String> items = new ArrayList<>();
        node.forEach(item -> items.add(of(item)));
        return "{" + String.join(", ", items) + "}";
      }
      if (node.isNumber() || node.isBoolean()) {
        return node.asText();
      }
      return quote(node.asText());
    }

    private static String quote(String s) {
      return "\""
          + s.replace("\\", "\\\\").replace("\"", "\\\"").replace("\n", "\\n").replace("\r", "\\r")
          + "\"";
    }
  }
}
