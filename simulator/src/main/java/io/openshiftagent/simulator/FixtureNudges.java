package io.openshiftagent.simulator;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.openshiftagent.api.external.OwnedFieldsPatch;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Makes the baremetal-operator's test mode take a step it would take late or never (docs/e2e.md,
 * "The baremetal-operator's test mode"), by changing an annotation of the host: the operator
 * reconciles a host at once on every change of it. Hosts with their own state and Ironic's waits
 * (real ones) never need this. Two artifacts of the fixture provisioner:
 *
 * <ul>
 *   <li><b>Livelock</b>: it keeps one image state for all the hosts of an operator, and both
 *       provisioning and deprovisioning requeue every 10 s, so a host provisioning and another one
 *       deprovisioning in one namespace can set and clear that state in turn forever (seen in CI: a
 *       worker deleted while a control-plane host provisioned). A host seen in either state for
 *       longer than {@link #STUCK} is nudged twice, {@link #AGAIN} apart: the second look finds the
 *       state the first one left and the host finishes, unless the other host's 10 s step fell in
 *       between. One host of a namespace at a time, so that two hosts are never nudged in step.
 *   <li><b>Backoff</b>: each of its steps finishes at once, so the operator requeues the host with
 *       {@code Requeue} and no delay, which controller-runtime rate-limits per host (5 ms, doubled
 *       at each requeue until one ends without). After 16 such steps in a row the next one waits
 *       327.68 s: seen in CI as a provisioned host left powered off for that long (its {@code
 *       online} true), its Machine not Running within the test's 6 minutes. A host whose power
 *       differs from {@code spec.online} for longer than {@link #POWER_STUCK} is nudged once, and
 *       again after as long if it still does.
 * </ul>
 */
final class FixtureNudges extends Actor {
  static final String ANNOTATION = "simulator.openshift-agent.io/nudged";

  /** Three of the fixture's 10 s periods: longer than any step takes even on a loaded machine. */
  private static final Duration STUCK = Duration.ofSeconds(30);

  /** Between the two looks: short beside the other host's 10 s step. */
  private static final Duration AGAIN = Duration.ofSeconds(2);

  /** The operator changes the power of a host in its next reconcile: normally within a second. */
  private static final Duration POWER_STUCK = Duration.ofSeconds(15);

  private static final Set<String> STEPPING = Set.of("provisioning", "deprovisioning");

  private static final Set<String> POWER_MANAGED =
      Set.of("available", "provisioned", "externally provisioned");

  /** What each host waits for (its state, or its power), by UID. */
  private final Map<String, String> waiting = new ConcurrentHashMap<>();

  /** When a stepping host of each namespace was last nudged. */
  private final Map<String, Long> lastNudge = new ConcurrentHashMap<>();

  FixtureNudges(KubernetesClient client) {
    super(client);
  }

  @Override
  void start() {
    watch(ApiVersions.METAL3, "BareMetalHost", this::observe);
  }

  private void observe(GenericKubernetesResource host) {
    String uid = host.getMetadata().getUid();
    String wait = waitingFor(host);
    if (wait == null) {
      waiting.remove(uid);
      return;
    }
    if (!wait.equals(waiting.put(uid, wait))) {
      String namespace = namespace(host);
      String name = name(host);
      if (STEPPING.contains(wait)) {
        after(STUCK, () -> nudgeIfStillStepping(namespace, name, uid, wait));
      } else {
        after(POWER_STUCK, () -> nudgeIfStillUnpowered(namespace, name, uid, wait));
      }
    }
  }

  /**
   * The step the operator has to take: the host's provisioning state while it provisions or
   * deprovisions; {@code power on} or {@code power off} where its power differs from {@code
   * spec.online}; else null.
   */
  private static String waitingFor(GenericKubernetesResource host) {
    String state = Hosts.state(host);
    if (state == null) {
      return null; // not reported on by the operator yet
    }
    if (STEPPING.contains(state)) {
      return state;
    }
    boolean online = Fields.isTrue(host, "spec", "online");
    if (POWER_MANAGED.contains(state) && online != Fields.isTrue(host, "status", "poweredOn")) {
      return online ? "power on" : "power off";
    }
    return null;
  }

  private void nudgeIfStillStepping(String namespace, String name, String uid, String state) {
    if (!stillWaiting(namespace, name, uid, state)) {
      return;
    }
    Long last = lastNudge.get(namespace);
    if (last != null && System.nanoTime() - last < STUCK.toNanos() / 2) {
      after(STUCK.dividedBy(2), () -> nudgeIfStillStepping(namespace, name, uid, state));
      return;
    }
    lastNudge.put(namespace, System.nanoTime());
    log.info(
        "host {}/{} {} for over {} s: the baremetal-operator reconciles it now (fixture livelock)",
        namespace,
        name,
        state,
        STUCK.toSeconds());
    nudge(namespace, name);
    after(
        AGAIN,
        () -> {
          if (stillWaiting(namespace, name, uid, state)) {
            nudge(namespace, name);
          }
        });
    after(STUCK, () -> nudgeIfStillStepping(namespace, name, uid, state));
  }

  private void nudgeIfStillUnpowered(String namespace, String name, String uid, String power) {
    if (!stillWaiting(namespace, name, uid, power)) {
      return;
    }
    log.info(
        "host {}/{} waits for {} for over {} s: the baremetal-operator reconciles it now (fixture"
            + " backoff)",
        namespace,
        name,
        power,
        POWER_STUCK.toSeconds());
    nudge(namespace, name);
    after(POWER_STUCK, () -> nudgeIfStillUnpowered(namespace, name, uid, power));
  }

  private boolean stillWaiting(String namespace, String name, String uid, String wait) {
    GenericKubernetesResource host = cached(ApiVersions.METAL3, "BareMetalHost", namespace, name);
    return host != null
        && uid.equals(host.getMetadata().getUid())
        && wait.equals(waitingFor(host))
        && wait.equals(waiting.get(uid));
  }

  /** An annotation change: the operator reconciles the host at once. */
  private void nudge(String namespace, String name) {
    mergePatch(
        resource(ApiVersions.METAL3, "BareMetalHost", namespace, name),
        new OwnedFieldsPatch()
            .set(Instant.now().toString(), "metadata", "annotations", ANNOTATION));
  }
}
