package io.openshiftagent.simulator.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.parallel.Execution;
import org.junit.jupiter.api.parallel.ExecutionMode;
import org.junit.jupiter.api.parallel.ResourceAccessMode;
import org.junit.jupiter.api.parallel.ResourceLock;

/**
 * The Go provider's own examples, rendered with the variables its test playbook sets, applied to
 * our providers unchanged: its single-node OpenShift example (a pull secret, CAPM3's v1beta1 kinds)
 * and its highly available OKD example (no pull secret, no node name, the UUID label in quotes). No
 * release repository override: the hub's mirrors resolve the releases, as on a hub with mirrors.
 * ({@code ha.yaml} and {@code sno.yaml} are its multinode and single-node OKD examples in the
 * world's own manifests.)
 */
@ResourceLock(value = E2eWorld.WORLD, mode = ResourceAccessMode.READ)
class GoExamplesTest {
  @RegisterExtension static final E2eWorld world = new E2eWorld();

  private static final Map<String, String> PLAYBOOK =
      Map.of(
          "SSH_AUTHORIZED_KEY",
          "ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIPWCmCQBl8AFoeTGj8v52CkBt9PxUkUJ7Ss2++ELtgNq user@example",
          "PULL_SECRET",
          Base64.getEncoder()
              .encodeToString(
                  "{\"auths\":{\"registry.example.com\":{\"auth\":\"dXNlcjpwYXNz\"}}}"
                      .getBytes(StandardCharsets.UTF_8)),
          "RHCOS_IMAGE_URL",
          "https://example.com/rhcos-live.x86_64.qcow2",
          "RHCOS_CHECKSUM_URL",
          "https://example.com/sha256sum.txt");

  @Test
  @Execution(ExecutionMode.CONCURRENT)
  void itsSingleNodeOpenShiftExampleReachesAvailable() {
    ClusterScenario cluster = world.scenario("e2e-go-example-sno", "test-sno");
    cluster.enrolHosts(1);
    cluster.apply("/e2e/go-examples/sno.yaml", with("OPENSHIFT_VERSION", "4.20.0"));

    cluster.awaitInstalled(1);
    cluster.assertNodesAsTheGoProviderNamesThem();
  }

  @Test
  @Execution(ExecutionMode.CONCURRENT)
  void itsHighlyAvailableOkdExampleReachesAvailable() {
    ClusterScenario cluster = world.scenario("e2e-go-example-okd", "test-multinode-okd");
    cluster.enrolHosts(5);
    cluster.apply(
        "/e2e/go-examples/multinode-okd.yaml", with("OPENSHIFT_VERSION", "4.19.0-okd-scos.ec.6"));

    cluster.awaitInstalled(5);
    // The quoted label reached each Node as the host's UID, by which CAPM3 matched it.
    cluster.assertNodesCarryTheirHosts();
    assertThat(cluster.workerMachines()).hasSize(2);
  }

  private static Map<String, String> with(String name, String value) {
    Map<String, String> variables = new java.util.HashMap<>(PLAYBOOK);
    variables.put(name, value);
    return variables;
  }
}
