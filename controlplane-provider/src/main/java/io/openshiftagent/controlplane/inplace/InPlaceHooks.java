package io.openshiftagent.controlplane.inplace;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.UnaryOperator;

/**
 * Cluster API's in-place update hooks (Runtime SDK, {@code
 * hooks.runtime.cluster.x-k8s.io/v1alpha1}, feature gate {@code InPlaceUpdates}) for what OpenShift
 * updates in place: the Kubernetes version. The Cluster Version Operator and the Machine Config
 * Operator update every Node's kubelet, so a change of a Machine's or MachineSet's {@code version}
 * needs no new host; any other change does, and is left to Cluster API's rollout.
 *
 * <ul>
 *   <li>{@code CanUpdateMachine}, {@code CanUpdateMachineSet}: a patch of the current spec covering
 *       its {@code version} alone; Cluster API updates in place only when that patch makes the
 *       current spec the desired one.
 *   <li>{@code UpdateMachine}: done once the Machine's Node runs the kubelet of {@code
 *       spec.version}; until then "retry later", saying what it waits for.
 * </ul>
 */
public final class InPlaceHooks {
  static final String API = "hooks.runtime.cluster.x-k8s.io/v1alpha1";
  static final String ROOT = "/hooks.runtime.cluster.x-k8s.io/v1alpha1/";

  /** Seconds between two looks at a Node whose kubelet is not yet at the version. */
  static final int RETRY_SECONDS = 15;

  private static final ObjectMapper JSON = new ObjectMapper();
  private static final JsonNodeFactory NODES = JsonNodeFactory.instance;

  /** The handlers, by name, with their hooks. */
  static final Map<String, String> HANDLERS =
      Map.of(
          "can-update-machine", "CanUpdateMachine",
          "can-update-machineset", "CanUpdateMachineSet",
          "update-machine", "UpdateMachine");

  private final Kubelets kubelets;

  public InPlaceHooks(Kubelets kubelets) {
    this.kubelets = kubelets;
  }

  /** The paths Cluster API posts to, with their handlers (discovery's included). */
  public Map<String, UnaryOperator<String>> routes() {
    Map<String, UnaryOperator<String>> routes = new LinkedHashMap<>();
    routes.put(ROOT + "discovery", body -> discovery());
    routes.put(path("CanUpdateMachine", "can-update-machine"), this::canUpdateMachine);
    routes.put(path("CanUpdateMachineSet", "can-update-machineset"), this::canUpdateMachineSet);
    routes.put(path("UpdateMachine", "update-machine"), this::updateMachine);
    return routes;
  }

  /** Cluster API's path of a handler: the hook's and the handler's names in lower case. */
  static String path(String hook, String handler) {
    return ROOT + hook.toLowerCase() + "/" + handler;
  }

  String discovery() {
    ObjectNode response = response("DiscoveryResponse");
    var handlers = response.putArray("handlers");
    HANDLERS.entrySet().stream()
        .sorted(Map.Entry.comparingByKey())
        .forEach(
            handler -> {
              ObjectNode h = handlers.addObject().put("name", handler.getKey());
              h.putObject("requestHook").put("apiVersion", API).put("hook", handler.getValue());
              h.put("timeoutSeconds", 10);
              // A refusal we could not give must not become a replacement of every worker.
              h.put("failurePolicy", "Fail");
            });
    return write(response);
  }

  String canUpdateMachine(String body) {
    JsonNode request = read(body);
    String current = text(request, "current", "machine", "spec", "version");
    String desired = text(request, "desired", "machine", "spec", "version");
    ObjectNode response = response("CanUpdateMachineResponse");
    if (!current.equals(desired)) {
      response.set("machinePatch", versionPatch(List.of("spec"), desired));
    }
    return write(response);
  }

  String canUpdateMachineSet(String body) {
    JsonNode request = read(body);
    String current = text(request, "current", "machineSet", "spec", "template", "spec", "version");
    String desired = text(request, "desired", "machineSet", "spec", "template", "spec", "version");
    ObjectNode response = response("CanUpdateMachineSetResponse");
    if (!current.equals(desired)) {
      response.set("machineSetPatch", versionPatch(List.of("spec", "template", "spec"), desired));
    }
    return write(response);
  }

  String updateMachine(String body) {
    JsonNode machine = read(body).path("desired").path("machine");
    String namespace = machine.path("metadata").path("namespace").asText("");
    String name = machine.path("metadata").path("name").asText("");
    String version = machine.path("spec").path("version").asText("");
    ObjectNode response = response("UpdateMachineResponse");
    if (version.isEmpty()) {
      response.put("message", "no Kubernetes version asked for: nothing to update");
      return write(response.put("retryAfterSeconds", 0));
    }
    Kubelets.Look look =
        kubelets.look(namespace, name, machine.path("spec").path("clusterName").asText(""));
    if (look.version().filter(version::equals).isPresent()) {
      response.put("message", "Node " + look.node() + " runs kubelet " + version);
      return write(response.put("retryAfterSeconds", 0));
    }
    String waiting =
        look.version()
            .map(
                running ->
                    "Node "
                        + look.node()
                        + " runs kubelet "
                        + running
                        + ", "
                        + version
                        + " required: waiting for OpenShift's upgrade to update it in place"
                        + " (the ClusterVersion's and the MachineConfigPools' progress)")
            .orElse(look.why() + "; looking again in " + RETRY_SECONDS + " s");
    return write(response.put("message", waiting).put("retryAfterSeconds", RETRY_SECONDS));
  }

  /**
   * A JSON merge patch setting {@code version} at {@code at} (null removes it); Cluster API's
   * {@code Patch.patch} is a Go {@code []byte}, base64 in JSON.
   */
  private static ObjectNode versionPatch(List<String> at, String version) {
    ObjectNode root = NODES.objectNode();
    ObjectNode spec = root;
    for (String field : at) {
      spec = spec.putObject(field);
    }
    if (version.isEmpty()) {
      spec.putNull("version");
    } else {
      spec.put("version", version);
    }
    byte[] patch = write(root).getBytes(StandardCharsets.UTF_8);
    ObjectNode p = NODES.objectNode().put("patchType", "JSONMergePatch");
    return p.put("patch", Base64.getEncoder().encodeToString(patch));
  }

  private static ObjectNode response(String kind) {
    return NODES.objectNode().put("apiVersion", API).put("kind", kind).put("status", "Success");
  }

  private static String text(JsonNode node, String... path) {
    JsonNode at = node;
    for (String field : path) {
      at = at.path(field);
    }
    return at.asText("");
  }

  private static JsonNode read(String body) {
    try {
      return JSON.readTree(body);
    } catch (JsonProcessingException e) {
      throw new IllegalArgumentException("the request is not JSON: " + e.getOriginalMessage(), e);
    }
  }

  private static String write(JsonNode node) {
    try {
      return JSON.writeValueAsString(node);
    } catch (JsonProcessingException e) {
      throw new IllegalStateException(e);
    }
  }
}
