package io.openshiftagent.simulator.faults;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.informers.ResourceEventHandler;
import io.fabric8.kubernetes.client.informers.SharedIndexInformer;
import io.openshiftagent.simulator.ApiVersions;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * Counts the changes (watch events) of the objects of a cluster's flow in one namespace, and lets a
 * thread wait for the next one: a provider is most likely reconciling right after one.
 */
final class Changes implements AutoCloseable {
  /** The kinds our providers watch or write, with their apiVersions. */
  private static final List<List<String>> KINDS =
      List.of(
          List.of(ApiVersions.CAPI, "Cluster"),
          List.of(ApiVersions.CAPI, "Machine"),
          List.of(ApiVersions.CONTROL_PLANE, "OpenshiftAssistedControlPlane"),
          List.of(ApiVersions.BOOTSTRAP, "OpenshiftAssistedConfig"),
          List.of(ApiVersions.METAL3_INFRASTRUCTURE, "Metal3Machine"),
          List.of(ApiVersions.METAL3, "BareMetalHost"),
          List.of(ApiVersions.AGENT_INSTALL, "InfraEnv"),
          List.of(ApiVersions.AGENT_INSTALL, "Agent"),
          List.of(ApiVersions.HIVE_EXTENSION, "AgentClusterInstall"));

  private final List<SharedIndexInformer<GenericKubernetesResource>> informers = new ArrayList<>();
  private long count;

  Changes(KubernetesClient hub, String namespace) {
    ResourceEventHandler<GenericKubernetesResource> handler =
        new ResourceEventHandler<>() {
          @Override
          public void onAdd(GenericKubernetesResource object) {
            changed();
          }

          @Override
          public void onUpdate(GenericKubernetesResource old, GenericKubernetesResource now) {
            changed();
          }

          @Override
          public void onDelete(GenericKubernetesResource object, boolean unknownFinalState) {
            changed();
          }
        };
    for (List<String> kind : KINDS) {
      informers.add(
          hub.genericKubernetesResources(kind.get(0), kind.get(1))
              .inNamespace(namespace)
              .inform(handler));
    }
  }

  private synchronized void changed() {
    count++;
    notifyAll();
  }

  synchronized long count() {
    return count;
  }

  /** Waits until a change after the {@code seen}-th; whether one came within {@code timeout}. */
  synchronized boolean awaitAfter(long seen, Duration timeout) throws InterruptedException {
    long deadline = System.nanoTime() + timeout.toNanos();
    while (count <= seen) {
      long left = (deadline - System.nanoTime()) / 1_000_000;
      if (left <= 0) {
        return false;
      }
      wait(left);
    }
    return true;
  }

  @Override
  public void close() {
    informers.forEach(SharedIndexInformer::close);
  }
}
