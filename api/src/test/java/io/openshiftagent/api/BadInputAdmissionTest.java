package io.openshiftagent.api;

import io.fabric8.kubernetes.client.KubernetesClient;
import io.openshiftagent.testsupport.KubeApiServerEnvironment;
import io.openshiftagent.testsupport.badinput.Admission;
import io.openshiftagent.testsupport.badinput.Kind;
import io.openshiftagent.testsupport.badinput.SpecVariant;
import io.openshiftagent.testsupport.badinput.SpecVariants;
import io.openshiftagent.testsupport.badinput.Tally;
import java.util.EnumMap;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.lifecycle.AfterContainer;
import net.jqwik.api.lifecycle.BeforeContainer;

/**
 * Generated variants of our four kinds (valid, boundary and invalid values; unicode, huge strings,
 * bad IPs, CIDRs, versions, replicas and references; see SpecVariants) submitted to the real API
 * server: each is admitted when its values are valid, and refused with 422 and a message naming the
 * field when one is not. The provider modules reconcile what is admitted.
 */
class BadInputAdmissionTest {
  private static final AtomicInteger NAMES = new AtomicInteger();
  private static final Map<Kind, Tally> TALLIES = new EnumMap<>(Kind.class);
  private static KubernetesClient client;
  private static String namespace;

  @BeforeContainer
  static void connect() {
    KubeApiServerEnvironment env = KubeApiServerEnvironment.shared();
    client = Admission.client(env.kubeConfigYaml());
    namespace = env.createNamespace("bad-input");
    for (Kind kind : Kind.values()) {
      TALLIES.put(kind, new Tally(kind.kind + ", admission"));
    }
  }

  @AfterContainer
  static void summarize() {
    client.close();
    TALLIES.values().stream().filter(t -> t.tried() > 0).forEach(Tally::summary);
  }

  @Property(tries = 150)
  void configs(@ForAll("configVariants") SpecVariant variant) {
    submit(variant);
  }

  @Property(tries = 80)
  void configTemplates(@ForAll("configTemplateVariants") SpecVariant variant) {
    submit(variant);
  }

  @Property(tries = 150)
  void controlPlanes(@ForAll("controlPlaneVariants") SpecVariant variant) {
    submit(variant);
  }

  @Property(tries = 80)
  void controlPlaneTemplates(@ForAll("controlPlaneTemplateVariants") SpecVariant variant) {
    submit(variant);
  }

  @Provide
  Arbitrary<SpecVariant> configVariants() {
    return SpecVariants.of(Kind.CONFIG);
  }

  @Provide
  Arbitrary<SpecVariant> configTemplateVariants() {
    return SpecVariants.of(Kind.CONFIG_TEMPLATE);
  }

  @Provide
  Arbitrary<SpecVariant> controlPlaneVariants() {
    return SpecVariants.of(Kind.CONTROL_PLANE);
  }

  @Provide
  Arbitrary<SpecVariant> controlPlaneTemplateVariants() {
    return SpecVariants.of(Kind.CONTROL_PLANE_TEMPLATE);
  }

  private static void submit(SpecVariant variant) {
    boolean admitted =
        Admission.submit(
                client,
                namespace,
                "v-" + NAMES.incrementAndGet(),
                variant,
                TALLIES.get(variant.kind()))
            .isPresent();
    if (admitted) {
      TALLIES.get(variant.kind()).admitted(null);
    }
  }
}
