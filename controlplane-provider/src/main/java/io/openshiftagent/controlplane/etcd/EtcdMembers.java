package io.openshiftagent.controlplane.etcd;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.dsl.ExecWatch;
import io.fabric8.kubernetes.client.dsl.base.PatchContext;
import io.fabric8.kubernetes.client.dsl.base.PatchType;
import io.fabric8.kubernetes.client.utils.Serialization;
import io.openshiftagent.controlplane.names.Names;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The writes to the installed cluster's etcd, as OpenShift documents them for replacing a control
 * plane host whose Machine API hooks do not exist ("Replacing an unhealthy etcd member"): the
 * departed member's peer, serving and metrics Secrets are deleted and the member is removed with
 * {@code etcdctl member remove} run in a healthy etcd pod ({@code oc rsh}: an exec into its {@code
 * etcdctl} container); the quorum guard is turned off while fewer than 3 members are left, and on
 * again afterwards.
 */
public final class EtcdMembers {
  private static final Logger LOG = LoggerFactory.getLogger(EtcdMembers.class);

  public static final String NAMESPACE = "openshift-etcd";
  static final String ETCDCTL_CONTAINER = "etcdctl";
  static final String POD_LABEL = "app";
  static final String POD_LABEL_VALUE = "etcd";

  /** The Secrets the etcd operator made for a member's Node. */
  public static List<String> secretsOf(String member) {
    return List.of(
        "etcd-peer-" + member, "etcd-serving-" + member, "etcd-serving-metrics-" + member);
  }

  private static final ObjectMapper JSON = new ObjectMapper();

  private final KubernetesClient workload;

  public EtcdMembers(KubernetesClient workload) {
    this.workload = workload;
  }

  /**
   * Removes the member of a Node that is gone, and its Secrets (first: the operator makes them only
   * for Nodes that exist, and a retry after a failure finds the member still unhealthy and does it
   * all again). Returns the ID of the member removed (hexadecimal, as etcdctl prints it), or empty
   * when it was no longer listed.
   */
  public Optional<String> remove(String member) {
    for (String secret : secretsOf(member)) {
      workload.secrets().inNamespace(NAMESPACE).withName(secret).delete();
    }
    Pod pod = healthyEtcdPod(member);
    Optional<String> id = idOf(etcdctl(pod, "member", "list", "-w", "json"), member);
    if (id.isPresent()) {
      etcdctl(pod, "member", "remove", id.get());
      LOG.info("removed etcd member {} ({}) through pod {}", member, id.get(), name(pod));
    }
    return id;
  }

  /**
   * The names of etcd's members, as {@code etcdctl member list} run in a Ready etcd pod gives them
   * (a member added but not started has no name yet and is left out).
   */
  public List<String> names() {
    return namesIn(etcdctl(healthyEtcdPod(""), "member", "list", "-w", "json"));
  }

  static List<String> namesIn(String memberListJson) {
    List<String> names = new java.util.ArrayList<>();
    for (JsonNode m : readTree(memberListJson).path("members")) {
      String name = m.path("name").asText("");
      if (!name.isEmpty()) {
        names.add(name);
      }
    }
    return names;
  }

  /**
   * The ID of the member named {@code member} in {@code etcdctl member list -w json}'s output, in
   * the hexadecimal {@code etcdctl member remove} takes. etcd's IDs are unsigned 64-bit numbers
   * printed in decimal, often above 2^63: read as unsigned, never as a long. A member added but not
   * started has no name yet and is never the one asked for.
   */
  static Optional<String> idOf(String memberListJson, String member) {
    for (JsonNode m : readTree(memberListJson).path("members")) {
      JsonNode id = m.path("ID");
      if (member.equals(m.path("name").asText(null)) && id.isIntegralNumber()) {
        BigInteger value = id.bigIntegerValue();
        if (value.signum() <= 0 || value.bitLength() > 64) {
          throw new IllegalStateException("etcdctl listed member " + member + " with ID " + id);
        }
        return Optional.of(value.toString(16));
      }
    }
    return Optional.empty();
  }

  /** Turns the quorum guard off, signing the Etcd object, or back on when we turned it off. */
  public void quorumGuard(EtcdSafety.QuorumGuard step, String us) {
    if (step == EtcdSafety.QuorumGuard.LEAVE) {
      return;
    }
    boolean off = step == EtcdSafety.QuorumGuard.TURN_OFF;
    Map<String, Object> overrides = new LinkedHashMap<>();
    overrides.put(EtcdReport.QUORUM_GUARD_OVERRIDE, off ? Boolean.TRUE : null);
    Map<String, Object> annotations = new LinkedHashMap<>();
    annotations.put(EtcdReport.QUORUM_GUARD_OFF_BY, off ? us : null);
    Map<String, Object> patch =
        Map.of(
            "metadata", Map.of("annotations", annotations),
            "spec", Map.of("unsupportedConfigOverrides", overrides));
    workload
        .genericKubernetesResources(Names.ETCD_API, Names.ETCD_KIND)
        .withName(Names.ETCD_NAME)
        .patch(PatchContext.of(PatchType.JSON_MERGE), Serialization.asJson(patch));
    LOG.info("etcd quorum guard turned {} for {}", off ? "off" : "back on", us);
  }

  /** A running, Ready etcd pod not on the departed member's Node. */
  private Pod healthyEtcdPod(String departed) {
    return workload
        .pods()
        .inNamespace(NAMESPACE)
        .withLabel(POD_LABEL, POD_LABEL_VALUE)
        .list()
        .getItems()
        .stream()
        .filter(p -> p.getMetadata().getDeletionTimestamp() == null)
        .filter(p -> p.getSpec() != null && !departed.equals(p.getSpec().getNodeName()))
        .filter(EtcdMembers::isReady)
        .findFirst()
        .orElseThrow(
            () ->
                new IllegalStateException(
                    "no running, Ready etcd pod in " + NAMESPACE + " to run etcdctl in"));
  }

  private static boolean isReady(Pod pod) {
    return pod.getStatus() != null
        && "Running".equals(pod.getStatus().getPhase())
        && pod.getStatus().getConditions() != null
        && pod.getStatus().getConditions().stream()
            .anyMatch(c -> "Ready".equals(c.getType()) && "True".equals(c.getStatus()));
  }

  /**
   * Runs etcdctl in the pod's etcdctl container (its environment names endpoints and certificates).
   */
  private String etcdctl(Pod pod, String... args) {
    String[] command = new String[args.length + 1];
    command[0] = "etcdctl";
    System.arraycopy(args, 0, command, 1, args.length);
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    ByteArrayOutputStream err = new ByteArrayOutputStream();
    try (ExecWatch exec =
        workload
            .pods()
            .inNamespace(NAMESPACE)
            .withName(name(pod))
            .inContainer(ETCDCTL_CONTAINER)
            .writingOutput(out)
            .writingError(err)
            .exec(command)) {
      Integer code = exec.exitCode().get(30, TimeUnit.SECONDS);
      if (code == null || code != 0) {
        throw new IllegalStateException(
            String.join(" ", command)
                + " in pod "
                + name(pod)
                + " exited with "
                + code
                + ": "
                + err.toString(StandardCharsets.UTF_8).strip());
      }
      return out.toString(StandardCharsets.UTF_8);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted running " + String.join(" ", command), e);
    } catch (ExecutionException | TimeoutException e) {
      throw new IllegalStateException(
          String.join(" ", command) + " in pod " + name(pod) + " failed: " + e.getMessage(), e);
    }
  }

  private static String name(Pod pod) {
    return pod.getMetadata().getName();
  }

  private static JsonNode readTree(String json) {
    try {
      return JSON.readTree(json);
    } catch (IOException e) {
      throw new IllegalStateException("etcdctl printed no JSON: " + json, e);
    }
  }
}
