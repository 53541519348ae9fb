package io.openshiftagent.simulator.faults;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.informers.ResourceEventHandler;
import io.fabric8.kubernetes.client.informers.SharedIndexInformer;
import io.openshiftagent.bootstrap.names.Names;
import io.openshiftagent.simulator.ApiVersions;
import io.openshiftagent.simulator.Fields;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * Every change of an Agent's {@code spec.approved} in a namespace, as a watch sees it during a run,
 * with the bootstrap config (one per Machine) the Agent belongs to by its label.
 */
final class Approvals implements AutoCloseable {
  /** One flip of {@code spec.approved}. */
  record Flip(String agent, String uid, String config, boolean approved) {}

  private final SharedIndexInformer<GenericKubernetesResource> informer;
  private final Map<String, Boolean> approvedByUid = new HashMap<>();
  private final List<Flip> flips = new ArrayList<>();

  Approvals(KubernetesClient hub, String namespace) {
    informer =
        hub.genericKubernetesResources(ApiVersions.AGENT_INSTALL, "Agent")
            .inNamespace(namespace)
            .inform(
                new ResourceEventHandler<>() {
                  @Override
                  public void onAdd(GenericKubernetesResource agent) {
                    seen(agent);
                  }

                  @Override
                  public void onUpdate(
                      GenericKubernetesResource old, GenericKubernetesResource agent) {
                    seen(agent);
                  }

                  @Override
                  public void onDelete(GenericKubernetesResource agent, boolean unknown) {}
                });
  }

  private synchronized void seen(GenericKubernetesResource agent) {
    String uid = agent.getMetadata().getUid();
    boolean approved = Fields.isTrue(agent, "spec", "approved");
    boolean before = approvedByUid.getOrDefault(uid, false);
    approvedByUid.put(uid, approved);
    if (approved != before) {
      flips.add(
          new Flip(
              agent.getMetadata().getName(),
              uid,
              Fields.label(agent, Names.CONFIG_LABEL),
              approved));
    }
  }

  synchronized List<Flip> flips() {
    return List.copyOf(flips);
  }

  /** The Agents (by UID) ever approved, by the config they belong to. */
  synchronized Map<String, Set<String>> approvedAgentsByConfig() {
    Map<String, Set<String>> byConfig = new TreeMap<>();
    for (Flip flip : flips) {
      if (flip.approved()) {
        byConfig
            .computeIfAbsent(String.valueOf(flip.config()), c -> new TreeSet<>())
            .add(flip.uid());
      }
    }
    return byConfig;
  }

  @Override
  public void close() {
    informer.close();
  }
}
