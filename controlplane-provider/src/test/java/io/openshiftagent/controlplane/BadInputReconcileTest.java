package io.openshiftagent.controlplane;

import io.fabric8.kubernetes.api.model.Condition;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.javaoperatorsdk.operator.Operator;
import io.openshiftagent.api.common.Conditions;
import io.openshiftagent.api.controlplane.v1alpha3.OpenshiftAssistedControlPlane;
import io.openshiftagent.controlplane.names.ControlPlaneConditions;
import io.openshiftagent.controlplane.release.HubRegistries;
import io.openshiftagent.controlplane.release.ReleaseImage;
import io.openshiftagent.provider.runtime.ControllerScope;
import io.openshiftagent.provider.runtime.ProviderOperator;
import io.openshiftagent.provider.testing.TestWorld;
import io.openshiftagent.testsupport.CrdInstaller;
import io.openshiftagent.testsupport.KubeApiServerEnvironment;
import io.openshiftagent.testsupport.ReconcileFailures;
import io.openshiftagent.testsupport.badinput.Admission;
import io.openshiftagent.testsupport.badinput.Kind;
import io.openshiftagent.testsupport.badinput.SpecVariant;
import io.openshiftagent.testsupport.badinput.SpecVariants;
import io.openshiftagent.testsupport.badinput.Tally;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.lifecycle.AfterContainer;
import net.jqwik.api.lifecycle.BeforeContainer;

/**
 * Generated OpenshiftAssistedControlPlane variants (SpecVariants) on the real API server, with the
 * control-plane provider running: each is refused at admission naming the field, or admitted and
 * reconciled, each in a namespace with its Cluster and infrastructure template, until Available has
 * a reason for the current generation and Machine creation has finished or says why it cannot go
 * on, with no reconcile ever throwing and the event sources healthy.
 */
class BadInputReconcileTest {
  /** Reasons that say why Machines cannot be made; anything else but scaling up has settled. */
  private static final Set<String> SCALING_BLOCKED =
      Set.of(
          ControlPlaneConditions.MACHINE_CREATION_FAILED,
          ControlPlaneConditions.INFRASTRUCTURE_TEMPLATE_UNAVAILABLE);

  private static final ReconcileFailures FAILURES = new ReconcileFailures();
  private static final Tally TALLY =
      new Tally("OpenshiftAssistedControlPlane, control-plane provider");
  private static KubeApiServerEnvironment env;
  private static KubernetesClient submitter;
  private static Operator operator;

  @BeforeContainer
  static void startOperator() {
    env = KubeApiServerEnvironment.shared();
    CrdInstaller.labelMetal3MachineContracts(env.client());
    BootstrapFinalizerStandIn.ensureRunning(env);
    submitter = Admission.client(env.kubeConfigYaml());
    operator = ProviderOperator.create(env.newClient(), o -> o.withMetrics(FAILURES));
    ControlPlaneProvider.register(
        operator,
        Duration.ofMinutes(1),
        HubRegistries.fromEnvironment(Fixtures.providerEnvironment()),
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

  @Property(tries = 60)
  void admittedControlPlanesEndInConditions(@ForAll("controlPlaneVariants") SpecVariant variant) {
    TestWorld cluster = new TestWorld(env.client(), env.createNamespace("bad-cp"), "capi");
    cluster.createPullSecret(Fixtures.PULL_SECRET, Fixtures.releases().dockerConfigJson());
    cluster.metal3.createTemplate(Kind.INFRASTRUCTURE_TEMPLATE, "metadata");
    cluster.capi.createCluster("cp", false, true, true);
    Optional<GenericKubernetesResource> admitted =
        Admission.submit(
            submitter,
            variant,
            variant.toObject(cluster.ns, "cp"),
            cp -> {
              cp.getMetadata().setOwnerReferences(cluster.capi.clusterOwner());
              // Release images from the tests' registry, unless the variant names a repository.
              Map<String, String> annotations =
                  cp.getMetadata().getAnnotations() == null
                      ? new HashMap<>()
                      : new HashMap<>(cp.getMetadata().getAnnotations());
              annotations.putIfAbsent(
                  ReleaseImage.REPOSITORY_OVERRIDE_ANNOTATION, Fixtures.releases().ocpRepository());
              cp.getMetadata().setAnnotations(annotations);
              return cp;
            },
            TALLY);
    if (admitted.isEmpty()) {
      return;
    }
    try {
      TestWorld.await("settled conditions", () -> settled(cluster) != null);
    } catch (AssertionError e) {
      throw new AssertionError(
          e.getMessage()
              + " for "
              + variant
              + "\n"
              + FAILURES.describe()
              + "\n"
              + conditions(cluster),
          e);
    }
    if (!FAILURES.of("OpenshiftAssistedControlPlane", cluster.ns, "cp").isEmpty()) {
      throw new AssertionError("a reconcile threw for " + variant + "\n" + FAILURES.describe());
    }
    if (!operator.getRuntimeInfo().allEventSourcesAreHealthy()) {
      throw new AssertionError(
          "unhealthy event sources after "
              + variant
              + ": "
              + operator.getRuntimeInfo().unhealthyEventSources().keySet());
    }
    TALLY.admitted(settled(cluster));
  }

  @Provide
  Arbitrary<SpecVariant> controlPlaneVariants() {
    return SpecVariants.forReconciling(Kind.CONTROL_PLANE);
  }

  /**
   * Where the control plane settled, once it has: the reason the cluster cannot be configured or
   * Machines cannot be made, else Available's reason; null while it has not settled.
   */
  private static String settled(TestWorld cluster) {
    OpenshiftAssistedControlPlane cp = cluster.controlPlane("cp");
    if (cp == null
        || cp.getStatus() == null
        || !cp.getMetadata().getGeneration().equals(cp.getStatus().observedGeneration)) {
      return null;
    }
    List<Condition> conditions = cp.getStatus().conditions;
    Optional<Condition> available = Conditions.find(conditions, ControlPlaneConditions.AVAILABLE);
    Optional<Condition> scaling = Conditions.find(conditions, ControlPlaneConditions.SCALING_UP);
    if (available.isEmpty() || scaling.isEmpty() || blank(available.get().getReason())) {
      return null;
    }
    String scalingReason = scaling.get().getReason();
    if (SCALING_BLOCKED.contains(scalingReason)) {
      return scalingReason;
    }
    if (ControlPlaneConditions.SCALING_UP.equals(scalingReason)) {
      return null;
    }
    return Conditions.find(conditions, ControlPlaneConditions.CLUSTER_INSTALL_CONFIGURED)
        .filter(c -> Conditions.FALSE.equals(c.getStatus()))
        .map(Condition::getReason)
        .orElse(available.get().getReason());
  }

  private static String conditions(TestWorld cluster) {
    OpenshiftAssistedControlPlane cp = cluster.controlPlane("cp");
    return cp == null || cp.getStatus() == null
        ? "no status"
        : String.valueOf(cp.getStatus().conditions);
  }

  private static boolean blank(String s) {
    return s == null || s.isBlank();
  }
}
