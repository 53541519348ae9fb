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
 * Breaks a livelock of the baremetal-operator's test mode (docs/e2e.md, "The baremetal-operator's
 * test mode"). Its fixture provisioner keeps one image state for all the hosts of an operator, and
 * both provisioning and deprovisioning requeue every 10 s: a host provisioning and another one
 * deprovisioning in one namespace can set and clear that state in turn forever, neither leaving its
 * state (seen in CI: a worker deleted while a control-plane host provisioned). A host seen in
 * either state for longer than {@link #STUCK} gets an annotation changed twice, {@link #AGAIN}
 * apart, each change making the operator reconcile it at once: the second look finds the state the
 * first one left and the host finishes, unless the other host's 10 s step fell in between. One host
 * of a namespace at a time, so that two hosts are never nudged in step. Hosts with their own state
 * (real ones, under Ironic) never need this.
 */
final class FixtureLivelock extends Actor {
  static final String ANNOTATION = "simulator.openshift-agent.io/reconciled-for-livelock";

  /** Three of the fixture's 10 s periods: longer than any step takes even on a loaded machine. */
  private static final Duration STUCK = Duration.ofSeconds(30);

  /** Between the two looks: short beside the other host's 10 s step. */
  private static final Duration AGAIN = Duration.ofSeconds(2);

  private static final Set<String> STEPPING = Set.of("provisioning", "deprovisioning");

  /** The state of each stepping host, by UID. */
  private final Map<String, String> stepping = new ConcurrentHashMap<>();

  /** When a host of each namespace was last nudged. */
  private final Map<String, Long> lastNudge = new ConcurrentHashMap<>();

  FixtureLivelock(KubernetesClient client) {
    super(client);
  }

  @Override
  void start() {
    watch(ApiVersions.METAL3, "BareMetalHost", this::observe);
  }

  private void observe(GenericKubernetesResource host) {
    String uid = host.getMetadata().getUid();
    String state = Hosts.state(host);
    // A host the operator has not reported on yet has no state (Set.of refuses null).
    if (state == null || !STEPPING.contains(state)) {
      stepping.remove(uid);
      return;
    }
    if (!state.equals(stepping.put(uid, state))) {
      after(STUCK, () -> nudgeIfStill(namespace(host), name(host), uid, state));
    }
  }

  private void nudgeIfStill(String namespace, String name, String uid, String state) {
    if (!stillStepping(namespace, name, uid, state)) {
      return;
    }
    Long last = lastNudge.get(namespace);
    if (last != null && System.nanoTime() - last < STUCK.toNanos() / 2) {
      after(STUCK.dividedBy(2), () -> nudgeIfStill(namespace, name, uid, state));
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
          if (stillStepping(namespace, name, uid, state)) {
            nudge(namespace, name);
          }
        });
    after(STUCK, () -> nudgeIfStill(namespace, name, uid, state));
  }

  private boolean stillStepping(String namespace, String name, String uid, String state) {
    GenericKubernetesResource host = cached(ApiVersions.METAL3, "BareMetalHost", namespace, name);
    return host != null
        && uid.equals(host.getMetadata().getUid())
        && state.equals(Hosts.state(host))
        && state.equals(stepping.get(uid));
  }

  /** An annotation change: the operator reconciles the host at once. */
  private void nudge(String namespace, String name) {
    mergePatch(
        resource(ApiVersions.METAL3, "BareMetalHost", namespace, name),
        new OwnedFieldsPatch()
            .set(Instant.now().toString(), "metadata", "annotations", ANNOTATION));
  }
}
