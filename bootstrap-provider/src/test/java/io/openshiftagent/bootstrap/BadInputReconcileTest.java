package io.openshiftagent.bootstrap;

import io.fabric8.kubernetes.api.model.Condition;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.javaoperatorsdk.operator.Operator;
import io.openshiftagent.api.bootstrap.v1alpha2.BootMode;
import io.openshiftagent.api.bootstrap.v1alpha2.OpenshiftAssistedConfig;
import io.openshiftagent.api.common.Conditions;
import io.openshiftagent.bootstrap.names.Reasons;
import io.openshiftagent.provider.reconcile.OwnerReferences;
import io.openshiftagent.provider.runtime.ControllerScope;
import io.openshiftagent.provider.runtime.ProviderOperator;
import io.openshiftagent.provider.testing.Metal3;
import io.openshiftagent.provider.testing.TestWorld;
import io.openshiftagent.testsupport.KubeApiServerEnvironment;
import io.openshiftagent.testsupport.ReconcileFailures;
import io.openshiftagent.testsupport.badinput.Admission;
import io.openshiftagent.testsupport.badinput.Kind;
import io.openshiftagent.testsupport.badinput.SpecVariant;
import io.openshiftagent.testsupport.badinput.SpecVariants;
import io.openshiftagent.testsupport.badinput.Tally;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Supplier;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.lifecycle.AfterContainer;
import net.jqwik.api.lifecycle.BeforeContainer;

/**
 * Generated OpenshiftAssistedConfig variants (SpecVariants; the template's spec is what Cluster API
 * copies into configs) on the real API server, with the bootstrap provider running: each variant is
 * refused at admission naming the field, or admitted and then reconciled, with the test playing
 * assisted-service, to a DataSecretAvailable condition with a reason, its Agent (when the data is
 * ready) given its role and approved, and no reconcile of either ever throwing.
 */
class BadInputReconcileTest {
  /** Reasons that wait for assisted-service, which this test plays. */
  private static final Set<String> WAITING_FOR_ASSISTED_SERVICE =
      Set.of(Reasons.WAITING_FOR_DISCOVERY_IMAGE, Reasons.WAITING_FOR_DISCOVERY_IGNITION);

  private static final AtomicInteger NAMES = new AtomicInteger();
  private static final ReconcileFailures FAILURES = new ReconcileFailures();
  private static final Tally TALLY = new Tally("OpenshiftAssistedConfig, bootstrap provider");
  private static TestWorld world;
  private static KubernetesClient submitter;
  private static Operator operator;

  @BeforeContainer
  static void startOperator() {
    KubeApiServerEnvironment env = KubeApiServerEnvironment.shared();
    world = Fixtures.readyWorld(env, "bad-input", "insufficient");
    submitter = Admission.client(env.kubeConfigYaml());
    KubernetesClient client = env.newClient();
    operator = ProviderOperator.create(client, o -> o.withMetrics(FAILURES));
    BootstrapProvider.register(
        operator,
        client,
        (namespace, discoveryIgnitionUrl, eventsUrl) -> BootstrapFlowTest.DISCOVERY_IGNITION,
        BootMode.LIVE_ISO,
        "test",
        ControllerScope.EVERYTHING);
    operator.start();
  }

  @AfterContainer
  static void stopOperator() {
    TALLY.summary();
    operator.stop();
    submitter.close();
  }

  @Property(tries = 100)
  void admittedConfigsEndInAConditionAndTheirAgentIsApproved(
      @ForAll("configVariants") SpecVariant variant, @ForAll boolean controlPlane) {
    String name = "v-" + NAMES.incrementAndGet();
    Metal3.MachineHost host = world.metal3.machineHost(name, controlPlane);
    Optional<GenericKubernetesResource> admitted =
        Admission.submit(
            submitter,
            variant,
            variant.toObject(world.ns, name),
            config -> {
              config.getMetadata().setLabels(host.labels());
              config
                  .getMetadata()
                  .setOwnerReferences(List.of(OwnerReferences.controller(host.machine())));
              return config;
            },
            TALLY);
    if (admitted.isEmpty()) {
      return;
    }
    Condition condition = awaitSettled(name, variant);
    if (Conditions.TRUE.equals(condition.getStatus())) {
      world.assisted.registerAgent(name, name + "-agent");
      awaitWithoutFailures(
          variant,
          "the Agent of " + name + " approved",
          () -> BootstrapFlowTest.approved(world.agent(name + "-agent")));
    }
    if (!FAILURES.of("OpenshiftAssistedConfig", world.ns, name).isEmpty()
        || !FAILURES.of("Agent", world.ns, name + "-agent").isEmpty()) {
      throw new AssertionError("a reconcile threw for " + variant + "\n" + FAILURES.describe());
    }
    if (!operator.getRuntimeInfo().allEventSourcesAreHealthy()) {
      throw new AssertionError(
          "unhealthy event sources after "
              + variant
              + ": "
              + operator.getRuntimeInfo().unhealthyEventSources().keySet());
    }
    TALLY.admitted(condition.getReason());
  }

  @Provide
  Arbitrary<SpecVariant> configVariants() {
    return SpecVariants.forReconciling(Kind.CONFIG);
  }

  /**
   * The DataSecretAvailable condition of the current generation once assisted-service (played here)
   * has published the discovery image and ignition: ready, or a reason why not.
   */
  private static Condition awaitSettled(String name, SpecVariant variant) {
    // A problem is reported at once; the provider's wait for assisted-service is a detail it may
    // report later, so the service (played here) answers the InfraEnv as soon as it exists.
    Object first =
        awaitWithoutFailures(
            variant,
            "a condition beyond the waits, or the InfraEnv, of " + name,
            () ->
                Optional.<Object>ofNullable(settledCondition(name))
                    .or(() -> Optional.ofNullable(world.infraEnv(name)))
                    .orElse(null));
    if (first instanceof Condition condition) {
      return condition;
    }
    world.assisted.publishIso(name, "https://images.example.com/" + name + ".iso");
    return awaitWithoutFailures(
        variant, "a condition beyond the waits on " + name, () -> settledCondition(name));
  }

  /** The condition, unless it is a wait for assisted-service's image. */
  private static Condition settledCondition(String name) {
    return Optional.ofNullable(condition(name))
        .filter(c -> !WAITING_FOR_ASSISTED_SERVICE.contains(c.getReason()))
        .orElse(null);
  }

  /** DataSecretAvailable with a reason, reported for the current generation; else null. */
  private static Condition condition(String name) {
    OpenshiftAssistedConfig config = world.config(name);
    if (config == null
        || config.getStatus() == null
        || !config.getMetadata().getGeneration().equals(config.getStatus().observedGeneration)) {
      return null;
    }
    return Conditions.find(config.getStatus().conditions, Reasons.DATA_SECRET_AVAILABLE)
        .filter(c -> c.getReason() != null && !c.getReason().isBlank())
        .orElse(null);
  }

  /** Waits (TestWorld.TIMEOUT); a timeout reports the variant and every failed reconcile. */
  private static <T> T awaitWithoutFailures(SpecVariant variant, String what, Supplier<T> value) {
    try {
      return TestWorld.await(what, value);
    } catch (AssertionError e) {
      throw new AssertionError(e.getMessage() + " for " + variant + "\n" + FAILURES.describe(), e);
    }
  }
}
