package io.openshiftagent.simulator.e2e;

import static io.openshiftagent.simulator.Fields.findCondition;
import static io.openshiftagent.simulator.Fields.string;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.openshiftagent.simulator.ApiVersions;
import java.time.Instant;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * When assisted-service said some words of one host (its Agent's {@code Validated} message, which
 * the service's Agent controller writes) and when the host's Machine did (its {@code
 * BootstrapConfigReady} message, which names the host), and when each stopped saying them. It looks
 * every half second from a thread of its own from its start, before the host registers, so that the
 * first time the service said them is known however long the test waits elsewhere.
 */
final class HostWordsWatch implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(HostWordsWatch.class);

  private final ClusterScenario cluster;
  private final String host;
  private final String words;
  private final ScheduledExecutorService looks = Executors.newSingleThreadScheduledExecutor();

  private volatile Instant serviceSaid;
  private volatile Instant failingSince;
  private volatile Instant machineSaid;
  private volatile String machine;
  private volatile String machineMessage;
  private volatile Instant serviceStopped;
  private volatile Instant machineStopped;

  private HostWordsWatch(ClusterScenario cluster, String host, String words) {
    this.cluster = cluster;
    this.host = host;
    this.words = words;
  }

  /** Watches for {@code words} of BareMetalHost {@code host} from now on. */
  static HostWordsWatch start(ClusterScenario cluster, String host, String words) {
    HostWordsWatch watch = new HostWordsWatch(cluster, host, words);
    watch.looks.scheduleWithFixedDelay(watch::look, 0, 500, TimeUnit.MILLISECONDS);
    return watch;
  }

  private void look() {
    try {
      Instant now = Instant.now();
      Optional<Map<String, Object>> validated = validated();
      boolean serviceSays =
          validated.map(c -> String.valueOf(c.get("message")).contains(words)).orElse(false);
      if (serviceSaid == null && serviceSays) {
        serviceSaid = now;
        failingSince = Instant.parse((String) validated.get().get("lastTransitionTime"));
      } else if (serviceSaid != null && serviceStopped == null && !serviceSays) {
        serviceStopped = now;
      }
      Optional<String> onMachine = currentMachineMessage();
      boolean machineSays = onMachine.map(m -> m.contains(words)).orElse(false);
      if (machineSaid == null && machineSays) {
        machineSaid = now;
        machineMessage = onMachine.get();
      } else if (machineSaid != null && machineStopped == null && !machineSays) {
        machineStopped = now;
        machineMessage = onMachine.orElse("");
      }
    } catch (RuntimeException e) {
      LOG.debug("looking at host {}: {}", host, e.toString());
    }
  }

  /** The Validated condition of the host's Agent (BMAC names the Agent's host as the BMH). */
  private Optional<Map<String, Object>> validated() {
    return cluster.list(ApiVersions.AGENT_INSTALL, "Agent").stream()
        .filter(
            a ->
                host.equals(string(a, "spec", "hostname"))
                    || host.equals(string(a, "status", "inventory", "hostname")))
        .findFirst()
        .flatMap(a -> findCondition(a, "Validated"));
  }

  /**
   * The BootstrapConfigReady message of the host's Machine: the Machine whose message names the
   * host first, and the same Machine after.
   */
  private Optional<String> currentMachineMessage() {
    for (GenericKubernetesResource m : cluster.controlPlaneMachines()) {
      Optional<String> message =
          findCondition(m, "BootstrapConfigReady").map(c -> String.valueOf(c.get("message")));
      String name = ClusterScenario.name(m);
      if (name.equals(machine)
          || machine == null
              && message.filter(t -> t.startsWith("host " + host + " (")).isPresent()) {
        machine = name;
        return message;
      }
    }
    return Optional.empty();
  }

  String host() {
    return host;
  }

  /** When the service first said the words; null before. */
  Instant serviceSaid() {
    return serviceSaid;
  }

  /** Since when the service had said the host failed its validations, as it first said them. */
  Instant failingSince() {
    return failingSince;
  }

  /** When the Machine first said the words; null before. */
  Instant machineSaid() {
    return machineSaid;
  }

  /** The Machine's message when it first said the words, or when it stopped. */
  String machineMessage() {
    return machineMessage;
  }

  /** When the service stopped saying the words, after it said them; null before. */
  Instant serviceStopped() {
    return serviceStopped;
  }

  /** When the Machine stopped saying the words, after it said them; null before. */
  Instant machineStopped() {
    return machineStopped;
  }

  @Override
  public void close() {
    looks.shutdownNow();
  }
}
