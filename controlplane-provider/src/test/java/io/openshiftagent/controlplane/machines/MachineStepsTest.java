package io.openshiftagent.controlplane.machines;

import static io.openshiftagent.controlplane.Fixtures.condition;
import static io.openshiftagent.controlplane.machines.MachineFixtures.describe;
import static org.assertj.core.api.Assertions.assertThat;

import io.openshiftagent.api.controlplane.v1alpha3.OpenshiftAssistedControlPlane;
import io.openshiftagent.api.controlplane.v1alpha3.OpenshiftAssistedControlPlaneSpec;
import io.openshiftagent.api.controlplane.v1alpha3.RolloutSpec;
import io.openshiftagent.api.external.capi.Machine;
import io.openshiftagent.api.external.capi.MachineStatus;
import io.openshiftagent.provider.reconcile.Metadata;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.Consumer;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The order of the Machines phase, as {@link MachineSteps#plan} decides it for each state of the
 * control plane: whether etcd is read and its departed members removed, which deleted Machine's
 * hook is decided, the remediation, and the one rolling update or scaling step (none while a
 * Machine is remediated).
 */
class MachineStepsTest {
  static final Instant NOW = Instant.parse("2026-06-01T12:00:00Z");

  /**
   * A control plane of {@code desired} replicas and its Machines m0, m1, ... (created a day apart,
   * oldest first), each with a Node and Ready, of a cluster whose installation has not started.
   */
  static final class Scene {
    final int desired;
    final List<Machine> machines = new ArrayList<>();
    final List<String> deleting = new ArrayList<>();
    final Set<String> looked = new HashSet<>();
    final Map<String, String> notUpToDate = new LinkedHashMap<>();
    final Set<String> neverBooted = new HashSet<>();
    RolloutSpec rollout;
    Optional<RemediationData> recorded = Optional.empty();
    boolean installed;
    boolean installationStarted;
    boolean lookDue;
    Optional<String> upgrading = Optional.empty();

    Scene(int desired, int machines) {
      this.desired = desired;
      for (int i = 0; i < machines; i++) {
        Machine m =
            io.openshiftagent.controlplane.Fixtures.machine(
                "m" + i, "2026-01-0" + (i + 1) + "T00:00:00Z", null);
        m.setStatus(new MachineStatus());
        m.getStatus().nodeRef = new MachineStatus.NodeReference();
        m.getStatus().nodeRef.name = "node-" + i;
        m.getStatus().conditions =
            new ArrayList<>(List.of(condition("Ready", "True"), condition("Available", "True")));
        m.getMetadata().setAnnotations(new HashMap<>());
        this.machines.add(m);
      }
    }

    Machine machine(String name) {
      return machines.stream().filter(m -> Metadata.name(m).equals(name)).findFirst().orElseThrow();
    }

    String plan() {
      OpenshiftAssistedControlPlane cp = new OpenshiftAssistedControlPlane();
      cp.setSpec(new OpenshiftAssistedControlPlaneSpec());
      cp.getSpec().replicas = desired;
      cp.getSpec().rollout = rollout;
      return MachineStepsTest.describePlan(
          MachineSteps.plan(
              new MachineSteps.Inputs(
                  cp,
                  machines,
                  deleting,
                  looked,
                  notUpToDate,
                  neverBooted,
                  recorded,
                  new Lifecycle(installed, upgrading, lookDue),
                  installationStarted,
                  NOW)));
    }
  }

  // ---- what the rows change ----

  static Consumer<Scene> installed() {
    return s -> {
      s.installed = true;
      s.installationStarted = true;
    };
  }

  static Consumer<Scene> lookDue() {
    return s -> s.lookDue = true;
  }

  /** The last look at the Machines' health read these. */
  static Consumer<Scene> looked(String... names) {
    return s -> s.looked.addAll(List.of(names));
  }

  static Consumer<Scene> started() {
    return s -> s.installationStarted = true;
  }

  static Consumer<Scene> upgrading() {
    return s -> s.upgrading = Optional.of("condition UpgradeCompleted is False");
  }

  /** Marked by a MachineHealthCheck that leaves the remediation to the owner. */
  static Consumer<Scene> unhealthy(String name) {
    return s -> {
      List<io.fabric8.kubernetes.api.model.Condition> conditions =
          s.machine(name).getStatus().conditions;
      conditions.removeIf(c -> c.getType().equals("Ready"));
      conditions.add(condition("Ready", "False"));
      conditions.add(condition("HealthCheckSucceeded", "False"));
      conditions.add(condition("OwnerRemediated", "False"));
    };
  }

  /** Healthy again, still carrying our OwnerRemediated answer. */
  static Consumer<Scene> recovered(String name) {
    return s -> {
      s.machine(name).getStatus().conditions.add(condition("HealthCheckSucceeded", "True"));
      s.machine(name).getStatus().conditions.add(condition("OwnerRemediated", "False"));
    };
  }

  static Consumer<Scene> deleting(String name) {
    return s -> {
      s.machine(name).getMetadata().setDeletionTimestamp("2026-06-01T11:00:00Z");
      s.deleting.add(name);
    };
  }

  /** Deleted, drained, and waiting for our pre-terminate hook, the last one. */
  static Consumer<Scene> atOurHook(String name) {
    return deleting(name)
        .andThen(
            s -> {
              Machine m = s.machine(name);
              m.getMetadata()
                  .getAnnotations()
                  .put(PropagatedFields.PRE_TERMINATE_HOOK, MachineFactory.HOOK_OWNER);
              io.fabric8.kubernetes.api.model.Condition waiting = condition("Deleting", "True");
              waiting.setReason("WaitingForPreTerminateHook");
              m.getStatus().conditions.add(waiting);
            });
  }

  static Consumer<Scene> outdated(String name) {
    return s -> s.notUpToDate.put(name, "its OpenshiftAssistedConfig differs");
  }

  /** Its host never booted (the Machine keeps its Node in the scene: the decision reads names). */
  static Consumer<Scene> neverBooted(String name) {
    return s -> s.neverBooted.add(name);
  }

  static Consumer<Scene> rollingUpdate() {
    return s -> {
      s.rollout = new RolloutSpec();
      s.rollout.strategy = new RolloutSpec.Strategy();
      s.rollout.strategy.type = RolloutSpec.StrategyType.RollingUpdate;
    };
  }

  /** A remediation recorded on the control plane at {@code time}. */
  static Consumer<Scene> recorded(String machine, String time) {
    return s -> s.recorded = Optional.of(new RemediationData(machine, Instant.parse(time), 0));
  }

  @SafeVarargs
  static Arguments row(
      String description, int desired, int machines, String expected, Consumer<Scene>... changes) {
    return Arguments.of(description, desired, machines, List.of(changes), expected);
  }

  static Stream<Arguments> rows() {
    return Stream.of(
        row(
            "a new control plane: every Machine at once, nothing of etcd",
            3,
            0,
            "etcd=- departed=- hook=- remediation=none step=create 3 (ScalingUp/ScalingUp)"),
        row(
            "an installed, steady control plane between looks: nothing read, nothing done",
            3,
            3,
            "etcd=- departed=- hook=- remediation=none step=steady",
            installed()),
        row(
            "the Machines the last look read, between looks: nothing read",
            3,
            3,
            "etcd=- departed=- hook=- remediation=none step=steady",
            installed(),
            looked("m0", "m1", "m2")),
        row(
            "a Machine the last look read is gone: read again, so that the control plane's health"
                + " stops naming it",
            3,
            3,
            "etcd=read departed=- hook=- remediation=none step=steady",
            installed(),
            looked("m0", "m1", "m2", "m3")),
        row(
            "the periodic look reads etcd and removes the members of departed hosts",
            3,
            3,
            "etcd=read departed=remove hook=- remediation=none step=steady",
            installed(),
            lookDue()),
        row(
            "a missing host: etcd first, then one Machine",
            3,
            2,
            "etcd=read departed=remove hook=- remediation=none step=create 1 (ScalingUp/ScalingUp)",
            installed()),
        row(
            "a single node has no quorum to guard",
            1,
            1,
            "etcd=- departed=- hook=- remediation=none step=steady",
            installed(),
            lookDue()),
        row(
            "before the installation etcd is the installer's",
            3,
            3,
            "etcd=- departed=- hook=- remediation=none step=steady",
            lookDue()),
        row(
            "a Machine being deleted: etcd read, the scale-down waits for it",
            3,
            4,
            "etcd=read departed=- hook=- remediation=none"
                + " step=wait (ScalingDown/WaitingForMachineDeletion)",
            installed(),
            deleting("m3")),
        row(
            "a deleted Machine at our hook is decided",
            3,
            4,
            "etcd=read departed=- hook=m3 remediation=none"
                + " step=wait (ScalingDown/WaitingForMachineDeletion)",
            installed(),
            atOurHook("m3")),
        row(
            "an unhealthy Machine is remediated, and nothing else is done in that reconcile",
            3,
            3,
            "etcd=- departed=- hook=- remediation=remediate m1 step=none",
            installed(),
            unhealthy("m1")),
        row(
            "a remediation waits for the installation; the scaling goes on",
            3,
            2,
            "etcd=- departed=- hook=- remediation=defer m0 (WaitingForInstallation)"
                + " step=create 1 (ScalingUp/ScalingUp)",
            unhealthy("m0")),
        row(
            "during an upgrade a remediation waits, and so does a rolling update",
            3,
            3,
            "etcd=- departed=- hook=- remediation=defer m1 (WaitingForUpgrade)"
                + " step=wait (RollingOut/WaitingForUpgrade)",
            installed(),
            upgrading(),
            rollingUpdate(),
            outdated("m0"),
            unhealthy("m1")),
        row(
            "a rolling update adds a Machine from the current spec first",
            3,
            3,
            "etcd=- departed=- hook=- remediation=none step=create 1 (RollingOut/RollingOut)",
            installed(),
            rollingUpdate(),
            outdated("m0")),
        row(
            "then deletes the outdated one, checking etcd first",
            3,
            4,
            "etcd=read departed=- hook=- remediation=none step=delete m0 (RollingOut/RollingOut)",
            installed(),
            rollingUpdate(),
            outdated("m0")),
        row(
            "OnDelete leaves an outdated Machine to the user",
            3,
            3,
            "etcd=- departed=- hook=- remediation=none step=steady",
            installed(),
            outdated("m0")),
        row(
            "before the installation an outdated Machine whose host never booted is replaced",
            3,
            3,
            "etcd=- departed=- hook=- remediation=none"
                + " step=replace m1 (RollingOut/ReplacingNeverBootedMachines) replacing=[m1, m2]",
            outdated("m1"),
            outdated("m2"),
            neverBooted("m1"),
            neverBooted("m2")),
        row(
            "with RollingUpdate too, where the rolling update waits for the installation",
            3,
            3,
            "etcd=- departed=- hook=- remediation=none"
                + " step=replace m2 (RollingOut/ReplacingNeverBootedMachines) replacing=[m2]",
            rollingUpdate(),
            outdated("m0"),
            outdated("m2"),
            neverBooted("m2")),
        row(
            "then the scaling makes its replacement, under RollingUpdate too",
            3,
            2,
            "etcd=- departed=- hook=- remediation=none step=create 1 (ScalingUp/ScalingUp)",
            rollingUpdate(),
            outdated("m0")),
        row(
            "an outdated Machine whose host booted is left to the user (OnDelete)",
            3,
            3,
            "etcd=- departed=- hook=- remediation=none step=steady",
            outdated("m0"),
            neverBooted("m1")),
        row(
            "once the installation has started nothing is replaced by itself",
            3,
            3,
            "etcd=- departed=- hook=- remediation=none step=steady",
            started(),
            outdated("m0"),
            neverBooted("m0")),
        row(
            "scaling down deletes an outdated Machine first",
            3,
            4,
            "etcd=read departed=- hook=- remediation=none step=delete m2 (ScalingDown/ScalingDown)",
            installed(),
            outdated("m2")),
        row(
            "a remediation whose replacement is made is forgotten",
            3,
            3,
            "etcd=- departed=- hook=- remediation=none step=steady forget",
            installed(),
            recorded("m9", "2026-01-02T12:00:00Z")),
        row(
            "one whose replacement is not made yet holds the next remediation",
            3,
            3,
            "etcd=- departed=- hook=- remediation=defer m1 (WaitingForPreviousRemediation)"
                + " step=steady",
            installed(),
            recorded("m9", "2026-05-01T12:00:00Z"),
            unhealthy("m1")),
        row(
            "a Machine healthy again loses our OwnerRemediated answer",
            3,
            3,
            "etcd=- departed=- hook=- remediation=none step=steady recovered=[m1]",
            installed(),
            recovered("m1")));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("rows")
  void plans(
      String description,
      int desired,
      int machines,
      List<Consumer<Scene>> changes,
      String expected) {
    Scene scene = new Scene(desired, machines);
    changes.forEach(change -> change.accept(scene));
    assertThat(scene.plan()).isEqualTo(expected);
  }

  /** A plan as the table writes it. */
  static String describePlan(MachineSteps.Plan plan) {
    StringBuilder s = new StringBuilder();
    s.append("etcd=").append(plan.readEtcdHealth() ? "read" : "-");
    s.append(" departed=").append(plan.removeDepartedMembers() ? "remove" : "-");
    s.append(" hook=").append(plan.hookDue().map(Metadata::name).orElse("-"));
    s.append(" remediation=");
    if (plan.remediation() instanceof Remediation.Remediate remediate) {
      s.append("remediate ").append(Metadata.name(remediate.machine()));
    } else if (plan.remediation() instanceof Remediation.Defer defer) {
      s.append("defer ")
          .append(Metadata.name(defer.machine()))
          .append(" (")
          .append(defer.remediating().reason())
          .append(")");
    } else {
      s.append("none");
    }
    s.append(" step=");
    s.append(
        plan.step()
            .map(
                step ->
                    describe(step)
                        + step.condition()
                            .map(c -> " (" + c.type() + "/" + c.reason() + ")")
                            .orElse(""))
            .orElse("none"));
    if (plan.forgetRecorded()) {
      s.append(" forget");
    }
    if (!plan.replacing().isEmpty()) {
      s.append(" replacing=").append(plan.replacing());
    }
    if (!plan.recovered().isEmpty()) {
      s.append(" recovered=").append(plan.recovered().stream().map(Metadata::name).toList());
    }
    return s.toString();
  }
}
