package io.openshiftagent.simulator.e2e;

import static io.openshiftagent.simulator.Fields.conditionTrue;
import static io.openshiftagent.simulator.Fields.string;
import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.openshiftagent.simulator.ApiVersions;
import io.openshiftagent.testsupport.AuditLog;
import io.openshiftagent.testsupport.ProviderJar;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.parallel.ResourceAccessMode;
import org.junit.jupiter.api.parallel.ResourceLock;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Conflicts: while an HA cluster installs, another writer keeps changing labels and annotations on
 * the Agents, Metal3Machines, Machines and BareMetalHosts our providers patch (merge patches, and
 * read-modify-write updates that conflict with ours). No write of theirs is lost, and ours all
 * land: the cluster installs with every Agent approved in its Machine's role and every
 * Metal3Machine booting its InfraEnv's ISO.
 */
@ResourceLock(value = E2eWorld.WORLD, mode = ResourceAccessMode.READ)
class ConflictsTest {
  private static final Logger LOG = LoggerFactory.getLogger(ConflictsTest.class);

  @RegisterExtension static final E2eWorld world = new E2eWorld();

  @Test
  void noWriteOfAnotherWriterOrOfOursIsLost() throws Exception {
    ClusterScenario cluster = world.scenario("conflicts", "test-multinode");
    cluster.enrolHosts(5);
    long seed = Long.getLong("conflicts.seed", System.nanoTime());
    LOG.info("other writer's seed {} (rerun with -Dconflicts.seed={})", seed, seed);
    OtherWriter other =
        new OtherWriter(
            cluster.hub(),
            cluster.namespace(),
            List.of(
                new OtherWriter.Kind(ApiVersions.AGENT_INSTALL, "Agent"),
                new OtherWriter.Kind(ApiVersions.METAL3_INFRASTRUCTURE, "Metal3Machine"),
                new OtherWriter.Kind(ApiVersions.CAPI, "Machine"),
                new OtherWriter.Kind(ApiVersions.METAL3, "BareMetalHost")),
            seed);
    Duration installed;
    try {
      other.start();
      cluster.apply("/e2e/ha.yaml", Map.of("BOOT_MODE", "LiveISO", "WORKERS", "2"));
      installed = cluster.awaitInstalled(5);
    } finally {
      other.close();
    }

    // Theirs: every label and annotation as the other writer last wrote it.
    assertThat(other.lostWrites()).isEmpty();
    assertThat(other.writes().keySet())
        .containsExactlyInAnyOrder("Agent", "Metal3Machine", "Machine", "BareMetalHost");
    // Ours: each Machine's Agent approved once, in the Machine's role; each Metal3Machine boots its
    // InfraEnv's discovery ISO; the control plane's Machines carry our UpToDate condition.
    List<GenericKubernetesResource> agents = cluster.list(ApiVersions.AGENT_INSTALL, "Agent");
    assertThat(agents).hasSize(5);
    for (GenericKubernetesResource agent : agents) {
      assertThat((Object) agent.get("spec", "approved"))
          .as("Agent %s approved", agent.getMetadata().getName())
          .isEqualTo(true);
    }
    Map<String, Long> roles = new TreeMap<>();
    agents.forEach(a -> roles.merge(string(a, "spec", "role"), 1L, Long::sum));
    assertThat(roles).isEqualTo(Map.of("master", 3L, "worker", 2L));
    assertThat(
            cluster.list(ApiVersions.METAL3_INFRASTRUCTURE, "Metal3Machine").stream()
                .map(
                    m ->
                        string(m, "spec", "image", "url")
                            + " "
                            + string(m, "spec", "image", "diskFormat")))
        .containsExactlyInAnyOrderElementsOf(
            cluster.list(ApiVersions.AGENT_INSTALL, "InfraEnv").stream()
                .map(e -> string(e, "status", "isoDownloadURL") + " live-iso")
                .toList());
    for (GenericKubernetesResource machine : cluster.controlPlaneMachines()) {
      assertThat(conditionTrue(machine, "UpToDate"))
          .as("UpToDate on %s", machine.getMetadata().getName())
          .isTrue();
    }
    // How often the API server refused a write of ours for a conflict (each retried).
    long ourConflicts =
        AuditLog.read(world.world().hubAuditLog()).stream()
            .filter(r -> r.namespace().equals(cluster.namespace()))
            .filter(
                r ->
                    Arrays.stream(ProviderJar.values())
                        .anyMatch(jar -> r.userAgent().startsWith(jar.userAgentPrefix)))
            .filter(r -> r.code() == 409)
            .count();
    LOG.info(
        "Conflicts: installed in {} s while another writer wrote {} times ({}) to {} objects, {} of"
            + " its read-modify-writes redone after a conflict; our providers met {} conflicts;"
            + " no write lost",
        installed.toSeconds(),
        other.writes().values().stream().mapToInt(Integer::intValue).sum(),
        other.writes(),
        other.touched().size(),
        other.conflicts(),
        ourConflicts);
  }
}
