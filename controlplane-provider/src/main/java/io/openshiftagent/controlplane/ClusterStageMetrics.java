package io.openshiftagent.controlplane;

import io.fabric8.kubernetes.api.model.Condition;
import io.javaoperatorsdk.operator.RegisteredController;
import io.javaoperatorsdk.operator.processing.Controller;
import io.micrometer.core.instrument.DistributionSummary;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.openshiftagent.api.controlplane.v1alpha3.OpenshiftAssistedControlPlane;
import io.openshiftagent.controlplane.names.ControlPlaneConditions;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Supplier;
import java.util.stream.Collectors;
import java.util.stream.Stream;

/**
 * The control planes as a person counts them, read from the controller's cache at each scrape (no
 * request to the hub):
 *
 * <ul>
 *   <li>{@code openshift_agent_clusters{stage}}: control planes by {@link #stage}, every stage
 *       present, at zero when none is there;
 *   <li>{@code openshift_agent_cluster_time_to_available_seconds}: from a control plane's creation
 *       to its {@code Available} condition turning true, recorded once for each control plane this
 *       process saw become Available (one that already was when the process started is not counted
 *       again).
 * </ul>
 */
final class ClusterStageMetrics {
  /** The stages, in the order a cluster goes through them. */
  static final List<String> STAGES =
      List.of(
          "Provisioning", "Installing", "Available", "Upgrading", "Failed", "Paused", "Deleting");

  /** From 1 minute to 4 hours: an installation takes 30 to 90 minutes on real hardware. */
  private static final double[] BUCKETS = {
    60, 300, 600, 900, 1200, 1800, 2400, 3000, 3600, 4500, 5400, 7200, 10800, 14400
  };

  private final Supplier<Stream<OpenshiftAssistedControlPlane>> controlPlanes;
  private final Instant started;
  private final DistributionSummary timeToAvailable;
  private final Set<String> counted = ConcurrentHashMap.newKeySet();

  ClusterStageMetrics(
      MeterRegistry registry,
      Supplier<Stream<OpenshiftAssistedControlPlane>> controlPlanes,
      Instant started) {
    this.controlPlanes = controlPlanes;
    this.started = started;
    this.timeToAvailable =
        DistributionSummary.builder("openshift_agent_cluster_time_to_available_seconds")
            .description("Seconds from a control plane's creation to Available")
            .serviceLevelObjectives(BUCKETS)
            .register(registry);
    for (String stage : STAGES) {
      Gauge.builder("openshift_agent_clusters", () -> count(stage))
          .description("OpenshiftAssistedControlPlanes by stage")
          .tag("stage", stage)
          .strongReference(true)
          .register(registry);
    }
  }

  /**
   * Where a control plane is: {@code Deleting}, {@code Paused}, {@code Failed} (a failure a person
   * must act on), {@code Upgrading}, {@code Available}, {@code Installing} (assisted-service is
   * installing), else {@code Provisioning} (waiting for the cluster, infrastructure, release image
   * or installation objects).
   */
  static String stage(OpenshiftAssistedControlPlane controlPlane) {
    if (controlPlane.getMetadata().getDeletionTimestamp() != null) {
      return "Deleting";
    }
    Map<String, Condition> conditions = conditions(controlPlane);
    if (is(conditions, ControlPlaneConditions.PAUSED, "True")) {
      return "Paused";
    }
    Condition available = conditions.get(ControlPlaneConditions.AVAILABLE);
    Condition upgrade = conditions.get(ControlPlaneConditions.UPGRADE_COMPLETED);
    if (available != null
        && "False".equals(available.getStatus())
        && Set.of(
                ControlPlaneConditions.INSTALLATION_FAILED,
                ControlPlaneConditions.INVALID_CONFIGURATION)
            .contains(available.getReason())) {
      return "Failed";
    }
    if (upgrade != null
        && "False".equals(upgrade.getStatus())
        && Set.of(
                ControlPlaneConditions.UPGRADE_FAILED,
                ControlPlaneConditions.DOWNGRADE_NOT_SUPPORTED)
            .contains(upgrade.getReason())) {
      return "Failed";
    }
    if (upgrade != null && "False".equals(upgrade.getStatus())) {
      return "Upgrading";
    }
    if (available != null && "True".equals(available.getStatus())) {
      return "Available";
    }
    if (available != null && ControlPlaneConditions.INSTALLING.equals(available.getReason())) {
      return "Installing";
    }
    return "Provisioning";
  }

  /**
   * Publishes the metrics of the control planes {@code controller} caches in {@code registry}. A
   * standby replica's cache is empty (its controller has not started): it reports zeros, and a sum
   * over the replicas is the leader's count.
   */
  @SuppressWarnings("unchecked")
  static ClusterStageMetrics bind(
      RegisteredController<OpenshiftAssistedControlPlane> controller, MeterRegistry registry) {
    Controller<OpenshiftAssistedControlPlane> running =
        (Controller<OpenshiftAssistedControlPlane>) controller;
    return new ClusterStageMetrics(
        registry,
        () -> {
          try {
            return running.getEventSourceManager().getControllerEventSource().list();
          } catch (RuntimeException notStarted) {
            return Stream.empty();
          }
        },
        Instant.now());
  }

  private double count(String stage) {
    Map<String, Long> byStage = byStage();
    return byStage.getOrDefault(stage, 0L);
  }

  /** Counts the stages and records the newly Available (each scrape asks once per stage: cheap). */
  private Map<String, Long> byStage() {
    return controlPlanes
        .get()
        .peek(this::recordIfNewlyAvailable)
        .collect(
            Collectors.groupingBy(ClusterStageMetrics::stage, TreeMap::new, Collectors.counting()));
  }

  private void recordIfNewlyAvailable(OpenshiftAssistedControlPlane controlPlane) {
    Condition available = conditions(controlPlane).get(ControlPlaneConditions.AVAILABLE);
    if (available == null
        || !"True".equals(available.getStatus())
        || available.getLastTransitionTime() == null
        || controlPlane.getMetadata().getCreationTimestamp() == null) {
      return;
    }
    Instant became = Instant.parse(available.getLastTransitionTime());
    if (became.isBefore(started) || !counted.add(controlPlane.getMetadata().getUid())) {
      return;
    }
    Instant created = Instant.parse(controlPlane.getMetadata().getCreationTimestamp());
    timeToAvailable.record(Math.max(0, Duration.between(created, became).toMillis() / 1000.0));
  }

  private static Map<String, Condition> conditions(OpenshiftAssistedControlPlane controlPlane) {
    return Optional.ofNullable(controlPlane.getStatus())
        .map(s -> s.conditions)
        .orElse(List.of())
        .stream()
        .collect(Collectors.toMap(Condition::getType, c -> c, (a, b) -> b));
  }

  private static boolean is(Map<String, Condition> conditions, String type, String status) {
    Condition c = conditions.get(type);
    return c != null && status.equals(c.getStatus());
  }
}
