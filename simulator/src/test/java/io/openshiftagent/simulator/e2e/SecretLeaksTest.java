package io.openshiftagent.simulator.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.EventBuilder;
import io.fabric8.kubernetes.api.model.SecretBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.openshiftagent.testsupport.KubeApiServerEnvironment;
import io.openshiftagent.testsupport.SecretScanner;
import io.openshiftagent.testsupport.TestPki;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Base64;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The end-to-end leak check finds the credentials inside the Secrets it remembered. */
class SecretLeaksTest {
  private static final String REGISTRY_AUTH = "c29tZS11c2VyOnNvbWUtcGFzc3dvcmQ=";

  @Test
  void findsAKubeconfigsKeyInALogAndAPullSecretsAuthInAnEvent(@TempDir Path workDir)
      throws Exception {
    KubeApiServerEnvironment hub = KubeApiServerEnvironment.shared();
    KubernetesClient client = hub.client();
    String namespace = hub.createNamespace("leaks");
    String key = TestPki.newPemKeys().privateKey();
    String kubeconfig =
        String.join(
            "\n",
            "apiVersion: v1",
            "kind: Config",
            "users:",
            "- name: admin",
            "  user:",
            "    client-key-data: "
                + Base64.getEncoder().encodeToString(key.getBytes(StandardCharsets.UTF_8)));
    client
        .resource(
            new SecretBuilder()
                .withNewMetadata()
                .withName("c1-kubeconfig")
                .withNamespace(namespace)
                .endMetadata()
                .addToStringData("value", kubeconfig)
                .build())
        .create();
    client
        .resource(
            new SecretBuilder()
                .withNewMetadata()
                .withName("pull-secret")
                .withNamespace(namespace)
                .endMetadata()
                .addToStringData(
                    ".dockerconfigjson",
                    "{\"auths\":{\"quay.io\":{\"auth\":\"" + REGISTRY_AUTH + "\"}}}")
                .build())
        .create();
    SecretLeaks leaks = new SecretLeaks();
    leaks.remember(client, namespace);
    // A log line with one line of the key's PEM, an Event quoting the registry's credentials.
    String pemLine = key.lines().filter(l -> !l.startsWith("-----")).findFirst().orElseThrow();
    Files.createDirectories(workDir.resolve("provider"));
    Files.writeString(workDir.resolve("provider/provider.log"), "INFO read key " + pemLine + "\n");
    client
        .resource(
            new EventBuilder()
                .withNewMetadata()
                .withName("leak")
                .withNamespace(namespace)
                .endMetadata()
                .withReason("Leaked")
                .withMessage("auth " + REGISTRY_AUTH)
                .withNewInvolvedObject()
                .withKind("Secret")
                .withName("pull-secret")
                .withNamespace(namespace)
                .endInvolvedObject()
                .build())
        .create();

    SecretLeaks.Scan scan = leaks.findIn(workDir, client, List.of(namespace));
    List<SecretScanner.Finding> findings = scan.findings();

    assertThat(scan.logs()).isEqualTo(1);
    assertThat(leaks.namesIn(namespace))
        .anyMatch(name -> name.contains("/c1-kubeconfig "))
        .anyMatch(name -> name.contains("/pull-secret "));

    assertThat(findings)
        .extracting(SecretScanner.Finding::secret)
        .anyMatch(s -> s.contains("client key PEM line 1 of admin"))
        .anyMatch(s -> s.contains("auth of quay.io"));
    assertThat(findings)
        .extracting(SecretScanner.Finding::location)
        .anyMatch(l -> l.endsWith("provider.log"))
        .anyMatch(l -> l.startsWith("Event " + namespace + "/leak"));
  }
}
