package io.openshiftagent.controlplane.machines;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.openshiftagent.api.bootstrap.v1alpha2.OpenshiftAssistedConfig;
import io.openshiftagent.api.bootstrap.v1alpha2.OpenshiftAssistedConfigSpec;
import io.openshiftagent.api.common.ContractVersionedObjectReference;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class UpToDateTest {
  private static final ContractVersionedObjectReference TEMPLATE =
      new ContractVersionedObjectReference(
          "infrastructure.cluster.x-k8s.io", "Metal3MachineTemplate", "t1");

  @Test
  void theHashIsStableAndFollowsTheSpec() {
    OpenshiftAssistedConfigSpec a = new OpenshiftAssistedConfigSpec();
    a.additionalNTPSources = List.of("ntp1");
    OpenshiftAssistedConfigSpec b = new OpenshiftAssistedConfigSpec();
    b.additionalNTPSources = List.of("ntp1");
    assertThat(UpToDate.configHash(a)).isEqualTo(UpToDate.configHash(b));
    b.additionalNTPSources = List.of("ntp2");
    assertThat(UpToDate.configHash(a)).isNotEqualTo(UpToDate.configHash(b));
    assertThat(UpToDate.configHash(null))
        .isEqualTo(UpToDate.configHash(new OpenshiftAssistedConfigSpec()));
  }

  @Test
  void aMachineMadeFromTheCurrentSpecIsUpToDate() {
    assertThat(UpToDate.reasonNotUpToDate(config("h1"), infra("t1"), "h1", TEMPLATE)).isEmpty();
  }

  @Test
  void aDifferentConfigOrTemplateMakesItOutOfDate() {
    assertThat(UpToDate.reasonNotUpToDate(config("h0"), infra("t1"), "h1", TEMPLATE))
        .hasValueSatisfying(r -> assertThat(r).contains("OpenshiftAssistedConfig"));
    assertThat(UpToDate.reasonNotUpToDate(config("h1"), infra("t0"), "h1", TEMPLATE))
        .hasValueSatisfying(r -> assertThat(r).contains("cloned from").contains("t0"));
  }

  @Test
  void aConfigWithoutOurHashIsComparedByTheSpecItHas() {
    // Made by the Go provider: a copy of the control plane's spec, and no annotation of ours.
    OpenshiftAssistedConfigSpec spec = new OpenshiftAssistedConfigSpec();
    spec.sshAuthorizedKey = "ssh-ed25519 AAAA";
    OpenshiftAssistedConfig made = new OpenshiftAssistedConfig();
    made.setMetadata(new ObjectMetaBuilder().withName("m").build());
    made.setSpec(spec);

    assertThat(UpToDate.reasonNotUpToDate(made, infra("t1"), UpToDate.configHash(spec), TEMPLATE))
        .isEmpty();
    OpenshiftAssistedConfigSpec changed = new OpenshiftAssistedConfigSpec();
    changed.sshAuthorizedKey = "ssh-ed25519 BBBB";
    assertThat(
            UpToDate.reasonNotUpToDate(made, infra("t1"), UpToDate.configHash(changed), TEMPLATE))
        .isPresent();
  }

  private static GenericKubernetesResource config(String hash) {
    return object(Map.of(UpToDate.CONFIG_HASH_ANNOTATION, hash));
  }

  private static GenericKubernetesResource infra(String template) {
    return object(
        Map.of(
            UpToDate.CLONED_FROM_NAME,
            template,
            UpToDate.CLONED_FROM_GROUP_KIND,
            "Metal3MachineTemplate.infrastructure.cluster.x-k8s.io"));
  }

  private static GenericKubernetesResource object(Map<String, String> annotations) {
    GenericKubernetesResource r = new GenericKubernetesResource();
    r.setMetadata(new ObjectMetaBuilder().withName("m").withAnnotations(annotations).build());
    return r;
  }
}
