package io.openshiftagent.testsupport;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fabric8.kubernetes.api.model.EventBuilder;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.fabric8.kubernetes.api.model.SecretBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class SecretScannerTest {
  private static final String TOKEN = "eyJhbGciOiJIUzI1NiJ9.c2VjcmV0LXRva2Vu.c2lnbmF0dXJl";
  private static final String PULL_SECRET = "{\"auths\":{\"quay.io\":{\"auth\":\"dXNlcjpwYXNz\"}}}";
  private final SecretScanner scanner =
      new SecretScanner(Map.of("token", TOKEN, "pull secret", PULL_SECRET));

  @Test
  void findsAValueAsWrittenWithItsLocationButNotItsValue() {
    List<SecretScanner.Finding> findings =
        scanner.scan("provider log", "GET /downloads?api_key=" + TOKEN + " failed");

    assertThat(findings)
        .containsExactly(new SecretScanner.Finding("token", "plain", "provider log", 23));
    assertThatThrownBy(() -> SecretScanner.assertNone(findings))
        .hasMessageContaining("token (plain) in provider log at 23")
        .hasMessageNotContaining(TOKEN);
  }

  @Test
  void findsAValueBase64EncodedAloneOrInsideALargerDocumentAtAnyAlignment() {
    for (String prefix : List.of("", "x", "xy", "{\"ignition\":{\"pullSecret\":")) {
      byte[] document = (prefix + PULL_SECRET + "}}").getBytes(StandardCharsets.UTF_8);
      assertThat(scanner.scan("data", Base64.getEncoder().encodeToString(document)))
          .as("behind %d bytes", prefix.length())
          .extracting(SecretScanner.Finding::secret, SecretScanner.Finding::form)
          .contains(org.assertj.core.groups.Tuple.tuple("pull secret", "base64"));
    }
    // Only where the encodings differ ('+' and '/' against '-' and '_') is URL-safe its own form.
    String tildes = "~".repeat(15);
    byte[] document = ("x" + tildes).getBytes(StandardCharsets.UTF_8);
    SecretScanner scanTildes = new SecretScanner(Map.of("tildes", tildes));
    assertThat(scanTildes.scan("url", Base64.getUrlEncoder().encodeToString(document)))
        .extracting(SecretScanner.Finding::form)
        .containsExactly("base64url");
    assertThat(scanTildes.scan("std", Base64.getEncoder().encodeToString(document)))
        .extracting(SecretScanner.Finding::form)
        .containsExactly("base64");
  }

  @Test
  void findsNothingInTextWithoutTheValues() {
    String almost = TOKEN.substring(0, TOKEN.length() - 1) + "X";
    assertThat(scanner.scan("log", "nothing here; " + almost)).isEmpty();
    SecretScanner.assertNone(scanner.scan(Map.of("a", "plain text", "b", "c2VjcmV0")));
  }

  @Test
  void refusesValuesTooShortToLookFor() {
    assertThatThrownBy(() -> new SecretScanner(Map.of("pin", "1234")))
        .hasMessageContaining("pin is shorter than 12");
  }

  @Test
  void scansFiles(@TempDir Path dir) throws Exception {
    Path log = Files.writeString(dir.resolve("provider.log"), "line\nkey " + TOKEN + "\n");
    assertThat(scanner.scanFile(log))
        .extracting(SecretScanner.Finding::location)
        .containsExactly(log.toString());
  }

  @Test
  void scansTheEventsAndConditionsOfANamespaceButNotItsSecrets() {
    KubeApiServerEnvironment env = KubeApiServerEnvironment.shared();
    KubernetesClient client = env.client();
    String ns = env.createNamespace("secret-scan");
    client
        .resource(
            new EventBuilder()
                .withNewMetadata()
                .withName("leaky")
                .withNamespace(ns)
                .endMetadata()
                .withReason("Downloaded")
                .withMessage("downloaded with api_key=" + TOKEN)
                .withNewInvolvedObject()
                .withKind("ConfigMap")
                .withName("x")
                .withNamespace(ns)
                .endInvolvedObject()
                .build())
        .create();
    client
        .resource(
            new SecretBuilder()
                .withNewMetadata()
                .withName("pull-secret")
                .withNamespace(ns)
                .endMetadata()
                .addToStringData(".dockerconfigjson", PULL_SECRET)
                .build())
        .create();
    GenericKubernetesResource machine = new GenericKubernetesResource();
    machine.setApiVersion("cluster.x-k8s.io/v1beta2");
    machine.setKind("Machine");
    machine.setMetadata(new ObjectMetaBuilder().withName("m").withNamespace(ns).build());
    machine.setAdditionalProperty(
        "spec",
        Map.of(
            "clusterName", "c",
            "bootstrap", Map.of("dataSecretName", "d"),
            "infrastructureRef",
                Map.of(
                    "apiGroup",
                    "infrastructure.cluster.x-k8s.io",
                    "kind",
                    "Metal3Machine",
                    "name",
                    "m")));
    client.resource(machine).create();
    client
        .genericKubernetesResources("cluster.x-k8s.io/v1beta2", "Machine")
        .inNamespace(ns)
        .withName("m")
        .editStatus(
            m -> {
              m.setAdditionalProperty(
                  "status",
                  Map.of(
                      "conditions",
                      List.of(
                          Map.of(
                              "type", "Ready",
                              "status", "False",
                              "reason", "Leaky",
                              "message",
                                  "user data "
                                      + Base64.getEncoder()
                                          .encodeToString(
                                              PULL_SECRET.getBytes(StandardCharsets.UTF_8)),
                              "lastTransitionTime", "2026-01-01T00:00:00Z"))));
              return m;
            });

    assertThat(scanner.scanNamespace(client, ns))
        .extracting(SecretScanner.Finding::secret, SecretScanner.Finding::location)
        .containsExactlyInAnyOrder(
            org.assertj.core.groups.Tuple.tuple("token", "Event " + ns + "/leaky"),
            org.assertj.core.groups.Tuple.tuple(
                "pull secret", "Machine " + ns + "/m condition Ready"));
  }
}
