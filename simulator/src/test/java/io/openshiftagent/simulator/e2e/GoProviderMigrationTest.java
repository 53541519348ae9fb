package io.openshiftagent.simulator.e2e;

import static io.openshiftagent.simulator.Fields.annotation;
import static io.openshiftagent.simulator.Fields.conditionStatus;
import static io.openshiftagent.simulator.Fields.conditionTrue;
import static io.openshiftagent.simulator.Fields.conditions;
import static io.openshiftagent.simulator.Fields.label;
import static io.openshiftagent.simulator.Fields.string;
import static io.openshiftagent.simulator.e2e.ClusterScenario.isFree;
import static io.openshiftagent.simulator.e2e.ClusterScenario.name;
import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.openshiftagent.controlplane.cluster.ClusterImageSets;
import io.openshiftagent.provider.contract.GoProvider;
import io.openshiftagent.simulator.ApiVersions;
import io.openshiftagent.testsupport.ReleaseRegistry;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.parallel.ResourceAccessMode;
import org.junit.jupiter.api.parallel.ResourceLock;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A cluster in the state the Go provider leaves an installed one, handed to our providers as
 * docs/from-the-go-provider.md says ("Switching a fleet the Go provider installed"), without
 * reinstalling anything; then used: a worker added, OpenShift upgraded, the cluster deleted.
 *
 * <p>CI has no checkout of the Go provider, so the cluster is installed by our providers (one
 * control-plane host, single-node, DiskImage as the Go provider boots, with a MachineDeployment of
 * no workers yet), paused (step 1 of the procedure), and rewritten by {@link
 * CapturedGoProviderState} into the state the real Go pair left its single-node cluster in, as
 * {@link GoProviderSingleNodeTest} captured it (its finalizers, labels, annotations, owner
 * references, control-plane and config status, its ClusterImageSet named after the control plane).
 * The AgentClusterInstall names that ClusterImageSet from its creation ({@link
 * GoProviderClusterInstall}, made while the Cluster is paused before the installation), as the Go
 * provider makes it: assisted-service's admission webhook refuses a later change of the name. Our
 * providers keep running meanwhile, as after step 4 of the procedure. Then the Cluster is unpaused
 * (step 5) and the checks of step 6 hold: {@code TakenOver} Events, no {@code /deprovision}
 * finalizer, {@code MachinesUpToDate}, the control plane {@code Available}; and nothing was made
 * again: every object of the namespace keeps its UID, no ClusterImageSet of ours appears, no host
 * is provisioned again (its provisioning state, image and power unchanged).
 *
 * <p>The control plane is named after its namespace, so that the Go provider's cluster-scoped
 * ClusterImageSet, named after the control plane alone, is told apart from the other classes'
 * objects by {@link ClusterScenario#clusterScopedObjectsButOtherNamespaces}.
 */
@ResourceLock(value = E2eWorld.WORLD, mode = ResourceAccessMode.READ)
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class GoProviderMigrationTest {
  private static final Logger LOG = LoggerFactory.getLogger(GoProviderMigrationTest.class);

  @RegisterExtension static final E2eWorld world = new E2eWorld();

  private static final String WORKERS = "test-multinode-worker";

  /** Our etcd hook on each control-plane Machine, which the Go provider does not hold. */
  private static final String PRE_TERMINATE_HOOK =
      "pre-terminate.delete.hook.machine.cluster.x-k8s.io/openshift-agent-etcd";

  private static ClusterScenario cluster;
  private static String controlPlane;
  private static CapturedGoProviderState goState;

  /** The cluster-scoped objects before the cluster was applied. */
  private static Set<String> clusterScopedBefore;

  /** The finalizers our providers had put on the control plane and configs before the switch. */
  private static Map<String, List<String>> ourFinalizers;

  /** Every object of the namespace in the Go provider's state ({@code apiVersion kind name}). */
  private static Map<String, String> uidsBeforeTheSwitch;

  private static String goImageSetUid;

  /** Each host's provisioning, in the Go provider's state ({@link #hosts}). */
  private static Map<String, String> hostsBeforeTheSwitch;

  @BeforeAll
  static void installCluster() {
    cluster = world.scenario("e2e-migration", "test-multinode");
    controlPlane = cluster.namespace();
    // One control-plane host, one for the worker added after the switch.
    cluster.enrolHosts(2);
    clusterScopedBefore = cluster.clusterScopedObjectsButOtherNamespaces();
    cluster.apply(
        "/e2e/ha.yaml",
        Map.of("BOOT_MODE", "DiskImage", "WORKERS", "0"),
        GoProviderMigrationTest::asASingleNodeClusterNamedAfterItsNamespace);
    // The one object of the Go provider's state that cannot be rewritten once made: the hub's
    // assisted-service admission refuses a changed imageSetRef.
    GoProviderClusterInstall.create(cluster, controlPlane);
    setPaused(false);
    cluster.awaitInstalled(1);
  }

  @Test
  @Order(1)
  void takesOverTheGoProvidersClusterWithoutMakingAnythingAgain() {
    long started = System.nanoTime();
    setPaused(true);
    try {
      cluster.await(
          "Paused on the control plane and every config",
          () ->
              conditionTrue(cluster.controlPlane(), "Paused")
                  && configs().stream().allMatch(c -> conditionTrue(c, "Paused")));
      ourFinalizers = finalizersOfControlPlaneAndConfigs();
      goState = new CapturedGoProviderState(cluster);
      long writing = System.nanoTime();
      List<String> written = goState.write();
      LOG.info(
          "the Go provider's captured state written over {} in {} ms",
          written,
          Duration.ofNanos(System.nanoTime() - writing).toMillis());
      hostsBeforeTheSwitch = cluster.provisionedHosts();
      assertThat(cluster.clusterImageSet(goState.ourClusterImageSet())).isNull();
      uidsBeforeTheSwitch = cluster.uids();
      goImageSetUid = goClusterImageSet().getMetadata().getUid();
      // The Go provider's marks are there (our providers, running, add their finalizer beside its
      // while paused, as they would once installed in step 4).
      assertThat(finalizersOfControlPlaneAndConfigs())
          .allSatisfy(
              (object, finalizers) ->
                  assertThat(finalizers)
                      .containsAnyOf(
                          GoProvider.CONTROL_PLANE_FINALIZER, GoProvider.CONFIG_FINALIZER));
      assertThat(conditions(cluster.controlPlane()))
          .extracting(c -> c.get("type"))
          .contains("KubernetesVersionAvailable", "MachinesCreated", "Ready");
    } finally {
      setPaused(false); // step 5 (and, should the above fail, no cluster left paused to delete)
    }
    cluster.await(
        "the control plane and every config taken over: our finalizers, none of the Go provider's",
        () -> finalizersOfControlPlaneAndConfigs().equals(ourFinalizers));
    cluster.await(
        "the control plane Available and MachinesUpToDate, without the Go provider's conditions",
        cluster::controlPlaneTakenOverFromTheGoProvider);
    cluster.awaitInstalled(1);
    assertThat(cluster.takenOver()).containsOnlyKeys(ourFinalizers.keySet());
    assertThat(string(cluster.controlPlane(), "status", "upToDateReplicas")).isEqualTo("1");
    assertThat(cluster.machines())
        .allMatch(m -> "True".equals(conditionStatus(m, "UpToDate")), "every Machine UpToDate");

    // Nothing made again: every object has its UID; the ClusterImageSet is the Go provider's,
    // now ours (labelled with the namespace), and ours was not made.
    assertThat(cluster.uids()).containsAllEntriesOf(uidsBeforeTheSwitch);
    assertThat(newObjects()).isEmpty();
    assertThat(cluster.provisionedHosts())
        .as("the hosts, not provisioned again")
        .isEqualTo(hostsBeforeTheSwitch);
    GenericKubernetesResource imageSet = goClusterImageSet();
    assertThat(imageSet.getMetadata().getUid()).isEqualTo(goImageSetUid);
    assertThat(label(imageSet, ClusterImageSets.NAMESPACE_LABEL)).isEqualTo(cluster.namespace());
    // Our pre-terminate hook is on the Go provider's Machines: removing one waits for etcd.
    assertThat(cluster.controlPlaneMachines())
        .allMatch(m -> annotation(m, PRE_TERMINATE_HOOK) != null, "held by our hook");
    assertThat(
            string(
                cluster.get(ApiVersions.HIVE_EXTENSION, "AgentClusterInstall", controlPlane),
                "spec",
                "imageSetRef",
                "name"))
        .isEqualTo(goState.clusterImageSet());
    assertThat(cluster.clusterImageSet(goState.ourClusterImageSet())).isNull();
    LOG.info(
        "switch from the Go provider: taken over in {} s",
        Duration.ofNanos(System.nanoTime() - started).toSeconds());
  }

  @Test
  @Order(2)
  void addsAWorkerAfterTheSwitch() {
    cluster.setSpec(ApiVersions.CAPI, "MachineDeployment", WORKERS, "replicas", 1);

    cluster.awaitInstalled(2);
    assertThat(cluster.workerMachines()).hasSize(1);
    assertThat(cluster.installerState()).isEqualTo("adding-hosts");
    assertThat(cluster.nodesWithRole("worker")).hasSize(1);
    cluster.assertNodesAsTheGoProviderNamesThem();
    assertThat(cluster.uids()).containsAllEntriesOf(uidsBeforeTheSwitch);
  }

  @Test
  @Order(3)
  void upgradesOpenShiftThroughTheGoProvidersClusterImageSet() {
    cluster.upgradeTo("4.21.0");
    // The release went into the Go provider's set, by digest; no set of ours was made.
    assertThat(string(goClusterImageSet(), "spec", "releaseImage"))
        .isEqualTo(ReleaseRegistry.shared().release("4.21.0", "x86_64").image());
    assertThat(goClusterImageSet().getMetadata().getUid()).isEqualTo(goImageSetUid);
    assertThat(cluster.clusterImageSet(goState.ourClusterImageSet())).isNull();
    cluster.awaitInstalled(2);
    // Upgraded in place: the Machines and hosts of before the switch are still there.
    assertThat(cluster.uids()).containsAllEntriesOf(uidsBeforeTheSwitch);
  }

  @Test
  @Order(4)
  void deletingTheClusterLeavesNothingBehindNotEvenTheGoProvidersClusterImageSet() {
    cluster.deleteCluster();

    cluster.await(
        "the namespace to hold only what the user created and the Cluster did not own",
        () -> cluster.everythingInTheNamespace().equals(cluster.whatDeletingTheClusterMustLeave()));
    assertThat(goClusterImageSet()).isNull();
    assertThat(cluster.clusterScopedObjectsButOtherNamespaces()).isEqualTo(clusterScopedBefore);
    for (GenericKubernetesResource host : cluster.list(ApiVersions.METAL3, "BareMetalHost")) {
      assertThat(isFree(host)).as("host " + name(host) + " released").isTrue();
    }
  }

  // ---- the manifest ----

  /**
   * {@code ha.yaml} as a single-node cluster: one control-plane replica, no VIPs (platform None);
   * the control plane named after the namespace; the Cluster paused.
   */
  @SuppressWarnings("unchecked")
  private static void asASingleNodeClusterNamedAfterItsNamespace(HasMetadata object) {
    if (!(object instanceof GenericKubernetesResource resource)) {
      return;
    }
    Map<String, Object> spec = (Map<String, Object>) resource.getAdditionalProperties().get("spec");
    if ("OpenshiftAssistedControlPlane".equals(object.getKind())) {
      resource.getMetadata().setName(controlPlane);
      spec.put("replicas", 1);
      Map<String, Object> config = new HashMap<>((Map<String, Object>) spec.get("config"));
      config.remove("apiVIPs");
      config.remove("ingressVIPs");
      spec.put("config", config);
    } else if ("Cluster".equals(object.getKind())) {
      Map<String, Object> ref = new HashMap<>((Map<String, Object>) spec.get("controlPlaneRef"));
      ref.put("name", controlPlane);
      spec.put("controlPlaneRef", ref);
      spec.put("paused", true); // until the Go provider's AgentClusterInstall is made
    }
  }

  // ---- steps and reading ----

  private static void setPaused(boolean paused) {
    cluster.setSpec(ApiVersions.CAPI, "Cluster", cluster.clusterName(), "paused", paused);
  }

  private static List<GenericKubernetesResource> configs() {
    return cluster.list(ApiVersions.BOOTSTRAP, "OpenshiftAssistedConfig");
  }

  /** {@code kind name} → finalizers, of the control plane and each config. */
  private static Map<String, List<String>> finalizersOfControlPlaneAndConfigs() {
    Map<String, List<String>> finalizers = new TreeMap<>();
    for (GenericKubernetesResource object : cluster.controlPlaneAndConfigs()) {
      finalizers.put(
          object.getKind() + " " + name(object),
          List.copyOf(
              object.getMetadata().getFinalizers() == null
                  ? List.of()
                  : object.getMetadata().getFinalizers()));
    }
    return finalizers;
  }

  private static Set<String> newObjects() {
    Set<String> created = new TreeSet<>(cluster.uids().keySet());
    created.removeAll(uidsBeforeTheSwitch.keySet());
    return created;
  }

  private static GenericKubernetesResource goClusterImageSet() {
    return cluster.clusterImageSet(goState.clusterImageSet());
  }
}
