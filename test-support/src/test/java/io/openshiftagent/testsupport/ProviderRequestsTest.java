package io.openshiftagent.testsupport;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Instant;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** The budget counts what the hub carried out; conflicts are counted apart. */
class ProviderRequestsTest {
  private static final String BOOTSTRAP = "openshift-agent-bootstrap/0.1.0 (bootstrap-provider_1)";
  private static final String CONTROL_PLANE =
      "openshift-agent-controlplane/0.1.0 (controlplane-provider_1)";

  @Test
  void conflictsAreCountedApartFromTheRequestsCarriedOut() {
    List<AuditLog.Request> audited =
        List.of(
            request("1", BOOTSTRAP, "patch", "agents", 409),
            request("2", BOOTSTRAP, "patch", "agents", 200),
            request("3", CONTROL_PLANE, "patch", "machines/status", 409),
            request("4", CONTROL_PLANE, "patch", "machines/status", 200),
            request("5", CONTROL_PLANE, "create", "machines", 201),
            request("6", "kube-controller-manager/v1.36.3", "patch", "machines", 200));

    ProviderRequests ours = ProviderRequests.of(audited, 2);

    assertThat(ours.perMachine()).isEqualTo(1.5);
    assertThat(ours.perMachine(ProviderJar.BOOTSTRAP)).isEqualTo(0.5);
    assertThat(ours.perMachine(ProviderJar.CONTROLPLANE)).isEqualTo(1.0);
    assertThat(ours.conflictsPerMachine()).isEqualTo(1.0);
    assertThat(ours.table())
        .contains("409 Conflict, written again")
        .containsPattern("patch agents +1 +openshift-agent-bootstrap")
        .containsPattern("patch machines/status +1 +openshift-agent-controlplane");
  }

  private static AuditLog.Request request(
      String id, String userAgent, String verb, String resource, int code) {
    Instant at = Instant.parse("2026-11-29T00:00:00Z").plusSeconds(Long.parseLong(id));
    return new AuditLog.Request(
        id, userAgent, verb, "", resource, "ns", "name", code, at, at, "user", Optional.empty());
  }
}
