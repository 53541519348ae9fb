package io.openshiftagent.simulator.assisted;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.fabric8.kubernetes.client.utils.Serialization;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** The agent's answers are what its machine and network would show: nothing is always true. */
class StepAnswersTest {
  private final NetworkSegment network = new NetworkSegment("192.168.222.0/24");
  private final Machine self = machine("52:54:00:00:00:01");
  private final Machine peer = machine("52:54:00:00:00:02");
  private final StepAnswers answers = new StepAnswers(self, network);

  private Machine machine(String mac) {
    return Machine.server("host-" + mac.substring(15), mac, network.lease(mac), network.gateway());
  }

  private JsonNode answer(String step, String request) throws Exception {
    StepAnswers.Reply reply = answers.answer(step, List.of(request));
    assertThat(reply.exitCode()).isZero();
    return Serialization.jsonMapper().readTree(reply.output());
  }

  @Test
  void leasesDistinctAddressesAndKeepsThemPerMac() {
    assertThat(self.ipv4()).isEqualTo("192.168.222.10/24");
    assertThat(peer.ipv4()).isEqualTo("192.168.222.11/24");
    assertThat(network.lease("52:54:00:00:00:01")).isEqualTo(self.ipv4());
  }

  @Test
  void aPeerAnswersOnlyWhenItIsUpWithThatMac() throws Exception {
    String request =
        "[{\"host_id\":\"h\",\"nics\":[{\"name\":\"eno1\",\"mac\":\"52:54:00:00:00:02\","
            + "\"ip_addresses\":[\"192.168.222.11/24\"]}]}]";
    JsonNode down = answer("connectivity-check", request);
    assertThat(down.at("/remote_hosts/0/l2_connectivity/0/successful").asBoolean()).isFalse();
    assertThat(down.at("/remote_hosts/0/l3_connectivity/0/successful").asBoolean()).isFalse();

    network.attach(peer);
    JsonNode up = answer("connectivity-check", request);
    assertThat(up.at("/remote_hosts/0/l2_connectivity/0/successful").asBoolean()).isTrue();
    assertThat(up.at("/remote_hosts/0/l2_connectivity/0/remote_mac").asText())
        .isEqualTo("52:54:00:00:00:02");
    assertThat(up.at("/remote_hosts/0/l3_connectivity/0/successful").asBoolean()).isTrue();

    String otherMac = request.replace("00:00:02", "00:00:09");
    assertThat(
            answer("connectivity-check", otherMac)
                .at("/remote_hosts/0/l2_connectivity/0/successful")
                .asBoolean())
        .isFalse();
  }

  @Test
  void theInventoryIsTheMachineAsItIsNow() throws Exception {
    JsonNode sound = answer("inventory", "");
    assertThat(sound.path("disks")).hasSize(3);
    assertThat(sound.at("/routes/0/destination").asText()).isEqualTo("0.0.0.0");

    JsonNode wrong =
        Serialization.jsonMapper()
            .readTree(
                new StepAnswers(
                        self.withFaults(
                            Set.of(Machine.Fault.SMALL_DISK, Machine.Fault.NO_DEFAULT_ROUTE)),
                        network)
                    .answer("inventory", List.of())
                    .output());
    assertThat(wrong.path("disks")).hasSize(1);
    assertThat(wrong.at("/disks/0/size_bytes").asLong()).isLessThan(100_000_000_000L);
    assertThat(wrong.path("routes")).isEmpty();
    assertThat(wrong.path("interfaces")).isEqualTo(sound.path("interfaces"));
  }

  @Test
  void aVipIsFreeUntilSomethingAnswersThere() throws Exception {
    network.attach(peer);
    JsonNode verified =
        answer(
            "verify-vips",
            "[{\"vip\":\"192.168.222.40\",\"vip_type\":\"api\"},"
                + "{\"vip\":\"192.168.222.11\",\"vip_type\":\"ingress\"}]");
    assertThat(verified.at("/0/verification").asText()).isEqualTo("succeeded");
    assertThat(verified.at("/1/verification").asText()).isEqualTo("failed");
  }

  @Test
  void resolvesWhatTheDnsHoldsAndNothingElse() throws Exception {
    network.record("api.c.lab.home", "192.168.222.40");
    network.record("*.apps.c.lab.home", "192.168.222.41");
    JsonNode resolved =
        answer(
            "domain-resolution",
            "{\"domains\":[{\"domain_name\":\"api.c.lab.home\"},"
                + "{\"domain_name\":\"console.apps.c.lab.home\"},"
                + "{\"domain_name\":\"validateNoWildcardDNS.c.lab.home.\"}]}");
    assertThat(resolved.at("/resolutions/0/ipv4_addresses/0").asText()).isEqualTo("192.168.222.40");
    assertThat(resolved.at("/resolutions/1/ipv4_addresses/0").asText()).isEqualTo("192.168.222.41");
    assertThat(resolved.at("/resolutions/2/ipv4_addresses")).isEmpty();
  }

  @Test
  void measuresOnlyItsOwnDisks() throws Exception {
    for (Machine.Disk disk : self.disks()) {
      for (String path : List.of(disk.id(), disk.path())) {
        JsonNode speed = answer("installation-disk-speed-check", "{\"path\":\"" + path + "\"}");
        assertThat(speed.path("io_sync_duration").asInt()).isLessThan(10);
      }
    }
    assertThat(self.disks())
        .extracting(Machine.Disk::driveType)
        .containsExactly("SSD", "HDD", "SSD");
    for (String path : List.of("/dev/sdz", peer.disks().get(1).id())) {
      assertThat(
              answers
                  .answer("installation-disk-speed-check", List.of("{\"path\":\"" + path + "\"}"))
                  .exitCode())
          .isNotZero();
    }
    assertThat(answers.answer("tang-connectivity-check", List.of("{}")).exitCode()).isNotZero();
  }
}
