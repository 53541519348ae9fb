package io.openshiftagent.controlplane.machines;

import static io.openshiftagent.controlplane.names.ControlPlaneConditions.API_SERVER_POD_HEALTHY;
import static io.openshiftagent.controlplane.names.ControlPlaneConditions.CANNOT_BE_REMEDIATED;
import static io.openshiftagent.controlplane.names.ControlPlaneConditions.CONTROLLER_MANAGER_POD_HEALTHY;
import static io.openshiftagent.controlplane.names.ControlPlaneConditions.ETCD_MEMBER_HEALTHY;
import static io.openshiftagent.controlplane.names.ControlPlaneConditions.HEALTH_CHECK_SUCCEEDED;
import static io.openshiftagent.controlplane.names.ControlPlaneConditions.NOT_REMEDIATING;
import static io.openshiftagent.controlplane.names.ControlPlaneConditions.OTHER_MACHINES_UNHEALTHY;
import static io.openshiftagent.controlplane.names.ControlPlaneConditions.OWNER_REMEDIATED;
import static io.openshiftagent.controlplane.names.ControlPlaneConditions.REMEDIATING;
import static io.openshiftagent.controlplane.names.ControlPlaneConditions.REMEDIATION_DEFERRED;
import static io.openshiftagent.controlplane.names.ControlPlaneConditions.SCHEDULER_POD_HEALTHY;
import static io.openshiftagent.controlplane.names.ControlPlaneConditions.SINGLE_NODE;
import static io.openshiftagent.controlplane.names.ControlPlaneConditions.WAITING_FOR_INSTALLATION;
import static io.openshiftagent.controlplane.names.ControlPlaneConditions.WAITING_FOR_MACHINE_DELETION;
import static io.openshiftagent.controlplane.names.ControlPlaneConditions.WAITING_FOR_MACHINE_PROVISIONING;
import static io.openshiftagent.controlplane.names.ControlPlaneConditions.WAITING_FOR_PREVIOUS_REMEDIATION;
import static io.openshiftagent.controlplane.names.ControlPlaneConditions.WAITING_FOR_UPGRADE;

import io.openshiftagent.api.controlplane.v1alpha3.RemediationSpec;
import io.openshiftagent.api.external.capi.Machine;
import io.openshiftagent.controlplane.names.ConditionUpdate;
import io.openshiftagent.provider.reconcile.Metadata;
import java.time.Duration;
import java.time.Instant;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;

/**
 * Whether and which unhealthy control-plane Machine to replace, one decision per reconcile, with
 * KubeadmControlPlane's semantics: a MachineHealthCheck marks a Machine ({@code
 * HealthCheckSucceeded=False}, {@code OwnerRemediated=False}); the owner deletes it and the regular
 * scale-up makes its replacement, one at a time, with retries bounded by {@code spec.remediation}
 * ({@link RemediationRetry}). Never before the cluster is installed, during an upgrade, or while
 * another control-plane Machine is unhealthy, being deleted or being provisioned; the etcd check
 * comes after, when the decision is applied. A pure function of its {@link Inputs}.
 */
public final class Remediation {
  /** The annotation by which a user asks for this Machine to be remediated first. */
  public static final String REMEDIATE_MACHINE = "cluster.x-k8s.io/remediate-machine";

  private Remediation() {}

  /**
   * @param machines the control plane's Machines
   * @param deleting the names of those being deleted
   * @param inProgress the remediation whose replacement is not made yet (control-plane annotation)
   * @param spec spec.remediation (null: the defaults)
   * @param installed whether the cluster is installed
   * @param upgrading why an upgrade is in progress, empty when none is
   */
  public record Inputs(
      List<Machine> machines,
      List<String> deleting,
      Optional<RemediationData> inProgress,
      RemediationSpec spec,
      boolean installed,
      Optional<String> upgrading,
      Instant now) {}

  /** What to do; {@link #remediating()} is the control plane's Remediating condition. */
  public sealed interface Decision {
    ConditionUpdate remediating();
  }

  /** No Machine to remediate now. */
  public record Nothing(ConditionUpdate remediating) implements Decision {}

  /**
   * {@code machine} must wait: its OwnerRemediated condition gets {@code ownerReason} and the
   * message; {@code recheckAfter} when only time can end the wait.
   */
  public record Defer(
      Machine machine,
      String ownerReason,
      ConditionUpdate remediating,
      Optional<Duration> recheckAfter)
      implements Decision {}

  /**
   * Delete {@code machine}; {@code data} goes on the control plane until the replacement is made.
   */
  public record Remediate(Machine machine, RemediationData data, ConditionUpdate remediating)
      implements Decision {}

  public static Decision decide(Inputs in) {
    List<Machine> marked = in.machines().stream().filter(Remediation::toBeRemediated).toList();
    if (marked.isEmpty()) {
      return new Nothing(
          ConditionUpdate.isFalse(
              REMEDIATING, NOT_REMEDIATING, "no control-plane Machine needs remediation"));
    }
    Machine machine = marked.stream().min(MOST_BROKEN_FIRST).orElseThrow();
    String name = Metadata.name(machine);
    if (in.deleting().contains(name)) {
      return new Nothing(
          ConditionUpdate.isTrue(
              REMEDIATING,
              REMEDIATING,
              "Machine " + name + " is being deleted; its replacement is made once it is gone"));
    }
    if (in.inProgress().isPresent()) {
      return defer(
          machine,
          REMEDIATION_DEFERRED,
          WAITING_FOR_PREVIOUS_REMEDIATION,
          "waiting for the remediation of Machine "
              + in.inProgress().get().machine()
              + " to finish: its replacement is not made yet");
    }
    if (!in.installed()) {
      return defer(
          machine,
          REMEDIATION_DEFERRED,
          WAITING_FOR_INSTALLATION,
          "the cluster is not installed yet: assisted-service installs all control-plane hosts"
              + " together, so a host is replaced only once the installation has finished");
    }
    if (in.upgrading().isPresent()) {
      return defer(
          machine,
          REMEDIATION_DEFERRED,
          WAITING_FOR_UPGRADE,
          "an upgrade is in progress ("
              + in.upgrading().get()
              + "): OpenShift restarts its control-plane hosts one by one, so none is replaced"
              + " until it is done");
    }
    if (in.machines().size() <= 1) {
      return defer(
          machine,
          CANNOT_BE_REMEDIATED,
          SINGLE_NODE,
          "a single-node control plane cannot be remediated: replacing its only host would delete"
              + " the cluster's only etcd member; repair the host or reinstall the cluster");
    }
    RemediationRetry retry = RemediationRetry.of(machine, in);
    if (retry.defer().isPresent()) {
      return retry.defer().get();
    }
    List<String> othersDeleting =
        in.deleting().stream().filter(n -> !n.equals(name)).sorted().toList();
    if (!othersDeleting.isEmpty()) {
      return defer(
          machine,
          REMEDIATION_DEFERRED,
          WAITING_FOR_MACHINE_DELETION,
          "waiting for " + othersDeleting + " to be deleted before replacing " + name);
    }
    List<String> provisioning =
        others(in, name)
            .filter(m -> !MachineStatus.hasNode(m))
            .map(Metadata::name)
            .sorted()
            .toList();
    if (!provisioning.isEmpty()) {
      return defer(
          machine,
          REMEDIATION_DEFERRED,
          WAITING_FOR_MACHINE_PROVISIONING,
          "waiting for " + provisioning + " to be provisioned before replacing " + name);
    }
    List<String> unhealthy =
        others(in, name)
            .filter(
                m -> MachineStatus.isFalse(m, HEALTH_CHECK_SUCCEEDED) || !MachineStatus.isReady(m))
            .map(Metadata::name)
            .sorted()
            .toList();
    if (!unhealthy.isEmpty()) {
      return defer(
          machine,
          REMEDIATION_DEFERRED,
          OTHER_MACHINES_UNHEALTHY,
          "Machines "
              + unhealthy
              + " are unhealthy or not Ready too: control-plane hosts are replaced one at a time"
              + " while the others are healthy, so that etcd keeps its quorum; "
              + name
              + " waits");
    }
    RemediationData data = new RemediationData(name, retry.now(), retry.count());
    return new Remediate(
        machine,
        data,
        ConditionUpdate.isTrue(
            REMEDIATING,
            REMEDIATING,
            "deleting unhealthy Machine "
                + name
                + (retry.count() > 0 ? " (retry " + retry.count() + ")" : "")
                + "; a replacement is made from the current spec once it is gone"));
  }

  /** Machines marked unhealthy whose remediation is left to their owner, us. */
  static boolean toBeRemediated(Machine machine) {
    return MachineStatus.isFalse(machine, HEALTH_CHECK_SUCCEEDED)
        && MachineStatus.isFalse(machine, OWNER_REMEDIATED);
  }

  /**
   * Machines healthy again whose OwnerRemediated condition no longer applies and is removed, as
   * KubeadmControlPlane does.
   */
  public static List<Machine> recovered(List<Machine> machines, List<String> deleting) {
    return machines.stream()
        .filter(m -> !deleting.contains(Metadata.name(m)))
        .filter(
            m ->
                MachineStatus.isTrue(m, HEALTH_CHECK_SUCCEEDED)
                    && MachineStatus.isFalse(m, OWNER_REMEDIATED))
        .toList();
  }

  /** The message of a Machine's OwnerRemediated condition for a decision. */
  public static ConditionUpdate ownerRemediated(String reason, String message) {
    return ConditionUpdate.isFalse(OWNER_REMEDIATED, reason, message);
  }

  private static Defer defer(Machine machine, String ownerReason, String reason, String message) {
    return new Defer(machine, ownerReason, condition(reason, message), Optional.empty());
  }

  /** The control plane's Remediating condition while a marked Machine waits for {@code reason}. */
  static ConditionUpdate condition(String reason, String message) {
    return ConditionUpdate.isTrue(REMEDIATING, reason, message);
  }

  private static java.util.stream.Stream<Machine> others(Inputs in, String name) {
    return in.machines().stream().filter(m -> !Metadata.name(m).equals(name));
  }

  /**
   * KubeadmControlPlane's order: a Machine a user asked to remediate first, then one that never got
   * a Node (its provisioning failed), then one whose etcd member, API server, controller manager or
   * scheduler is not healthy, in that order ({@link MachineHealth}), then the oldest.
   */
  private static final Comparator<Machine> MOST_BROKEN_FIRST =
      Comparator.comparing((Machine m) -> !Metadata.hasAnnotation(m, REMEDIATE_MACHINE))
          .thenComparing(MachineStatus::hasNode)
          .thenComparing(m -> MachineStatus.isTrue(m, ETCD_MEMBER_HEALTHY))
          .thenComparing(m -> MachineStatus.isTrue(m, API_SERVER_POD_HEALTHY))
          .thenComparing(m -> MachineStatus.isTrue(m, CONTROLLER_MANAGER_POD_HEALTHY))
          .thenComparing(m -> MachineStatus.isTrue(m, SCHEDULER_POD_HEALTHY))
          .thenComparing(
              m -> m.getMetadata().getCreationTimestamp(),
              Comparator.nullsLast(Comparator.naturalOrder()))
          .thenComparing(Metadata::name);
}
