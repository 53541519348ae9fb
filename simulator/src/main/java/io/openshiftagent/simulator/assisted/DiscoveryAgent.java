package io.openshiftagent.simulator.assisted;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.fabric8.kubernetes.client.utils.Serialization;
import java.io.IOException;
import java.net.http.HttpClient;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The discovery agent of one {@link Machine}, speaking assisted-service's REST API as
 * assisted-installer-agent does: it registers the host with the InfraEnv its discovery ignition
 * names, then polls for instructions and answers each step ({@link StepAnswers}: inventory, NTP,
 * domain resolution, connectivity, VIPs, disk speed, image availability) truthfully for its machine
 * and network, so that the service's own validations decide. Told to exit (binding), it starts
 * again as systemd would. Given the install step, it plays the installer on the host: reports the
 * stages of its role up to {@code Rebooting}, then the machine reboots into the installed system
 * and the agent is gone ({@link Installation#rebooted}).
 *
 * <p>Time is compressed as elsewhere in the world: the service's {@code next_instruction_seconds}
 * (60 s) is scaled by {@link Pacing#timeScale}.
 */
public final class DiscoveryAgent implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(DiscoveryAgent.class);
  private static final ObjectMapper JSON = Serialization.jsonMapper();

  /**
   * How fast simulated time runs for agents.
   *
   * @param timeScale real seconds per simulated second (e.g. 1/60: the service's 60 s between
   *     instructions become 1 s)
   * @param minimumDelay the shortest wait between two requests
   * @param installStep the time between two install stages on the host
   */
  public record Pacing(double timeScale, Duration minimumDelay, Duration installStep) {
    Duration scaled(double seconds) {
      long millis = Math.round(seconds * 1000 * timeScale);
      return Duration.ofMillis(Math.max(minimumDelay.toMillis(), millis));
    }
  }

  /** What the host does around its installation; the world decides. */
  public interface Installation {
    /**
     * Whether the installer may go on to {@code stage} (e.g. the bootstrap host waits for the
     * control plane); asked again after each install step's time until it says yes.
     *
     * @param request the install step's request (role, cluster_id, control_plane_count...)
     */
    default boolean mayEnter(String stage, JsonNode request) {
      return true;
    }

    /**
     * Why the installer fails before {@code stage} (a fault the machine plays, e.g. its disk), or
     * null when it does not: the agent then reports stage {@code Failed} with this as its progress
     * info, as the real installer does, and the service decides what the failure means.
     */
    default String failure(String stage, JsonNode request) {
      return null;
    }

    /** The machine rebooted into the installed system; its discovery agent is gone. */
    default void rebooted(DiscoveryAgent agent, JsonNode request) {}
  }

  private final NetworkSegment network;
  private final AgentIgnition ignition;
  private volatile Machine machine;
  private volatile StepAnswers answers;
  private final ServiceApi api;
  private final ScheduledExecutorService scheduler;
  private final Pacing pacing;
  private final Installation installation;
  private volatile boolean stopped;
  private volatile String lastStatus = "";

  DiscoveryAgent(
      Machine machine,
      NetworkSegment network,
      AgentIgnition ignition,
      HttpClient http,
      ScheduledExecutorService scheduler,
      Pacing pacing,
      Installation installation) {
    this.machine = machine;
    this.network = network;
    this.ignition = ignition;
    this.answers = new StepAnswers(machine, network);
    this.api =
        new ServiceApi(
            http,
            ignition.serviceUrl().toString(),
            ignition.token(),
            "openshift-agent-simulated-discovery-agent");
    this.scheduler = scheduler;
    this.pacing = pacing;
    this.installation = installation;
  }

  public Machine machine() {
    return machine;
  }

  public AgentIgnition ignition() {
    return ignition;
  }

  /**
   * The machine was put right, or broken, while it runs (a disk fitted, a gateway given): from the
   * next inventory step on the agent reports it as it is now, as the real agent does.
   */
  public void refit(Machine refitted) {
    if (!refitted.hostId().equals(machine.hostId())) {
      throw new IllegalArgumentException("another machine: " + refitted.hostId());
    }
    network.attach(refitted);
    answers = new StepAnswers(refitted, network);
    machine = refitted;
  }

  /** The agent starts (as its systemd unit does once the machine has booted). */
  void start() {
    schedule(this::register, Duration.ZERO);
  }

  private void register() {
    Map<String, Object> params =
        Map.of(
            "host_id", machine.hostId().toString(),
            "discovery_agent_version", ignition.agentVersion());
    HttpResponse<String> response = call("POST", hostsPath(), params);
    if (response != null && response.statusCode() / 100 == 2) {
      LOG.info(
          "host {} ({}) registered with InfraEnv {}",
          machine.hostname(),
          machine.hostId(),
          ignition.infraEnvId());
      schedule(this::poll, Duration.ZERO);
    } else {
      // As the real agent: try again later (the service may be down, or not know the InfraEnv yet).
      schedule(this::register, pacing.scaled(60));
    }
  }

  private void poll() {
    // The host's clock with every poll: the service checks it against its own.
    HttpResponse<String> response =
        call(
            "GET",
            hostPath() + "/instructions?timestamp=" + java.time.Instant.now().getEpochSecond(),
            null);
    if (response == null || response.statusCode() / 100 != 2) {
      if (response != null && response.statusCode() == 404) {
        // Deregistered (e.g. its Agent was deleted): the agent registers again.
        schedule(this::register, pacing.scaled(60));
      } else {
        schedule(this::poll, pacing.scaled(60));
      }
      return;
    }
    JsonNode steps = readTree(response.body());
    JsonNode install = null;
    for (JsonNode step : steps.path("instructions")) {
      String type = step.path("step_type").asText();
      List<String> args = new ArrayList<>();
      step.path("args").forEach(a -> args.add(a.asText()));
      StepAnswers.Reply reply = answers.answer(type, args);
      Map<String, Object> body =
          Map.of(
              "step_type", type,
              "step_id", step.path("step_id").asText(),
              "exit_code", reply.exitCode(),
              "output", reply.output(),
              "error", reply.error());
      call("POST", hostPath() + "/instructions", body);
      if ("install".equals(type) && reply.exitCode() == 0) {
        install = readTree(args.get(0));
      }
    }
    if (install != null) {
      JsonNode request = install;
      schedule(() -> runInstaller(request, installerStages(request), 0), pacing.installStep());
    } else if ("exit".equals(steps.path("post_step_action").asText())) {
      // systemd restarts the agent (Restart=always, RestartSec=3); it registers again.
      schedule(this::register, pacing.scaled(3));
    } else {
      schedule(this::poll, pacing.scaled(steps.path("next_instruction_seconds").asDouble(60)));
    }
  }

  /**
   * The stages the installer reports from the host itself, up to the reboot into the installed
   * system, for its role (the stage lists of internal/host/common.go; later stages come from the
   * cluster's controller).
   */
  static List<String> installerStages(JsonNode request) {
    String role = request.path("role").asText();
    boolean singleNode = request.path("control_plane_count").asInt(0) == 1;
    return switch (role) {
      case "bootstrap" ->
          singleNode
              ? List.of(
                  "Starting installation",
                  "Installing",
                  "Waiting for bootkube",
                  "Writing image to disk",
                  "Rebooting")
              : List.of(
                  "Starting installation",
                  "Installing",
                  "Writing image to disk",
                  "Waiting for control plane",
                  "Waiting for bootkube",
                  "Waiting for controller",
                  "Rebooting");
      case "worker" ->
          List.of(
              "Starting installation",
              "Installing",
              "Writing image to disk",
              "Waiting for control plane",
              "Rebooting");
      default ->
          List.of("Starting installation", "Installing", "Writing image to disk", "Rebooting");
    };
  }

  private void runInstaller(JsonNode request, List<String> stages, int next) {
    String stage = stages.get(next);
    if (!installation.mayEnter(stage, request)) {
      schedule(() -> runInstaller(request, stages, next), pacing.installStep());
      return;
    }
    String failure = installation.failure(stage, request);
    HttpResponse<String> response =
        call(
            "PUT",
            hostPath() + "/progress",
            failure == null
                ? Map.of("current_stage", stage, "progress_info", "")
                : Map.of("current_stage", "Failed", "progress_info", failure));
    if (response == null || response.statusCode() / 100 != 2) {
      schedule(() -> runInstaller(request, stages, next), pacing.installStep());
      return;
    }
    if (failure != null) {
      LOG.info("host {}: installation failed before {}: {}", machine.hostname(), stage, failure);
      stopped = true;
      return;
    }
    LOG.info("host {}: {}", machine.hostname(), stage);
    if (next + 1 < stages.size()) {
      schedule(() -> runInstaller(request, stages, next + 1), pacing.installStep());
    } else {
      stopped = true;
      installation.rebooted(this, request);
    }
  }

  private String hostsPath() {
    return "/infra-envs/" + ignition.infraEnvId() + "/hosts";
  }

  private String hostPath() {
    return hostsPath() + "/" + machine.hostId();
  }

  /** The answer, or null when the service could not be reached. */
  private HttpResponse<String> call(String method, String path, Object body) {
    try {
      HttpResponse<String> response = api.send(method, path, body);
      if (response.statusCode() / 100 != 2) {
        LOG.debug(
            "host {}: {} {} answered {}: {}",
            machine.hostname(),
            method,
            path,
            response.statusCode(),
            response.body());
      }
      return response;
    } catch (IOException e) {
      String status = e.getClass().getSimpleName();
      if (!status.equals(lastStatus)) {
        LOG.info("host {}: cannot reach assisted-service: {}", machine.hostname(), e.toString());
      }
      lastStatus = status;
      return null;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return null;
    }
  }

  private void schedule(Runnable work, Duration delay) {
    if (stopped || scheduler.isShutdown()) {
      return;
    }
    scheduler.schedule(
        () -> {
          if (stopped) {
            return;
          }
          try {
            work.run();
          } catch (RuntimeException e) {
            LOG.warn("host {}: agent step failed; retrying", machine.hostname(), e);
            schedule(work, pacing.scaled(60));
          }
        },
        delay.toMillis(),
        TimeUnit.MILLISECONDS);
  }

  private static JsonNode readTree(String json) {
    try {
      return JSON.readTree(json);
    } catch (IOException e) {
      throw new IllegalStateException("not JSON: " + json, e);
    }
  }

  /** The machine is switched off: the agent stops at once. */
  @Override
  public void close() {
    stopped = true;
  }
}
