package io.openshiftagent.controlplane.cluster;

import io.fabric8.kubernetes.api.model.Condition;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.openshiftagent.api.controlplane.v1alpha3.OpenshiftAssistedControlPlane;
import io.openshiftagent.api.external.OwnedFieldsPatch;
import io.openshiftagent.api.external.assisted.AgentClusterInstall;
import io.openshiftagent.controlplane.names.Names;
import io.openshiftagent.provider.contract.InstallerStates;
import io.openshiftagent.provider.reconcile.EventRecorder;
import java.time.Duration;
import java.time.Instant;
import java.util.Optional;
import java.util.Set;

/**
 * An installation assisted-service should have started but did not. Its ClusterDeployment
 * controller starts it when it sees the cluster {@code ready} with every expected Agent approved
 * and in sync, and says what it waits for in the AgentClusterInstall's {@code RequirementsMet}
 * condition. It looks again when the ClusterDeployment, the AgentClusterInstall or its own database
 * tells it something changed (an Agent approved, a host bound), but not when an Agent's {@code
 * SpecSynced} turns True again: its Agent watch compares the condition's reason, not its type, with
 * "SpecSynced", so never fires. After an outage of its database, an Agent marked unsynced meanwhile
 * leaves the cluster {@code ready}, waiting for {@code UnsyncedAgents} that are long in sync, until
 * something else happens. No watch can tell us that the service missed it, so when an
 * AgentClusterInstall has stayed {@code ready} for {@link #PATIENCE} waiting only for that (or for
 * nothing: {@code ClusterIsReady}), an annotation on it (ours) makes the service look again, once
 * per stay, and an Event says so. Its other waits in {@code ready} (Agents to approve, hosts to
 * bind) end with an event the service does watch.
 */
public final class StalledInstallStart {
  /** Set on the AgentClusterInstall, with the time, when the service is asked to look again. */
  public static final String ANNOTATION = "controlplane.cluster.x-k8s.io/install-start-requested";

  /**
   * How long an AgentClusterInstall may stay {@code ready} waiting for nothing or for Agents in
   * sync: the service starts as soon as it looks, so a minute is well past any normal stay.
   */
  static final Duration PATIENCE = Duration.ofSeconds(60);

  /**
   * The RequirementsMet reasons of an installation the service may have missed starting: Agents it
   * last saw out of sync, or none (it found the cluster ready to install).
   */
  static final Set<String> MISSED_START_REASONS = Set.of("UnsyncedAgents", "ClusterIsReady");

  private static final String READY = "ready";
  private static final String REQUIREMENTS_MET = "RequirementsMet";

  private final KubernetesClient client;
  private final EventRecorder events;

  public StalledInstallStart(KubernetesClient client, EventRecorder events) {
    this.client = client;
    this.events = events;
  }

  /**
   * One stay in {@code ready} waiting for {@code reason}: since when we saw it, and whether the
   * service was asked to look again.
   */
  public record Stay(String reason, Instant since, boolean requested) {}

  /** What to do about an AgentClusterInstall's stay. */
  sealed interface Decision {}

  /** Not in a stay the service may have missed: nothing to watch for. */
  record NotWaiting() implements Decision {}

  /**
   * In such a stay, for less than {@link #PATIENCE} or already asked: look again after {@code in}.
   */
  record LookAgain(Optional<Duration> in) implements Decision {}

  /** In such a stay for {@link #PATIENCE}: ask the service to look again. */
  record Request() implements Decision {}

  /**
   * What the AgentClusterInstall waits for, if it is a stay the service may have missed: in state
   * {@code ready}, not held by the user ({@code spec.holdInstallation}), its RequirementsMet reason
   * one of {@link #MISSED_START_REASONS}.
   */
  public static Optional<String> missedStartReason(AgentClusterInstall aci) {
    if (!READY.equals(InstallerStates.of(aci)) || held(aci)) {
      return Optional.empty();
    }
    return requirementsMet(aci).map(Condition::getReason).filter(MISSED_START_REASONS::contains);
  }

  /** The decision, from this stay: a pure function. */
  static Decision decide(Optional<Stay> stay, Instant now) {
    if (stay.isEmpty()) {
      return new NotWaiting();
    }
    if (stay.get().requested()) {
      return new LookAgain(Optional.empty());
    }
    Duration waited = Duration.between(stay.get().since(), now);
    return waited.compareTo(PATIENCE) >= 0
        ? new Request()
        : new LookAgain(Optional.of(PATIENCE.minus(waited)));
  }

  /**
   * What the look found: when to look again (while a stay the service may have missed is not
   * overdue yet), and the stay to remember until the next look.
   */
  public record Looked(Optional<Duration> lookAgain, Optional<Stay> stay) {}

  /**
   * Looks at the control plane's AgentClusterInstall; asks the service to look again if a stay it
   * may have missed is overdue.
   *
   * @param previous the stay the last look saw
   */
  public Looked reconcile(
      OpenshiftAssistedControlPlane cp,
      Optional<AgentClusterInstall> install,
      Optional<Stay> previous,
      Instant now) {
    Optional<Stay> stay =
        install
            .flatMap(StalledInstallStart::missedStartReason)
            .map(
                reason ->
                    previous
                        .filter(p -> p.reason().equals(reason))
                        .orElse(new Stay(reason, now, false)));
    Decision decision = decide(stay, now);
    if (decision instanceof LookAgain later) {
      return new Looked(later.in(), stay);
    }
    if (decision instanceof Request) {
      AgentClusterInstall aci = install.get();
      new OwnedFieldsPatch()
          .set(now.toString(), "metadata", "annotations", ANNOTATION)
          .applyTo(client, aci);
      events.warning(
          cp,
          "InstallationNotStarted",
          "RequestInstallationStart",
          "AgentClusterInstall "
              + Names.clusterDeployment(cp)
              + " has been ready to install for "
              + Duration.between(stay.get().since(), now).toSeconds()
              + " s but assisted-service has not started the installation; asked it to look again"
              + requirementsMet(aci)
                  .map(c -> " (RequirementsMet: " + describe(c) + ")")
                  .orElse(""));
      return new Looked(
          Optional.empty(), Optional.of(new Stay(stay.get().reason(), stay.get().since(), true)));
    }
    return new Looked(Optional.empty(), Optional.empty());
  }

  /** Whether the user holds the installation back (spec.holdInstallation). */
  private static boolean held(AgentClusterInstall aci) {
    return aci.getSpec() != null
        && Boolean.TRUE.equals(aci.getSpec().unknownFields().get("holdInstallation"));
  }

  /** What the service last said of the installation's requirements. */
  private static Optional<Condition> requirementsMet(AgentClusterInstall aci) {
    if (aci.getStatus() == null || aci.getStatus().conditions == null) {
      return Optional.empty();
    }
    return aci.getStatus().conditions.stream()
        .filter(c -> REQUIREMENTS_MET.equals(c.getType()))
        .findFirst();
  }

  private static String describe(Condition c) {
    return c.getStatus() + ", " + c.getReason() + ": " + c.getMessage();
  }
}
