package io.openshiftagent.provider.reconcile;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.Secret;
import io.fabric8.kubernetes.api.model.SecretBuilder;
import io.fabric8.kubernetes.client.informers.cache.ItemStore;
import io.fabric8.kubernetes.client.utils.Serialization;
import io.openshiftagent.api.external.assisted.Agent;
import io.openshiftagent.api.external.metal3.BareMetalHost;
import java.util.Map;
import org.junit.jupiter.api.Test;

class CachedObjectsTest {
  private static final String AGENT =
      """
      {"apiVersion":"agent-install.openshift.io/v1beta1","kind":"Agent",
       "metadata":{"name":"a","namespace":"n","resourceVersion":"7",
         "labels":{"infraenvs.agent-install.openshift.io":"i"},
         "managedFields":[{"manager":"assisted-service","operation":"Update",
           "fieldsType":"FieldsV1","fieldsV1":{"f:status":{"f:inventory":{}}}}]},
       "spec":{"approved":true,"role":"master","hostname":"h","futureField":{"x":1}},
       "status":{"inventory":{"hostname":"h","cpu":{"count":16}},
         "validationsInfo":{"hardware":[{"id":"has-inventory","status":"success"}]},
         "progress":{"currentStage":"Rebooting"},
         "debugInfo":{"state":"installing-in-progress"},
         "conditions":[{"type":"Installed","status":"False","reason":"r","message":"m",
           "lastTransitionTime":"2026-01-01T00:00:00Z"}]}}
      """;

  @Test
  void anAgentKeepsWhatIsReadAndLosesItsInventoryValidationsAndManagedFields() {
    Agent agent = CachedObjects.trim(Serialization.unmarshal(AGENT, Agent.class));

    assertThat(agent.getMetadata().getManagedFields()).isNull();
    assertThat(agent.getMetadata().getLabels()).containsKey("infraenvs.agent-install.openshift.io");
    assertThat(agent.getStatus().inventory).isNull();
    assertThat(agent.getStatus().unknownFields()).doesNotContainKey("validationsInfo");
    assertThat(agent.getStatus().progress.currentStage).isEqualTo("Rebooting");
    assertThat(agent.getStatus().debugInfo.state).isEqualTo("installing-in-progress");
    assertThat(agent.getStatus().conditions).hasSize(1);
    // The spec is kept whole, its unknown fields too (a decision may read one).
    assertThat(agent.getSpec().unknownFields()).containsKey("futureField");
    assertThat(agent.getSpec().hostname).isEqualTo("h");
  }

  @Test
  void aHostLosesItsHardwareDetails() {
    BareMetalHost host =
        CachedObjects.trim(
            Serialization.unmarshal(
                """
                {"apiVersion":"metal3.io/v1alpha1","kind":"BareMetalHost",
                 "metadata":{"name":"h","namespace":"n","uid":"u"},
                 "status":{"operationalStatus":"OK","hardware":{"cpu":{"count":16}},
                   "provisioning":{"state":"provisioned"}}}
                """,
                BareMetalHost.class));

    assertThat(host.getStatus().unknownFields()).doesNotContainKey("hardware");
    assertThat(host.getStatus().provisioning.state).isEqualTo("provisioned");
    assertThat(host.getStatus().operationalStatus).isEqualTo("OK");
  }

  @Test
  void theCopyKubectlApplyKeepsIsDroppedAndOtherAnnotationsStay() {
    BareMetalHost host =
        CachedObjects.trim(
            Serialization.unmarshal(
                """
                {"apiVersion":"metal3.io/v1alpha1","kind":"BareMetalHost",
                 "metadata":{"name":"h","namespace":"n","annotations":{
                   "kubectl.kubernetes.io/last-applied-configuration":"{\\"spec\\":{}}",
                   "baremetalhost.metal3.io/detached":"{}"}}}
                """,
                BareMetalHost.class));

    assertThat(host.getMetadata().getAnnotations())
        .containsOnlyKeys("baremetalhost.metal3.io/detached");
  }

  @Test
  void aStoreWithoutStatusKeepsTheMetadataAndSpecOnly() {
    ItemStore<Agent> store = CachedObjects.storeWithoutStatus();
    Agent agent = Serialization.unmarshal(AGENT, Agent.class);
    store.put(store.getKey(agent), agent);
    Agent stored = store.get(store.getKey(agent));

    assertThat(stored.getStatus()).isNull();
    assertThat(stored.getMetadata().getManagedFields()).isNull();
    assertThat(stored.getSpec().approved).isTrue();
  }

  @Test
  void aMetadataOnlySecretLosesItsData() {
    Secret secret =
        new SecretBuilder()
            .withNewMetadata()
            .withName("s")
            .withNamespace("n")
            .withLabels(Map.of("l", "v"))
            .endMetadata()
            .withData(Map.of("value", "aWduaXRpb24="))
            .build();

    ItemStore<Secret> store = CachedObjects.metadataOnlySecrets();
    store.put(store.getKey(secret), secret);
    Secret stored = store.get(store.getKey(secret));

    assertThat(stored.getData()).isNull();
    assertThat(stored.getMetadata().getLabels()).containsEntry("l", "v");
  }
}
