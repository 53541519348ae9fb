package io.openshiftagent.api.external;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.utils.Serialization;
import io.openshiftagent.api.external.assisted.Agent;
import io.openshiftagent.testsupport.KubeApiServerEnvironment;
import io.openshiftagent.testsupport.WithKubeApiServer;
import java.io.IOException;
import java.io.InputStream;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * On the real API server with assisted-service's Agent CRD: the way our code writes to an Agent (a
 * patch of the fields we own, or an update of a model read from the server) keeps every field
 * assisted-service set that we do not model.
 */
@WithKubeApiServer
class AgentPatchPreservesUnknownFieldsTest {
  private static final ObjectMapper JSON = new ObjectMapper();
  private KubernetesClient client;
  private String ns;
  private GenericKubernetesResource original;

  @BeforeEach
  void createAgentAsAssistedServiceWould(KubeApiServerEnvironment env) throws IOException {
    client = env.client();
    ns = env.createNamespace("agent-patch");
    GenericKubernetesResource agent;
    try (InputStream in = getClass().getResourceAsStream("/server/agent.json")) {
      agent = Serialization.unmarshal(in, GenericKubernetesResource.class);
    }
    Object status = agent.getAdditionalProperties().get("status");
    GenericKubernetesResource created = client.resource(agent).inNamespace(ns).create();
    created.setAdditionalProperty("status", status);
    original = client.resource(created).inNamespace(ns).updateStatus();
  }

  @Test
  void patchOfRoleApprovalAndLabelsChangesOnlyThoseFields() {
    Agent typed = readAgent();

    new OwnedFieldsPatch()
        .set("master", "spec", "role")
        .set(true, "spec", "approved")
        .set("uuid-of-host-0", "spec", "nodeLabels", "metal3.io/uuid")
        .applyTo(client, typed);

    GenericKubernetesResource after = client.resource(original).inNamespace(ns).get();
    ObjectNode expected = withoutServerMetadata(original);
    ((ObjectNode) expected.path("spec")).put("role", "master").put("approved", true);
    ((ObjectNode) expected.path("spec").path("nodeLabels")).put("metal3.io/uuid", "uuid-of-host-0");
    assertThat(withoutServerMetadata(after)).isEqualTo(expected);
  }

  @Test
  void updateOfAModelReadFromTheServerKeepsEveryUnmodelledField() {
    Agent typed = readAgent();
    typed.getSpec().hostname = "master-0";

    client.resource(typed).update();

    GenericKubernetesResource after = client.resource(original).inNamespace(ns).get();
    ObjectNode expected = withoutServerMetadata(original);
    ((ObjectNode) expected.path("spec")).put("hostname", "master-0");
    assertThat(withoutServerMetadata(after)).isEqualTo(expected);
  }

  @Test
  void patchRequiringAResourceVersionFailsWhenTheAgentChangedMeanwhile() {
    String seen = original.getMetadata().getResourceVersion();
    client
        .resource(original)
        .inNamespace(ns)
        .edit(
            a -> {
              a.getMetadata().setLabels(Map.of("other-writer", "was-here"));
              return a;
            });

    Agent typed = readAgent();
    OwnedFieldsPatch approve =
        new OwnedFieldsPatch().set(true, "spec", "approved").requireResourceVersion(seen);
    assertThatThrownBy(() -> approve.applyTo(client, typed))
        .isInstanceOf(KubernetesClientException.class)
        .satisfies(e -> assertThat(((KubernetesClientException) e).getCode()).isEqualTo(409));
  }

  private Agent readAgent() {
    return client
        .resources(Agent.class)
        .inNamespace(ns)
        .withName(original.getMetadata().getName())
        .get();
  }

  private static ObjectNode withoutServerMetadata(GenericKubernetesResource resource) {
    ObjectNode node = JSON.valueToTree(resource);
    JsonNode metadata = node.path("metadata");
    ((ObjectNode) metadata)
        .remove(java.util.List.of("resourceVersion", "managedFields", "generation"));
    return node;
  }
}
