package io.openshiftagent.simulator;

import com.fasterxml.jackson.databind.JsonNode;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.openshiftagent.simulator.assisted.AgentIgnition;
import io.openshiftagent.simulator.assisted.Agents;
import io.openshiftagent.simulator.assisted.AssistedServiceProcess;
import io.openshiftagent.simulator.assisted.DiscoveryAgent;
import io.openshiftagent.simulator.assisted.Machine;
import io.openshiftagent.simulator.assisted.NetworkSegment;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;

/**
 * What a booted host runs ({@link HostBoots}): a discovery ignition starts the discovery agent,
 * which speaks the real assisted-service's REST API ({@link DiscoveryAgent}). A live ISO's ignition
 * is fetched from the service as assisted-image-service fetches it when it serves the ISO; a disk
 * image boots with its user data as ignition. Each host is a {@link Machine} on its namespace's lab
 * segment ({@link LabNetworks}): its hardware UUID (the agent's host id) derived from the
 * BareMetalHost's UID, its NIC the host's boot MAC with an address leased on the segment.
 *
 * <p>Installing, the machine's installer waits where a real one waits for other machines (the
 * bootstrap host for the control plane, a worker for the control plane to serve its ignition), and
 * once it reboots into the installed system its kubelet registers the Node ({@link
 * InstalledCluster#kubeletRegisters}).
 */
final class DiscoveryAgents extends Actor implements HostBoots {
  /** How often a host whose live ISO the image service could not serve tries to boot it again. */
  private static final Duration BOOT_RETRY = Duration.ofSeconds(2);

  private final LabNetworks lab;
  private final InstalledCluster installed;
  private final AssistedServiceProcess service;
  private final Agents agents;

  /** The agent running on each host, by BareMetalHost UID. */
  private final Map<String, DiscoveryAgent> running = new ConcurrentHashMap<>();

  /** Namespace → why the installer fails on its hosts (a fault tests inject). */
  private final Map<String, String> failingInstallers = new ConcurrentHashMap<>();

  /** Namespaces whose hosts hang before their operating system starts (a fault tests inject). */
  private final Set<String> hangingBoots = ConcurrentHashMap.newKeySet();

  /** What is wrong with a host's machine, by namespace/name (a fault tests inject). */
  private final Map<String, Set<Machine.Fault>> faults = new ConcurrentHashMap<>();

  /** Hosts whose live ISO is not served yet (logged once), by BareMetalHost UID. */
  private final Set<String> waitingForIso = ConcurrentHashMap.newKeySet();

  /** The image each powered-on host booted, by BareMetalHost UID. */
  private final Map<String, String> poweredOn = new ConcurrentHashMap<>();

  DiscoveryAgents(
      KubernetesClient client,
      LabNetworks lab,
      InstalledCluster installed,
      AssistedServiceProcess service,
      DiscoveryAgent.Pacing pacing) {
    super(client);
    this.lab = lab;
    this.installed = installed;
    this.service = service;
    this.agents = new Agents(pacing);
  }

  @Override
  void start() {
    // Reacts to hosts booting, handed over by the hardware (Hosts).
  }

  @Override
  public void booted(BootedHost booted) {
    poweredOn.put(booted.bareMetalHost().getMetadata().getUid(), booted.imageUrl());
    actOn(booted.bareMetalHost(), () -> boot(booted));
  }

  private void boot(BootedHost booted) {
    GenericKubernetesResource host = booted.bareMetalHost();
    if (!booted.imageUrl().equals(poweredOn.get(host.getMetadata().getUid()))) {
      return; // switched off, or booting something else since
    }
    if (hangingBoots.contains(namespace(host))) {
      after(BOOT_RETRY, () -> boot(booted));
      return;
    }
    Optional<AgentIgnition> ignition;
    if (booted.liveIso()) {
      Optional<String> served = liveIsoIgnition(booted.imageUrl());
      if (served.isEmpty()) {
        if (waitingForIso.add(host.getMetadata().getUid())) {
          log.info(
              "host {}/{}: the live ISO is not served (yet); booting again every {} s",
              namespace(host),
              name(host),
              BOOT_RETRY.toSeconds());
        }
        after(BOOT_RETRY, () -> boot(booted));
        return;
      }
      waitingForIso.remove(host.getMetadata().getUid());
      ignition = AgentIgnition.parse(served.get());
    } else {
      ignition = booted.userData().flatMap(AgentIgnition::parse);
    }
    if (ignition.isEmpty()) {
      log.info(
          "host {}/{} booted {}, which starts no discovery agent",
          namespace(host),
          name(host),
          booted.imageUrl());
      return;
    }
    NetworkSegment segment = lab.segment(namespace(host));
    String mac = Fields.string(host, "spec", "bootMACAddress").toLowerCase(Locale.ROOT);
    Machine machine =
        new Machine(
            hardwareUuid(host),
            name(host),
            mac,
            segment.lease(mac),
            segment.gateway(),
            16,
            64L << 30,
            faults.getOrDefault(key(host), Set.of()));
    DiscoveryAgent previous =
        running.put(
            host.getMetadata().getUid(),
            agents.boot(machine, segment, ignition.get(), new Installing(host)));
    if (previous != null) {
      previous.close();
    }
  }

  private Optional<String> liveIsoIgnition(String isoUrl) {
    try {
      return agents.liveIsoIgnition(isoUrl, service.restRoot(), service.caPem());
    } catch (IOException unreachable) {
      return Optional.empty();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return Optional.empty();
    }
  }

  @Override
  public void switchedOff(GenericKubernetesResource host) {
    poweredOn.remove(host.getMetadata().getUid());
    waitingForIso.remove(host.getMetadata().getUid());
    DiscoveryAgent agent = running.remove(host.getMetadata().getUid());
    if (agent != null) {
      agent.close();
      lab.segment(namespace(host)).detach(agent.machine());
    }
  }

  /**
   * From now on the installer fails on every host of {@code namespace} once it has started
   * ("Writing image to disk" fails with {@code reason}), as a broken disk makes it fail.
   */
  void failInstallers(String namespace, String reason) {
    failingInstallers.put(namespace, reason);
  }

  /**
   * While set, the hosts of {@code namespace} that power on hang before their operating system
   * starts (no discovery agent, no Agent); once cleared, they boot. Hosts of other namespaces are
   * not affected.
   */
  void hangBoots(String namespace, boolean hang) {
    if (hang) {
      hangingBoots.add(namespace);
    } else {
      hangingBoots.remove(namespace);
    }
  }

  /** Starts or stops NTP on the network of {@code namespace}'s hosts. */
  void serveNtp(String namespace, boolean serve) {
    lab.segment(namespace).serveNtp(serve);
  }

  /**
   * From now on the machine of BareMetalHost {@code namespace/host} has {@code wrong} wrong with it
   * (none: it is put right): when it boots, or at once if its agent runs, which then reports it.
   */
  void hostFaults(String namespace, String host, Set<Machine.Fault> wrong) {
    faults.put(namespace + "/" + host, Set.copyOf(wrong));
    GenericKubernetesResource bareMetalHost =
        resource(ApiVersions.METAL3, "BareMetalHost", namespace, host).get();
    DiscoveryAgent agent =
        bareMetalHost == null ? null : running.get(bareMetalHost.getMetadata().getUid());
    if (agent != null) {
      agent.refit(agent.machine().withFaults(wrong));
      if (wrong.isEmpty()) {
        log.info("host {}/{}: its machine is put right", namespace, host);
      } else {
        log.info("host {}/{}: its machine now has {} wrong with it", namespace, host, wrong);
      }
    }
  }

  /** The machine's hardware UUID, which its discovery agent registers as the host id. */
  static UUID hardwareUuid(GenericKubernetesResource host) {
    return UUID.nameUUIDFromBytes(host.getMetadata().getUid().getBytes(StandardCharsets.UTF_8));
  }

  /** The installer on a machine of {@code namespace}, and what the machine does after it. */
  private final class Installing implements DiscoveryAgent.Installation {
    private final String namespace;
    private final GenericKubernetesResource bareMetalHost;

    Installing(GenericKubernetesResource bareMetalHost) {
      this.namespace = namespace(bareMetalHost);
      this.bareMetalHost = bareMetalHost;
    }

    /**
     * The bootstrap host leaves {@code Waiting for control plane} once the other control-plane
     * Nodes are Ready; a worker reboots once a control-plane Node serves its ignition.
     */
    @Override
    public boolean mayEnter(String stage, JsonNode request) {
      String role = request.path("role").asText();
      int controlPlane = request.path("control_plane_count").asInt(1);
      String host = request.path("host_id").asText();
      if ("bootstrap".equals(role) && "Waiting for bootkube".equals(stage) && controlPlane > 1) {
        return readyControlPlaneNodes(host) >= controlPlane - 1;
      }
      if ("worker".equals(role) && "Rebooting".equals(stage)) {
        return readyControlPlaneNodes(host) >= 1;
      }
      return true;
    }

    private long readyControlPlaneNodes(String host) {
      return installed
          .workloadOfAgent(namespace, host)
          .map(
              workload ->
                  workload
                      .nodes()
                      .withLabel("node-role.kubernetes.io/control-plane")
                      .list()
                      .getItems()
                      .stream()
                      .filter(DiscoveryAgents::ready)
                      .count())
          .orElse(0L);
    }

    @Override
    public String failure(String stage, JsonNode request) {
      return "Writing image to disk".equals(stage) ? failingInstallers.get(namespace) : null;
    }

    @Override
    public void rebooted(DiscoveryAgent agent, JsonNode request) {
      String role = request.path("role").asText();
      installed.kubeletRegisters(
          namespace,
          agent.machine().hostId().toString(),
          !"worker".equals(role),
          bareMetalHost,
          agent.machine().hostname());
    }
  }

  static boolean ready(Node node) {
    return node.getStatus() != null
        && node.getStatus().getConditions() != null
        && node.getStatus().getConditions().stream()
            .anyMatch(c -> "Ready".equals(c.getType()) && "True".equals(c.getStatus()));
  }

  @Override
  public void close() {
    running.values().forEach(DiscoveryAgent::close);
    agents.close();
    super.close();
  }
}
