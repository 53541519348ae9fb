package io.openshiftagent.simulator;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.openshiftagent.api.external.ExternalKinds;
import io.openshiftagent.api.external.OwnedFieldsPatch;
import java.net.HttpURLConnection;
import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Plays the discovery agent of a booted host and its registration with assisted-service: a live ISO
 * of an InfraEnv (found by its {@code status.isoDownloadURL}), or a disk image whose user data is
 * an InfraEnv's discovery ignition (found by the InfraEnv id on the agent's command line), runs the
 * agent, which registers: the Agent appears under that InfraEnv with the host's inventory, as
 * assisted-service creates it.
 */
final class SimulatedDiscoveryAgent extends Actor implements HostBoots {
  /**
   * Registrations waiting for an Agent of the same name to go away: the same hardware, booted for
   * another InfraEnv, while its previous Agent is still being deleted.
   */
  private final Map<String, Runnable> waitingForAgentName = new ConcurrentHashMap<>();

  SimulatedDiscoveryAgent(KubernetesClient client) {
    super(client);
  }

  @Override
  void start() {
    watch(client, ApiVersions.AGENT_INSTALL, "Agent", agent -> {}, this::agentGone);
  }

  @Override
  public void booted(BootedHost booted) {
    GenericKubernetesResource host = booted.bareMetalHost();
    actOn(
        host,
        () ->
            (booted.liveIso()
                    ? infraEnvServingIso(host, booted.imageUrl())
                    : infraEnvOfDiscoveryIgnition(host, booted.userData()))
                .ifPresent(infraEnv -> registerAgent(host, infraEnv)));
  }

  private Optional<GenericKubernetesResource> infraEnvServingIso(
      GenericKubernetesResource host, String isoUrl) {
    Optional<GenericKubernetesResource> infraEnv =
        infraEnvs(host).stream()
            .filter(i -> isoUrl.equals(Fields.string(i, "status", "isoDownloadURL")))
            .findFirst();
    if (infraEnv.isEmpty()) {
      log.info("host {} booted {}, which no InfraEnv serves", name(host), isoUrl);
    }
    return infraEnv;
  }

  /**
   * A disk image boots with the host's user data as its ignition: the discovery ignition names the
   * InfraEnv its agent registers with.
   */
  private Optional<GenericKubernetesResource> infraEnvOfDiscoveryIgnition(
      GenericKubernetesResource host, Optional<String> userData) {
    Optional<String> id = userData.flatMap(DiscoveryIgnition::infraEnvId);
    if (id.isEmpty()) {
      log.info("host {} booted a disk image whose user data starts no discovery agent", name(host));
      return Optional.empty();
    }
    Optional<GenericKubernetesResource> infraEnv =
        infraEnvs(host).stream().filter(i -> id.get().equals(i.getMetadata().getUid())).findFirst();
    if (infraEnv.isEmpty()) {
      log.info("host {}: the discovery agent found no InfraEnv {}", name(host), id.get());
    }
    return infraEnv;
  }

  private List<GenericKubernetesResource> infraEnvs(GenericKubernetesResource host) {
    return cachedIn(ApiVersions.AGENT_INSTALL, "InfraEnv", namespace(host));
  }

  /**
   * The discovery agent registers: assisted-service creates the Agent under the InfraEnv, which
   * owns it, with the InfraEnv's agent labels and cluster.
   */
  private void registerAgent(GenericKubernetesResource host, GenericKubernetesResource infraEnv) {
    String agentName = hostId(host);
    GenericKubernetesResource existing =
        resource(ApiVersions.AGENT_INSTALL, "Agent", namespace(host), agentName).get();
    if (existing != null
        && !name(infraEnv).equals(Fields.label(existing, ExternalKinds.INFRAENV_LABEL))) {
      waitingForAgentName.put(
          namespace(host) + "/" + agentName, () -> registerAgent(host, infraEnv));
      return;
    }
    Map<String, String> labels = new HashMap<>(Fields.stringMap(infraEnv, "spec", "agentLabels"));
    labels.put(ExternalKinds.INFRAENV_LABEL, name(infraEnv));
    Map<String, Object> spec = new LinkedHashMap<>();
    spec.put("approved", false);
    spec.put("role", "");
    Map<String, String> clusterRef = Fields.stringMap(infraEnv, "spec", "clusterRef");
    if (!clusterRef.isEmpty()) {
      spec.put("clusterDeploymentName", clusterRef);
    }
    GenericKubernetesResource agent = new GenericKubernetesResource();
    agent.setApiVersion(ApiVersions.AGENT_INSTALL);
    agent.setKind("Agent");
    agent.setMetadata(
        new ObjectMetaBuilder()
            .withName(agentName)
            .withNamespace(namespace(host))
            .withLabels(labels)
            .withOwnerReferences(AssistedService.ownerReference(infraEnv))
            .build());
    agent.setAdditionalProperty("spec", spec);
    try {
      client.resource(agent).create();
    } catch (KubernetesClientException e) {
      if (e.getCode() != HttpURLConnection.HTTP_CONFLICT) {
        throw e;
      }
    }
    mergePatchStatus(
        resource(ApiVersions.AGENT_INSTALL, "Agent", namespace(host), agentName),
        new OwnedFieldsPatch()
            .set(inventory(host), "status", "inventory")
            .set(Map.of("state", "known"), "status", "debugInfo")
            .set(
                List.of(
                    Map.of(
                        "type", "Connected",
                        "status", "True",
                        "reason", "AgentIsConnected",
                        "message",
                            "The agent's connection to the installation service is unimpaired",
                        "lastTransitionTime", Fields.now())),
                "status",
                "conditions"));
    log.info(
        "host {} registered as Agent {} of InfraEnv {}", name(host), agentName, name(infraEnv));
  }

  private void agentGone(GenericKubernetesResource agent) {
    Runnable registration = waitingForAgentName.remove(key(agent));
    if (registration != null) {
      registration.run();
    }
  }

  /** The host's hardware id, which the discovery agent uses as the Agent's name. */
  static String hostId(GenericKubernetesResource host) {
    return UUID.nameUUIDFromBytes(host.getMetadata().getUid().getBytes(StandardCharsets.UTF_8))
        .toString();
  }

  private static Map<String, Object> inventory(GenericKubernetesResource host) {
    String mac = Fields.string(host, "spec", "bootMACAddress");
    Map<String, Object> inventory = new LinkedHashMap<>();
    inventory.put("hostname", name(host));
    inventory.put(
        "interfaces",
        List.of(
            Map.of(
                "name",
                "eno1",
                "macAddress",
                mac == null ? "00:00:00:00:00:01" : mac,
                "ipV4Addresses",
                List.of("192.168.222.10/24"),
                "ipV6Addresses",
                List.of(),
                "flags",
                List.of("up", "broadcast", "multicast"),
                "speedMbps",
                10000)));
    inventory.put(
        "disks",
        List.of(
            Map.of(
                "id",
                "/dev/disk/by-id/wwn-0x" + hostId(host).replace("-", "").substring(0, 16),
                "name",
                "sda",
                "path",
                "/dev/sda",
                "driveType",
                "SSD",
                "sizeBytes",
                480_000_000_000L,
                "bootable",
                true,
                "installationEligibility",
                Map.of("eligible", true, "notEligibleReasons", List.of()))));
    inventory.put("cpu", Map.of("count", 16, "architecture", "x86_64"));
    inventory.put("memory", Map.of("physicalBytes", 68_719_476_736L));
    return inventory;
  }
}
