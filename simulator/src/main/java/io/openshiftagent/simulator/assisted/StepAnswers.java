package io.openshiftagent.simulator.assisted;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.fabric8.kubernetes.client.utils.Serialization;
import java.net.URI;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * A discovery agent's answers to assisted-service's steps, for one machine on its network: what
 * assisted-installer-agent's step commands would find there. Requests and answers are the JSON of
 * the service's swagger.yaml ({@code args[0]} of a step; the reply's {@code output}).
 */
final class StepAnswers {
  private static final ObjectMapper JSON = Serialization.jsonMapper();

  /** A step's result as the agent posts it. */
  record Reply(int exitCode, String output, String error) {
    static Reply ok(Object output) {
      try {
        return new Reply(0, output instanceof String s ? s : JSON.writeValueAsString(output), "");
      } catch (JsonProcessingException e) {
        throw new IllegalStateException(e);
      }
    }

    static Reply failed(String error) {
      return new Reply(-1, "", error);
    }
  }

  private final Machine machine;
  private final NetworkSegment network;

  StepAnswers(Machine machine, NetworkSegment network) {
    this.machine = machine;
    this.network = network;
  }

  Reply answer(String stepType, List<String> args) {
    return switch (stepType) {
      case "inventory" -> Reply.ok(machine.inventory());
      case "ntp-synchronizer" -> ntp(request(args));
      case "domain-resolution" -> domainResolution(request(args));
      case "connectivity-check" -> connectivity(request(args));
      case "verify-vips" -> verifyVips(request(args));
      case "free-network-addresses" -> freeAddresses(request(args));
      case "installation-disk-speed-check" -> diskSpeed(request(args));
      case "container-image-availability" -> imageAvailability(request(args));
      case "api-vip-connectivity-check" -> apiConnectivity(request(args));
      // The installer starts; it reports its progress by stage (DiscoveryAgent).
      case "install" -> Reply.ok("");
      // Nothing to collect or stop on a simulated machine; the steps succeed.
      case "logs-gather", "stop-installation" -> Reply.ok("");
      default -> Reply.failed("step " + stepType + " is not implemented by the simulated agent");
    };
  }

  private static JsonNode request(List<String> args) {
    try {
      return args.isEmpty() ? JSON.createObjectNode() : JSON.readTree(args.get(0));
    } catch (JsonProcessingException e) {
      throw new IllegalArgumentException("step arguments are not JSON: " + args, e);
    }
  }

  /**
   * The machine's clock follows the segment's gateway, which serves NTP (and any source asked),
   * unless the gateway's NTP is down: then no source answers.
   */
  private Reply ntp(JsonNode request) {
    List<Map<String, String>> sources = new ArrayList<>();
    sources.add(
        Map.of(
            "source_name",
            network.gateway(),
            "source_state",
            network.servesNtp() ? "synced" : "unreachable"));
    String asked = request.path("ntp_source").asText("");
    for (String source : asked.split(",")) {
      if (!source.isBlank() && !source.trim().equals(network.gateway())) {
        sources.add(
            Map.of(
                "source_name",
                source.trim(),
                "source_state",
                network.servesNtp() ? "combined" : "unreachable"));
      }
    }
    return Reply.ok(Map.of("ntp_sources", sources));
  }

  /** Each asked name through the segment's DNS. */
  private Reply domainResolution(JsonNode request) {
    List<Map<String, Object>> resolutions = new ArrayList<>();
    for (JsonNode domain : request.path("domains")) {
      String name = domain.path("domain_name").asText();
      resolutions.add(
          Map.of(
              "domain_name", name,
              "ipv4_addresses", network.resolve(name),
              "ipv6_addresses", List.of(),
              "cnames", List.of()));
    }
    return Reply.ok(Map.of("resolutions", resolutions));
  }

  /**
   * For each other host asked about: each of its addresses answers (L2, with its MAC; L3) when a
   * machine with that address and MAC is up on this segment.
   */
  private Reply connectivity(JsonNode request) {
    List<Map<String, Object>> remoteHosts = new ArrayList<>();
    for (JsonNode host : request) {
      List<Map<String, Object>> l2 = new ArrayList<>();
      List<Map<String, Object>> l3 = new ArrayList<>();
      for (JsonNode nic : host.path("nics")) {
        String mac = nic.path("mac").asText();
        for (JsonNode address : nic.path("ip_addresses")) {
          String ip = NetworkSegment.stripPrefix(address.asText());
          Optional<Machine> remote = network.at(ip);
          boolean reachable = remote.isPresent() && remote.get().macAddress().equalsIgnoreCase(mac);
          l2.add(
              Map.of(
                  "outgoing_nic",
                  Machine.NIC,
                  "outgoing_ip_address",
                  machine.ip(),
                  "remote_ip_address",
                  ip,
                  "remote_mac",
                  reachable ? mac : "",
                  "successful",
                  reachable));
          Map<String, Object> l3Entry = new LinkedHashMap<>();
          l3Entry.put("outgoing_nic", Machine.NIC);
          l3Entry.put("remote_ip_address", ip);
          l3Entry.put("successful", reachable);
          if (reachable) {
            l3Entry.put("average_rtt_ms", 0.2);
            l3Entry.put("packet_loss_percentage", 0.0);
          } else {
            l3Entry.put("packet_loss_percentage", 100.0);
          }
          l3.add(l3Entry);
        }
      }
      remoteHosts.add(
          Map.of(
              "host_id", host.path("host_id").asText(),
              "l2_connectivity", l2,
              "l3_connectivity", l3));
    }
    return Reply.ok(Map.of("remote_hosts", remoteHosts));
  }

  /** A VIP is free when nothing on the segment answers at it (an ARP probe finds no one). */
  private Reply verifyVips(JsonNode request) {
    List<Map<String, String>> verified = new ArrayList<>();
    for (JsonNode vip : request) {
      String address = vip.path("vip").asText();
      verified.add(
          Map.of(
              "vip",
              address,
              "vip_type",
              vip.path("vip_type").asText(),
              "verification",
              network.inUse(address) ? "failed" : "succeeded"));
    }
    return Reply.ok(verified);
  }

  private Reply freeAddresses(JsonNode request) {
    List<Map<String, Object>> networks = new ArrayList<>();
    for (JsonNode cidr : request.path("ipv4_networks")) {
      if (!cidr.asText().equals(network.cidr())) {
        continue;
      }
      List<String> free = new ArrayList<>();
      String prefix = network.gateway().substring(0, network.gateway().lastIndexOf('.') + 1);
      for (int host = 1; host < 255; host++) {
        if (!network.inUse(prefix + host)) {
          free.add(prefix + host);
        }
      }
      networks.add(Map.of("network", cidr.asText(), "free_addresses", free));
    }
    return Reply.ok(networks);
  }

  /** fdatasync's 99th percentile on the machine's disk, below the 10 ms the service wants. */
  private Reply diskSpeed(JsonNode request) {
    String path = request.path("path").asText();
    return machine
        .disk(path)
        .map(disk -> Reply.ok(Map.of("path", path, "io_sync_duration", disk.fsyncMillis())))
        .orElseGet(() -> Reply.failed("no such disk: " + path));
  }

  /** The world's registry serves every image; a pull takes about two seconds. */
  /**
   * A day-2 host downloads its ignition from the installed cluster's machine config server at the
   * URL asked (its API name or VIP): it succeeds when the name resolves on the segment or the
   * address is one the lab's records name (an installed cluster's), with a minimal ignition; else
   * it fails as the lookup does.
   */
  private Reply apiConnectivity(JsonNode request) {
    String url = request.path("url").asText();
    String host = URI.create(url).getHost();
    if (host == null || network.resolve(host).isEmpty() && !network.isNamed(host)) {
      return Reply.ok(
          Map.of(
              "is_success",
              false,
              "url",
              url,
              "download_error",
              "Get \"" + url + "\": dial tcp: lookup " + host + ": no such host"));
    }
    return Reply.ok(
        Map.of(
            "is_success", true, "url", url, "ignition", "{\"ignition\":{\"version\":\"3.2.0\"}}"));
  }

  private Reply imageAvailability(JsonNode request) {
    List<Map<String, Object>> images = new ArrayList<>();
    for (JsonNode image : request.path("images")) {
      images.add(
          Map.of(
              "name", image.asText(),
              "result", "success",
              "size_bytes", 350_000_000.0,
              "time", 2.0,
              "download_rate", 175.0));
    }
    return Reply.ok(Map.of("images", images));
  }
}
