package io.openshiftagent.bootstrap.agent;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.client.informers.cache.ItemStore;
import io.fabric8.kubernetes.client.utils.Serialization;
import io.openshiftagent.api.external.assisted.Agent;
import org.junit.jupiter.api.Test;

/**
 * What the Agent controller's cache keeps of an Agent, and which of its updates wake the
 * controller: of the inventory, only what rootDeviceHints can match of the disks, and only while
 * the Agent is not approved.
 */
class AgentCacheTest {
  /** An Agent as assisted-service writes it, with a disk's every field and the rest of a host. */
  static Agent agent(boolean approved, String diskSerial) {
    return Serialization.unmarshal(
        """
        {"apiVersion": "agent-install.openshift.io/v1beta1", "kind": "Agent",
         "metadata": {"name": "a", "namespace": "ns", "generation": 1},
         "spec": {"approved": %s, "role": ""},
         "status": {
           "progress": {"currentStage": "Installing", "stageStartedAt": "2026-11-29T19:00:00Z"},
           "validationsInfo": {"hardware": [{"id": "has-min-valid-disks", "status": "success"}]},
           "inventory": {
             "hostname": "host-0",
             "cpu": {"count": 16},
             "disks": [{"id": "/dev/disk/by-id/wwn-0x5000c500", "name": "sdb", "path": "/dev/sdb",
               "byPath": "/dev/disk/by-path/pci-0000:3b:00.0-scsi-0:0:1:0", "byID": "x",
               "driveType": "HDD", "hctl": "1:0:1:0", "model": "ST2400MM0129",
               "vendor": "SEAGATE", "serial": "%s", "wwn": "0x5000c500", "sizeBytes": 2400476553216,
               "smart": "{\\"json_format_version\\":[1,0]}", "ioPerf": {"syncDuration": 7},
               "installationEligibility": {"eligible": false,
                 "notEligibleReasons": ["Disk is removable"]}}]}}}
        """
            .formatted(approved, diskSerial),
        Agent.class);
  }

  static Agent cached(Agent agent) {
    ItemStore<Agent> store = AgentCaches.agentStore();
    store.put("ns/a", agent);
    return store.get("ns/a");
  }

  @Test
  void anAgentNotApprovedKeepsWhatHintsCanMatchOfItsDisksAndNothingElseOfItsInventory() {
    Agent kept = cached(agent(false, "WBN12345"));

    assertThat(Serialization.asJson(kept.getStatus()))
        .isEqualTo(
            "{\"inventory\":{\"disks\":[{\"id\":\"/dev/disk/by-id/wwn-0x5000c500\","
                + "\"name\":\"sdb\",\"path\":\"/dev/sdb\","
                + "\"byPath\":\"/dev/disk/by-path/pci-0000:3b:00.0-scsi-0:0:1:0\","
                + "\"hctl\":\"1:0:1:0\",\"model\":\"ST2400MM0129\",\"vendor\":\"SEAGATE\","
                + "\"serial\":\"WBN12345\",\"wwn\":\"0x5000c500\",\"sizeBytes\":2400476553216,"
                + "\"driveType\":\"HDD\",\"installationEligibility\":{\"eligible\":false,"
                + "\"notEligibleReasons\":[\"Disk is removable\"]}}]},"
                + "\"progress\":{\"currentStage\":\"Installing\"}}");
  }

  @Test
  void anApprovedAgentKeepsNoInventory() {
    Agent kept = cached(agent(true, "WBN12345"));

    assertThat(kept.getStatus().inventory).isNull();
    assertThat(kept.getStatus().progress.currentStage).isEqualTo("Installing");
  }

  @Test
  void aChangedDiskWakesTheControllerOnlyWhileTheAgentIsNotApproved() {
    AgentReconciler.RelevantAgentChange relevant = new AgentReconciler.RelevantAgentChange();

    assertThat(relevant.accept(cached(agent(false, "WBN99999")), cached(agent(false, "WBN12345"))))
        .isTrue();
    assertThat(relevant.accept(cached(agent(false, "WBN12345")), cached(agent(false, "WBN12345"))))
        .isFalse();
    assertThat(relevant.accept(cached(agent(true, "WBN99999")), cached(agent(true, "WBN12345"))))
        .isFalse();
  }
}
