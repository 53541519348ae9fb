package io.openshiftagent.simulator.e2e;

import static io.openshiftagent.simulator.Fields.string;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.openshiftagent.simulator.ApiVersions;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.parallel.ResourceAccessMode;
import org.junit.jupiter.api.parallel.ResourceLock;

/**
 * The world's hosts under one baremetal-operator (one namespace): a host deprovisioning and another
 * one provisioning at the same moment both finish, as CAPM3 drives them when a cluster deletes a
 * worker while a control-plane host is still being provisioned. The operator's test-mode fixture
 * shares one image state between them, which without {@code FixtureNudges} makes them undo each
 * other forever (docs/e2e.md, "The baremetal-operator's test mode").
 */
@ResourceLock(value = E2eWorld.WORLD, mode = ResourceAccessMode.READ)
class HostsOfOneOperatorTest {
  @RegisterExtension static final E2eWorld world = new E2eWorld();

  /** What CAPM3 writes to a host it provisions for a LiveISO Machine. */
  private static final Map<String, Object> IMAGE =
      Map.of("url", "https://images.simulator.invalid/boot.iso", "format", "live-iso");

  /** A step takes 10–20 s in the fixture; a livelock never ends. */
  private static final Duration BOTH_DONE = Duration.ofSeconds(120);

  @Test
  void aHostProvisioningAndAnotherDeprovisioningAtOnceBothFinish() {
    ClusterScenario hosts = world.scenario("one-operator", "no-cluster");
    hosts.enrolHosts(2);
    hosts.await(
        "both hosts available",
        () ->
            "available".equals(state("host-0", hosts))
                && "available".equals(state("host-1", hosts)));
    provision(hosts, "host-1");
    hosts.await("host-1 provisioned", () -> "provisioned".equals(state("host-1", hosts)));

    // The fixture clears the shared image at host-1's first deprovisioning step and looks again 10
    // s
    // later; host-0's provisioning starts in between, finds it empty and sets it.
    deprovision(hosts, "host-1");
    hosts.await("host-1 deprovisioning", () -> "deprovisioning".equals(state("host-1", hosts)));
    provision(hosts, "host-0");

    hosts.await(
        "host-0 provisioned and host-1 available again",
        BOTH_DONE,
        () ->
            "provisioned".equals(state("host-0", hosts))
                && "available".equals(state("host-1", hosts)));
  }

  private static void provision(ClusterScenario hosts, String host) {
    hosts.patch(
        ApiVersions.METAL3,
        "BareMetalHost",
        host,
        Map.of("spec", Map.of("image", IMAGE, "online", true)));
  }

  private static void deprovision(ClusterScenario hosts, String host) {
    Map<String, Object> spec = new HashMap<>();
    spec.put("image", null);
    spec.put("online", false);
    hosts.patch(ApiVersions.METAL3, "BareMetalHost", host, Map.of("spec", spec));
  }

  private static String state(String host, ClusterScenario hosts) {
    GenericKubernetesResource object = hosts.get(ApiVersions.METAL3, "BareMetalHost", host);
    return object == null ? null : string(object, "status", "provisioning", "state");
  }
}
