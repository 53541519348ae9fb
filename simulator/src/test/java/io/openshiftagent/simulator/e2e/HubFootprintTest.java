package io.openshiftagent.simulator.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import io.openshiftagent.testsupport.AuditLog;
import io.openshiftagent.testsupport.ProviderRequests;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.parallel.ResourceAccessMode;
import org.junit.jupiter.api.parallel.ResourceLock;

/**
 * The hub footprint guard (issue 18): our two providers' requests to the hub while they install one
 * HA cluster (3 control-plane Machines, 2 workers, LiveISO), counted from the hub's audit log:
 * those in the cluster's namespace and those to its cluster-scoped objects (the ClusterImageSet,
 * named {@code <namespace>.<cluster>}), from the apply until it is installed. A count, not a
 * timing: above {@link ProviderRequests#BUDGET_PER_MACHINE} per Machine fails, and the table by
 * verb says which requests grew (docs/benchmarks.md explains each line).
 */
@ResourceLock(value = E2eWorld.WORLD, mode = ResourceAccessMode.READ)
class HubFootprintTest {
  @RegisterExtension static final E2eWorld world = new E2eWorld();

  @Test
  void installingAnHaClusterStaysWithinTheRequestBudget() {
    ClusterScenario cluster = world.scenario("e2e-footprint", "footprint");
    cluster.enrolHosts(5);
    cluster.apply("/e2e/ha.yaml", Map.of("BOOT_MODE", "LiveISO", "WORKERS", "2"));
    cluster.awaitInstalled(5);
    Instant installed = Instant.now();

    String namespace = cluster.namespace();
    List<AuditLog.Request> ofThisCluster =
        AuditLog.read(world.world().hubAuditLog()).stream()
            .filter(r -> !r.received().isAfter(installed))
            .filter(
                r ->
                    r.namespace().equals(namespace)
                        || r.namespace().isEmpty() && r.name().startsWith(namespace + "."))
            .toList();
    ProviderRequests ours = ProviderRequests.of(ofThisCluster, 5);
    System.out.printf(
        "Our providers' hub requests for cluster %s/%s (5 Machines), apply to installed:%n%s",
        namespace, cluster.clusterName(), ours.table());
    assertThat(ours.perMachine())
        .as("hub requests per Machine, both providers (the table above says which)")
        .isLessThanOrEqualTo(ProviderRequests.BUDGET_PER_MACHINE);
  }
}
