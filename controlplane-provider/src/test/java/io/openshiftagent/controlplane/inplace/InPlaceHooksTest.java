package io.openshiftagent.controlplane.inplace;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.openshiftagent.provider.runtime.HookServer;
import io.openshiftagent.testsupport.TestPki;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Base64;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The in-place update hooks as Cluster API v1.14's runtime client calls them (request and response
 * shapes of {@code api/runtime/hooks/v1alpha1/inplaceupdate_types.go}), over HTTPS. End to end with
 * the real Cluster API: DayTwoOperationsTest.
 */
class InPlaceHooksTest {
  private static final ObjectMapper JSON = new ObjectMapper();

  private final Map<String, Kubelets.Look> nodes = new java.util.HashMap<>();
  private final InPlaceHooks hooks =
      new InPlaceHooks(
          (namespace, name, cluster) ->
              nodes.getOrDefault(
                  namespace + "/" + name + "@" + cluster, Kubelets.Look.unknown("no such Node")));

  @Test
  void discoveryNamesTheThreeHooksFailingClosed() throws Exception {
    JsonNode response = JSON.readTree(hooks.discovery());

    assertThat(response.path("status").asText()).isEqualTo("Success");
    assertThat(response.path("handlers"))
        .extracting(
            h -> h.path("name").asText() + ":" + h.path("requestHook").path("hook").asText())
        .containsExactly(
            "can-update-machine:CanUpdateMachine",
            "can-update-machineset:CanUpdateMachineSet",
            "update-machine:UpdateMachine");
    assertThat(response.path("handlers"))
        .allMatch(h -> "Fail".equals(h.path("failurePolicy").asText()))
        .allMatch(h -> InPlaceHooks.API.equals(h.path("requestHook").path("apiVersion").asText()));
  }

  @Test
  void aMachineSetsVersionChangeIsCoveredAndNothingElse() throws Exception {
    String request =
        """
        {"apiVersion":"hooks.runtime.cluster.x-k8s.io/v1alpha1","kind":"CanUpdateMachineSetRequest",
         "current":{"machineSet":{"spec":{"replicas":2,"template":{"spec":{
             "clusterName":"c","bootstrap":{"configRef":{"name":"a"}}}}}}},
         "desired":{"machineSet":{"spec":{"replicas":2,"template":{"spec":{
             "clusterName":"c","version":"v1.34.0","bootstrap":{"configRef":{"name":"b"}}}}}}}}
        """;

    JsonNode response = JSON.readTree(hooks.canUpdateMachineSet(request));

    assertThat(response.path("status").asText()).isEqualTo("Success");
    assertThat(response.path("machineSetPatch").path("patchType").asText())
        .isEqualTo("JSONMergePatch");
    // Only the version: the other change (the bootstrap template) stays for Cluster API to see,
    // which then rolls the MachineSet out by replacing Machines.
    assertThat(patch(response.path("machineSetPatch")))
        .isEqualTo("{\"spec\":{\"template\":{\"spec\":{\"version\":\"v1.34.0\"}}}}");
    assertThat(response.has("bootstrapConfigTemplatePatch")).isFalse();
    assertThat(response.has("infrastructureMachineTemplatePatch")).isFalse();
  }

  @Test
  void noVersionChangeNoPatch() throws Exception {
    String request =
        """
        {"current":{"machineSet":{"spec":{"template":{"spec":{"version":"v1.33.0"}}}}},
         "desired":{"machineSet":{"spec":{"template":{"spec":{"version":"v1.33.0","x":1}}}}}}
        """;

    JsonNode response = JSON.readTree(hooks.canUpdateMachineSet(request));

    assertThat(response.path("status").asText()).isEqualTo("Success");
    assertThat(response.has("machineSetPatch")).isFalse();
  }

  @Test
  void aMachinesVersionChangeIsCovered() throws Exception {
    String request =
        """
        {"current":{"machine":{"spec":{"version":"v1.33.0"}}},
         "desired":{"machine":{"spec":{"version":"v1.34.0"}}}}
        """;

    JsonNode response = JSON.readTree(hooks.canUpdateMachine(request));

    assertThat(patch(response.path("machinePatch")))
        .isEqualTo("{\"spec\":{\"version\":\"v1.34.0\"}}");
  }

  @Test
  void updateIsDoneWhenTheNodeRunsTheKubeletAskedFor() throws Exception {
    nodes.put("ns/w-1@c", Kubelets.Look.of("worker-0", "v1.34.0"));

    JsonNode response = JSON.readTree(hooks.updateMachine(updateRequest("w-1", "v1.34.0")));

    assertThat(response.path("status").asText()).isEqualTo("Success");
    assertThat(response.path("retryAfterSeconds").asInt()).isZero();
  }

  @Test
  void updateWaitsForOpenShiftWhileTheNodeRunsAnotherKubelet() throws Exception {
    nodes.put("ns/w-1@c", Kubelets.Look.of("worker-0", "v1.33.0"));

    JsonNode response = JSON.readTree(hooks.updateMachine(updateRequest("w-1", "v1.34.0")));

    assertThat(response.path("status").asText()).isEqualTo("Success");
    assertThat(response.path("retryAfterSeconds").asInt()).isEqualTo(InPlaceHooks.RETRY_SECONDS);
    assertThat(response.path("message").asText())
        .startsWith("Node worker-0 runs kubelet v1.33.0, v1.34.0 required: waiting for OpenShift");
  }

  @Test
  void updateSaysWhyWhenTheNodeCannotBeRead() throws Exception {
    JsonNode response = JSON.readTree(hooks.updateMachine(updateRequest("w-2", "v1.34.0")));

    assertThat(response.path("retryAfterSeconds").asInt()).isEqualTo(InPlaceHooks.RETRY_SECONDS);
    assertThat(response.path("message").asText()).startsWith("no such Node; looking again");
  }

  @Test
  void servedOverHttpsAtCapisPaths(@TempDir Path certs) throws Exception {
    TestPki pki = TestPki.newCertificateAuthority("hooks-ca");
    TestPki.PemKeyPair serving = pki.pemServerCertificateFor127001("hooks");
    Files.writeString(certs.resolve("tls.crt"), serving.certificate());
    Files.writeString(certs.resolve("tls.key"), serving.privateKey());
    nodes.put("ns/w-1@c", Kubelets.Look.of("worker-0", "v1.34.0"));
    try (HookServer server =
        HookServer.start(
            new InetSocketAddress("127.0.0.1", 0), Optional.of(certs), hooks.routes())) {
      HttpClient client = HttpClient.newBuilder().sslContext(pki.clientContext()).build();
      String root = "https://127.0.0.1:" + server.port();

      HttpResponse<String> discovery =
          client.send(
              post(root + "/hooks.runtime.cluster.x-k8s.io/v1alpha1/discovery", "{}"),
              HttpResponse.BodyHandlers.ofString());
      HttpResponse<String> update =
          client.send(
              post(
                  root + "/hooks.runtime.cluster.x-k8s.io/v1alpha1/updatemachine/update-machine",
                  updateRequest("w-1", "v1.34.0")),
              HttpResponse.BodyHandlers.ofString());
      HttpResponse<String> unknown =
          client.send(post(root + "/nowhere", "{}"), HttpResponse.BodyHandlers.ofString());

      assertThat(discovery.statusCode()).isEqualTo(200);
      assertThat(JSON.readTree(discovery.body()).path("handlers")).hasSize(3);
      assertThat(update.statusCode()).isEqualTo(200);
      assertThat(JSON.readTree(update.body()).path("retryAfterSeconds").asInt()).isZero();
      assertThat(unknown.statusCode()).isEqualTo(404);
    }
  }

  private static HttpRequest post(String uri, String body) {
    return HttpRequest.newBuilder(URI.create(uri))
        .header("Content-Type", "application/json")
        .POST(HttpRequest.BodyPublishers.ofString(body))
        .build();
  }

  private static String updateRequest(String machine, String version) {
    return """
        {"apiVersion":"hooks.runtime.cluster.x-k8s.io/v1alpha1","kind":"UpdateMachineRequest",
         "desired":{"machine":{"metadata":{"name":"%s","namespace":"ns"},
           "spec":{"clusterName":"c","version":"%s"}},"infrastructureMachine":{}}}
        """
        .formatted(machine, version);
  }

  private static String patch(JsonNode patch) {
    return new String(
        Base64.getDecoder().decode(patch.path("patch").asText()), StandardCharsets.UTF_8);
  }
}
