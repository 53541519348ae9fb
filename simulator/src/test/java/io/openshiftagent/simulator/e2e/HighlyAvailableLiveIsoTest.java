package io.openshiftagent.simulator.e2e;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.fail;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.openshiftagent.simulator.SimulatedDurations;
import io.openshiftagent.simulator.World;
import io.openshiftagent.testsupport.AuditLog;
import io.openshiftagent.testsupport.ProviderJar;
import java.io.InputStream;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.BooleanSupplier;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * End to end with the real Cluster API core controllers: an HA cluster (3 control-plane Machines, 2
 * workers from a MachineDeployment, LiveISO) applied as a user would, installed by our providers
 * with Metal3, the hosts, assisted-service and the installed cluster simulated.
 */
class HighlyAvailableLiveIsoTest {
  private static final Logger LOG = LoggerFactory.getLogger(HighlyAvailableLiveIsoTest.class);
  private static final Duration TIMEOUT = Duration.ofMinutes(3);
  private static final String CLUSTER = "test-multinode";
  private static final String CAPI = "cluster.x-k8s.io/v1beta2";
  private static final String CONTROL_PLANE = "controlplane.cluster.x-k8s.io/v1alpha3";

  private static World world;
  private static KubernetesClient hub;

  @BeforeAll
  static void startWorld() throws Exception {
    world = World.start(SimulatedDurations.nearZero(), Path.of("target", "world"));
    hub = world.hub();
  }

  @AfterAll
  static void stopWorld() {
    if (world != null) {
      world.close();
    }
  }

  @Test
  void installsAnHaClusterWhoseMachinesBecomeRunningNodes() throws Exception {
    String ns = world.hubEnvironment().createNamespace("e2e-ha");
    long started = System.nanoTime();
    apply(ns, "/e2e/ha-liveiso.yaml");

    await(
        ns,
        "the control plane Available, the Cluster's conditions as Cluster API computes them, "
            + "5 Machines Running with nodeRefs",
        () -> {
          GenericKubernetesResource cluster = get(ns, CAPI, "Cluster", CLUSTER);
          return conditionTrue(
                  get(ns, CONTROL_PLANE, "OpenshiftAssistedControlPlane", CLUSTER), "Available")
              && conditionTrue(cluster, "InfrastructureReady")
              && conditionTrue(cluster, "ControlPlaneInitialized")
              && conditionTrue(cluster, "ControlPlaneAvailable")
              && conditionTrue(cluster, "WorkersAvailable")
              && conditionTrue(cluster, "RemoteConnectionProbe")
              && conditionTrue(cluster, "Available")
              && runningWithNode(machines(ns)) == 5;
        });
    long millis = (System.nanoTime() - started) / 1_000_000;
    LOG.info("HA LiveISO cluster: applied to Available with 5 Running Machines in {} ms", millis);

    List<GenericKubernetesResource> machines = machines(ns);
    assertThat(machines.stream().filter(m -> label(m, "cluster.x-k8s.io/control-plane") != null))
        .hasSize(3);
    assertThat(
            machines.stream()
                .filter(m -> label(m, "cluster.x-k8s.io/deployment-name") != null)
                .map(m -> label(m, "cluster.x-k8s.io/deployment-name")))
        .containsExactly(CLUSTER + "-worker", CLUSTER + "-worker");
    for (GenericKubernetesResource machine : machines) {
      String providerId = string(machine, "spec", "providerID");
      String node = string(machine, "status", "nodeRef", "name");
      assertThat(providerId).startsWith("metal3://" + ns + "/host-");
      assertThat(world.workload(ns, CLUSTER).nodes().withName(node).get().getSpec().getProviderID())
          .isEqualTo(providerId);
    }
    assertThat(string(get(ns, CAPI, "Cluster", CLUSTER), "status", "phase"))
        .isEqualTo("Provisioned");
    // Our providers ran as their jars, each with its own user agent, as the hub's audit log says.
    Set<String> userAgents =
        AuditLog.read(world.hubAuditLog()).stream()
            .filter(r -> r.namespace().equals(ns))
            .map(AuditLog.Request::userAgent)
            .collect(Collectors.toSet());
    assertThat(userAgents)
        .anyMatch(agent -> agent.startsWith("openshift-agent-bootstrap/0."))
        .anyMatch(agent -> agent.startsWith("openshift-agent-controlplane/0."));
    // Only Cluster API's defaulting webhook sets these (the CRD has no defaults): it ran.
    GenericKubernetesResource deployment = get(ns, CAPI, "MachineDeployment", CLUSTER + "-worker");
    assertThat(string(deployment, "spec", "rollout", "strategy", "type"))
        .isEqualTo("RollingUpdate");
    assertThat(string(deployment, "spec", "rollout", "strategy", "rollingUpdate", "maxSurge"))
        .isEqualTo("1");
  }

  // ---- applying and reading ----

  private static void apply(String ns, String resource) throws Exception {
    try (InputStream in = HighlyAvailableLiveIsoTest.class.getResourceAsStream(resource)) {
      for (HasMetadata object : hub.load(in).items()) {
        object.getMetadata().setNamespace(ns);
        hub.resource(object).create();
      }
    }
  }

  private static GenericKubernetesResource get(
      String ns, String apiVersion, String kind, String name) {
    return hub.genericKubernetesResources(apiVersion, kind).inNamespace(ns).withName(name).get();
  }

  private static List<GenericKubernetesResource> machines(String ns) {
    return hub.genericKubernetesResources(CAPI, "Machine").inNamespace(ns).list().getItems();
  }

  private static long runningWithNode(List<GenericKubernetesResource> machines) {
    return machines.stream()
        .filter(m -> "Running".equals(string(m, "status", "phase")))
        .filter(m -> string(m, "status", "nodeRef", "name") != null)
        .count();
  }

  private static boolean conditionTrue(GenericKubernetesResource object, String type) {
    return conditions(object).stream()
        .anyMatch(c -> type.equals(c.get("type")) && "True".equals(c.get("status")));
  }

  @SuppressWarnings("unchecked")
  private static List<Map<String, Object>> conditions(GenericKubernetesResource object) {
    Object conditions = object == null ? null : value(object, "status", "conditions");
    return conditions instanceof List<?> list ? (List<Map<String, Object>>) list : List.of();
  }

  private static Object value(GenericKubernetesResource object, String... path) {
    Object current = object.getAdditionalProperties();
    for (String step : path) {
      if (!(current instanceof Map<?, ?> map)) {
        return null;
      }
      current = map.get(step);
    }
    return current;
  }

  private static String string(GenericKubernetesResource object, String... path) {
    Object value = value(object, path);
    return value == null ? null : value.toString();
  }

  private static String label(HasMetadata object, String key) {
    Map<String, String> labels = object.getMetadata().getLabels();
    return labels == null ? null : labels.get(key);
  }

  // ---- waiting, and saying why on failure ----

  private static void await(String ns, String what, BooleanSupplier done) throws Exception {
    long deadline = System.nanoTime() + TIMEOUT.toNanos();
    while (!done.getAsBoolean()) {
      if (System.nanoTime() > deadline) {
        fail("timed out after " + TIMEOUT + " waiting for " + what + "\n" + dump(ns));
      }
      Thread.sleep(250);
    }
  }

  /** The conditions of the Cluster, the control plane and each Machine, and what else tells why. */
  private static String dump(String ns) {
    StringBuilder out = new StringBuilder();
    dumpOne(out, get(ns, CAPI, "Cluster", CLUSTER));
    dumpOne(out, get(ns, CONTROL_PLANE, "OpenshiftAssistedControlPlane", CLUSTER));
    machines(ns).forEach(m -> dumpOne(out, m));
    for (GenericKubernetesResource md :
        hub.genericKubernetesResources(CAPI, "MachineSet").inNamespace(ns).list().getItems()) {
      dumpOne(out, md);
    }
    for (GenericKubernetesResource aci :
        hub.genericKubernetesResources(
                "extensions.hive.openshift.io/v1beta1", "AgentClusterInstall")
            .inNamespace(ns)
            .list()
            .getItems()) {
      out.append("AgentClusterInstall ")
          .append(aci.getMetadata().getName())
          .append(" state=")
          .append(string(aci, "status", "debugInfo", "state"))
          .append('\n');
    }
    for (GenericKubernetesResource agent :
        hub.genericKubernetesResources("agent-install.openshift.io/v1beta1", "Agent")
            .inNamespace(ns)
            .list()
            .getItems()) {
      out.append("Agent ")
          .append(agent.getMetadata().getName())
          .append(" hostname=")
          .append(string(agent, "spec", "hostname"))
          .append(" role=")
          .append(string(agent, "spec", "role"))
          .append(" approved=")
          .append(string(agent, "spec", "approved"))
          .append(" stage=")
          .append(string(agent, "status", "progress", "currentStage"))
          .append('\n');
    }
    out.append("workload Nodes: ")
        .append(workloadNodes(ns))
        .append("\nCluster API manager log: ")
        .append(world.capiManagerLog().toAbsolutePath());
    for (ProviderJar jar : ProviderJar.values()) {
      out.append("\n").append(jar.command).append(" log: ").append(world.provider(jar).log());
    }
    return out.toString();
  }

  private static Object workloadNodes(String ns) {
    try {
      return world.workload(ns, CLUSTER).nodes().list().getItems().stream()
          .map(n -> n.getMetadata().getName())
          .toList();
    } catch (RuntimeException e) {
      return "(workload API server unavailable: " + e.getMessage() + ")";
    }
  }

  private static void dumpOne(StringBuilder out, GenericKubernetesResource object) {
    if (object == null) {
      return;
    }
    out.append(object.getKind())
        .append(' ')
        .append(object.getMetadata().getName())
        .append(" phase=")
        .append(string(object, "status", "phase"))
        .append('\n');
    for (Map<String, Object> c : conditions(object)) {
      out.append("  ")
          .append(c.get("type"))
          .append('=')
          .append(c.get("status"))
          .append(' ')
          .append(c.get("reason"))
          .append(": ")
          .append(c.get("message"))
          .append('\n');
    }
  }
}
