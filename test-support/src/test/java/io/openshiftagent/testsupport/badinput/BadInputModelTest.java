package io.openshiftagent.testsupport.badinput;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.StatusBuilder;
import io.fabric8.kubernetes.api.model.StatusCauseBuilder;
import io.fabric8.kubernetes.client.KubernetesClientException;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The variant model and the admission oracle, without an API server. */
class BadInputModelTest {
  private static final Change BAD_ARCH =
      Change.spec("cpuArchitecture", "sparc", Verdict.REJECTED, "\"sparc\"");

  @Test
  void aTemplateVariantPutsItsChangesUnderTheTemplateSpecAndAnnotationsOnWhatItMakes() {
    Change annotation =
        new Change(
            "spec.template.metadata.annotations",
            List.of(
                new Change.Edit(
                    true, List.of("spec", "template", "metadata", "annotations", "k"), "v")),
            Verdict.ACCEPTED,
            "k=v");
    GenericKubernetesResource object =
        new SpecVariant(Kind.CONFIG_TEMPLATE, List.of(BAD_ARCH, annotation)).toObject("ns", "n");

    assertThat(object.getKind()).isEqualTo("OpenshiftAssistedConfigTemplate");
    Map<String, Object> template = map(map(object.get("spec")).get("template"));
    assertThat(map(template.get("spec")))
        .containsEntry("cpuArchitecture", "sparc")
        .containsKey("pullSecretRef");
    assertThat(map(map(template.get("metadata")).get("annotations"))).containsEntry("k", "v");
  }

  @Test
  void aRemovedFieldIsGoneAndTheVerdictIsTheWorstOfTheChanges() {
    SpecVariant variant =
        new SpecVariant(
            Kind.CONTROL_PLANE,
            List.of(
                Change.spec("replicas", Change.REMOVE, Verdict.ACCEPTED, "removed"),
                Change.spec("config.baseDomain", "Bad_Domain", Verdict.REJECTED, "bad")));
    assertThat(map(variant.toObject("ns", "n").get("spec"))).doesNotContainKey("replicas");
    assertThat(variant.verdict()).isEqualTo(Verdict.REJECTED);
    assertThat(variant.namesOf(variant.refusable().get(0)))
        .containsExactly("spec.config.baseDomain", "spec.config.baseDomain");
  }

  @Test
  void bootstrapTextOverTheSharedBudgetIsRefusedThoughEachChangeIsWithinItsBound() {
    SpecVariant variant =
        new SpecVariant(
            Kind.CONTROL_PLANE,
            List.of(
                Change.spec(
                    "openshiftAssistedConfigSpec.additionalTrustBundle",
                    "A".repeat(600_000),
                    Verdict.ACCEPTED,
                    "big"),
                Change.spec(
                    "openshiftAssistedConfigSpec.preBootstrapCommands",
                    Collections.nCopies(30, "b".repeat(16384)),
                    Verdict.ACCEPTED,
                    "many")));
    assertThat(variant.verdict()).isEqualTo(Verdict.REJECTED);
  }

  @Test
  void aRefusalMustBe422AndNameTheField() {
    SpecVariant variant = new SpecVariant(Kind.CONFIG, List.of(BAD_ARCH));
    assertThatCode(
            () ->
                Admission.checkRefusal(
                    variant,
                    refusal(422, "spec.cpuArchitecture: Invalid value: \"sparc\": must be one of")))
        .doesNotThrowAnyException();
    assertThatThrownBy(
            () -> Admission.checkRefusal(variant, refusal(422, "spec.bootMode: Unsupported value")))
        .isInstanceOf(AssertionError.class)
        .hasMessageContaining("without naming the field");
    assertThatThrownBy(
            () -> Admission.checkRefusal(variant, refusal(500, "spec.cpuArchitecture: oops")))
        .hasMessageContaining("instead of 422");
    SpecVariant valid =
        new SpecVariant(
            Kind.CONFIG, List.of(Change.spec("cpuArchitecture", "s390x", Verdict.ACCEPTED, "ok")));
    assertThatThrownBy(() -> Admission.checkRefusal(valid, refusal(422, "spec.cpuArchitecture")))
        .hasMessageContaining("must have been admitted");
  }

  @Test
  void aRuleOnAnEmbeddedObjectNamesTheFieldThroughItsCause() {
    SpecVariant variant =
        new SpecVariant(
            Kind.CONTROL_PLANE,
            List.of(
                Change.spec(
                    "openshiftAssistedConfigSpec.additionalTrustBundle",
                    "x",
                    Verdict.REJECTED,
                    "x")));
    KubernetesClientException e =
        new KubernetesClientException(
            new StatusBuilder()
                .withCode(422)
                .withMessage("OpenshiftAssistedControlPlane \"cp\" is invalid")
                .withNewDetails()
                .withCauses(
                    new StatusCauseBuilder()
                        .withField("spec.openshiftAssistedConfigSpec")
                        .withMessage("additionalTrustBundle, preBootstrapCommands ... together")
                        .build())
                .endDetails()
                .build());
    assertThatCode(() -> Admission.checkRefusal(variant, e)).doesNotThrowAnyException();
  }

  @Test
  void aTemplateOverTheSharedBudgetIsNamedThroughTheCauseOnItsEmbeddedConfig() {
    // Each change within its own bound; together over the budget, which no one edit is to blame
    // for.
    SpecVariant variant =
        new SpecVariant(
            Kind.CONTROL_PLANE_TEMPLATE,
            List.of(
                Change.spec(
                    "openshiftAssistedConfigSpec.postBootstrapCommands",
                    List.of("echo"),
                    Verdict.ACCEPTED,
                    "one"),
                Change.spec(
                    "openshiftAssistedConfigSpec.additionalTrustBundle",
                    "A".repeat(1048576),
                    Verdict.ACCEPTED,
                    "full")));
    KubernetesClientException e =
        new KubernetesClientException(
            new StatusBuilder()
                .withCode(422)
                .withMessage("OpenshiftAssistedControlPlaneTemplate \"t\" is invalid")
                .withNewDetails()
                .withCauses(
                    new StatusCauseBuilder()
                        .withField("spec.template.spec.openshiftAssistedConfigSpec")
                        .withMessage("additionalTrustBundle, preBootstrapCommands ... together")
                        .build())
                .endDetails()
                .build());
    assertThat(variant.verdict()).isEqualTo(Verdict.REJECTED);
    assertThatCode(() -> Admission.checkRefusal(variant, e)).doesNotThrowAnyException();
  }

  @Test
  void theStoredSizeCountsWhatTheApiServerEscapes() {
    GenericKubernetesResource plain =
        new SpecVariant(
                Kind.CONFIG,
                List.of(Change.spec("sshAuthorizedKey", "a".repeat(1000), Verdict.ACCEPTED, "a")))
            .toObject("ns", "n");
    GenericKubernetesResource escaped =
        new SpecVariant(
                Kind.CONFIG,
                List.of(Change.spec("sshAuthorizedKey", "<".repeat(1000), Verdict.ACCEPTED, "<")))
            .toObject("ns", "n");
    assertThat(StoredSize.estimate(escaped) - StoredSize.estimate(plain)).isEqualTo(5000);
  }

  @SuppressWarnings("unchecked")
  private static Map<String, Object> map(Object o) {
    return (Map<String, Object>) o;
  }

  private static KubernetesClientException refusal(int code, String message) {
    return new KubernetesClientException(
        new StatusBuilder().withCode(code).withMessage(message).build());
  }
}
