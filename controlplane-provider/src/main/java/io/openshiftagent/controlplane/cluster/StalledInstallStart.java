package io.openshiftagent.controlplane.cluster;

import io.fabric8.kubernetes.api.model.Condition;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.openshiftagent.api.controlplane.v1alpha3.OpenshiftAssistedControlPlane;
import io.openshiftagent.api.external.OwnedFieldsPatch;
import io.openshiftagent.api.external.assisted.AgentClusterInstall;
import io.openshiftagent.controlplane.Names;
import io.openshiftagent.provider.contract.InstallerStates;
import io.openshiftagent.provider.reconcile.EventRecorder;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;

/**
 * An installation assisted-service should have started but did not. Its ClusterDeployment
 * controller starts it when it sees the cluster {@code ready} with every expected Agent approved
 * and in sync; it looks again when the ClusterDeployment, the AgentClusterInstall or its own
 * database tells it something changed, but not when an Agent's {@code SpecSynced} turns True again
 * (its Agent watch compares the condition's reason, not its type, with "SpecSynced", so never
 * fires). After an outage of its database, an Agent marked unsynced meanwhile leaves the cluster
 * {@code ready} and the installation unstarted until something else happens (seen on the real
 * service: docs/e2e.md, "What it found"). No watch can tell us that the service missed it, so when
 * an AgentClusterInstall has stayed {@code ready} for {@link #PATIENCE}, an annotation on it (ours)
 * makes the service look again, once per stay, and an Event says so.
 */
public final class StalledInstallStart {
  /** Set on the AgentClusterInstall, with the time, when the service is asked to look again. */
  public static final String ANNOTATION = "controlplane.cluster.x-k8s.io/install-start-requested";

  /**
   * How long an AgentClusterInstall may stay {@code ready}: the service starts an installation
   * within a second of the last host's approval, so a minute is well past any normal stay.
   */
  static final Duration PATIENCE = Duration.ofSeconds(60);

  private static final String READY = "ready";
  private static final String REQUIREMENTS_MET = "RequirementsMet";

  /** By control plane UID: when its AgentClusterInstall was first seen in its stay in ready. */
  private final Map<String, Stay> stays = new ConcurrentHashMap<>();

  private final KubernetesClient client;
  private final EventRecorder events;
  private final Clock clock;

  public StalledInstallStart(KubernetesClient client, EventRecorder events, Clock clock) {
    this.client = client;
    this.events = events;
    this.clock = clock;
  }

  /** One stay in {@code ready}: since when, and whether the service was asked to look again. */
  record Stay(Instant since, boolean requested) {}

  /** What to do about an AgentClusterInstall's stay in ready. */
  sealed interface Decision {}

  /** Not in ready (or held by the user): nothing to watch for. */
  record NotWaiting() implements Decision {}

  /** In ready, for less than {@link #PATIENCE} or already asked: look again after {@code in}. */
  record LookAgain(Optional<Duration> in) implements Decision {}

  /** In ready for {@link #PATIENCE}: ask the service to look again. */
  record Request() implements Decision {}

  /** The decision, from the state and this stay: a pure function. */
  static Decision decide(String state, boolean held, Stay stay, Instant now) {
    if (!READY.equals(state) || held) {
      return new NotWaiting();
    }
    if (stay.requested()) {
      return new LookAgain(Optional.empty());
    }
    Duration waited = Duration.between(stay.since(), now);
    return waited.compareTo(PATIENCE) >= 0
        ? new Request()
        : new LookAgain(Optional.of(PATIENCE.minus(waited)));
  }

  /**
   * Looks at the control plane's AgentClusterInstall; asks the service to look again if its stay in
   * ready is overdue.
   *
   * @return when to look again, while the stay is not overdue yet
   */
  public Optional<Duration> reconcile(
      OpenshiftAssistedControlPlane cp, Optional<AgentClusterInstall> install) {
    String uid = cp.getMetadata().getUid();
    Instant now = clock.instant();
    Stay stay = stays.getOrDefault(uid, new Stay(now, false));
    Decision decision =
        install.isEmpty()
            ? new NotWaiting()
            : decide(InstallerStates.of(install.get()), held(install.get()), stay, now);
    if (decision instanceof LookAgain later) {
      stays.putIfAbsent(uid, stay);
      return later.in();
    }
    if (decision instanceof Request) {
      AgentClusterInstall aci = install.get();
      new OwnedFieldsPatch()
          .set(now.toString(), "metadata", "annotations", ANNOTATION)
          .applyTo(client, aci);
      stays.put(uid, new Stay(stay.since(), true));
      events.warning(
          cp,
          "InstallationNotStarted",
          "RequestInstallationStart",
          "AgentClusterInstall "
              + Names.clusterDeployment(cp)
              + " has been ready to install for "
              + Duration.between(stay.since(), now).toSeconds()
              + " s but assisted-service has not started the installation; asked it to look again"
              + requirements(aci).map(r -> " (RequirementsMet: " + r + ")").orElse(""));
      return Optional.empty();
    }
    stays.remove(uid);
    return Optional.empty();
  }

  /** Forgets a deleted control plane. */
  public void forget(OpenshiftAssistedControlPlane cp) {
    stays.remove(cp.getMetadata().getUid());
  }

  /** Whether the user holds the installation back (spec.holdInstallation). */
  private static boolean held(AgentClusterInstall aci) {
    return aci.getSpec() != null
        && Boolean.TRUE.equals(aci.getSpec().unknownFields().get("holdInstallation"));
  }

  /** What the service last said of the installation's requirements. */
  private static Optional<String> requirements(AgentClusterInstall aci) {
    if (aci.getStatus() == null || aci.getStatus().conditions == null) {
      return Optional.empty();
    }
    return aci.getStatus().conditions.stream()
        .filter(c -> REQUIREMENTS_MET.equals(c.getType()))
        .findFirst()
        .map(StalledInstallStart::describe);
  }

  private static String describe(Condition c) {
    return c.getStatus() + ", " + c.getReason() + ": " + c.getMessage();
  }
}
