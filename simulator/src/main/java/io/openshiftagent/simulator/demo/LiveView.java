package io.openshiftagent.simulator.demo;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.informers.ResourceEventHandler;
import io.fabric8.kubernetes.client.informers.SharedIndexInformer;
import java.io.PrintStream;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * Shows the demo's story and the {@link ProgressTable} of one namespace, redrawn whenever a watched
 * object changes (at most a few times a second). On a terminal the screen is redrawn in place;
 * otherwise (a pipe, CI) each new table is printed below the last one, only when it changed.
 */
final class LiveView implements AutoCloseable {
  private static final String CAPI = "cluster.x-k8s.io/v1beta2";
  private static final long REDRAW_MILLIS = 250;

  private final PrintStream out;
  private final boolean terminal;
  private final long started = System.nanoTime();
  private final List<String> story = new ArrayList<>();
  private final AtomicBoolean changed = new AtomicBoolean(true);
  private final ScheduledExecutorService painter =
      Executors.newSingleThreadScheduledExecutor(r -> new Thread(r, "demo-view"));
  private final SharedIndexInformer<GenericKubernetesResource> clusters;
  private final SharedIndexInformer<GenericKubernetesResource> controlPlanes;
  private final SharedIndexInformer<GenericKubernetesResource> clusterInstalls;
  private final SharedIndexInformer<GenericKubernetesResource> machines;
  private final SharedIndexInformer<GenericKubernetesResource> metal3Machines;
  private final SharedIndexInformer<GenericKubernetesResource> hosts;
  private final SharedIndexInformer<GenericKubernetesResource> agents;
  private String lastTable = "";

  LiveView(KubernetesClient hub, String namespace, PrintStream out, boolean terminal) {
    this.out = out;
    this.terminal = terminal;
    clusters = watch(hub, namespace, CAPI, "Cluster");
    controlPlanes =
        watch(
            hub,
            namespace,
            "controlplane.cluster.x-k8s.io/v1alpha3",
            "OpenshiftAssistedControlPlane");
    clusterInstalls =
        watch(hub, namespace, "extensions.hive.openshift.io/v1beta1", "AgentClusterInstall");
    machines = watch(hub, namespace, CAPI, "Machine");
    metal3Machines =
        watch(hub, namespace, "infrastructure.cluster.x-k8s.io/v1beta2", "Metal3Machine");
    hosts = watch(hub, namespace, "metal3.io/v1alpha1", "BareMetalHost");
    agents = watch(hub, namespace, "agent-install.openshift.io/v1beta1", "Agent");
    painter.scheduleWithFixedDelay(this::paintIfChanged, 0, REDRAW_MILLIS, TimeUnit.MILLISECONDS);
  }

  /** Adds a line to the story told above the table. */
  synchronized void say(String line) {
    String stamped = "[%6.1fs] %s".formatted((System.nanoTime() - started) / 1e9, line);
    story.add(stamped);
    if (!terminal) {
      out.println(stamped);
    }
    changed.set(true);
  }

  ProgressTable.Snapshot snapshot() {
    return new ProgressTable.Snapshot(
        first(clusters),
        first(controlPlanes),
        first(clusterInstalls),
        machines.getStore().list(),
        metal3Machines.getStore().list(),
        hosts.getStore().list(),
        agents.getStore().list());
  }

  private synchronized void paintIfChanged() {
    if (!changed.getAndSet(false)) {
      return;
    }
    String table = ProgressTable.render(snapshot());
    if (terminal) {
      StringBuilder screen = new StringBuilder("\033[H\033[2J");
      story.forEach(line -> screen.append(line).append('\n'));
      screen.append('\n').append(table);
      out.print(screen);
      out.flush();
    } else if (!table.equals(lastTable)) {
      out.println(table);
    }
    lastTable = table;
  }

  private SharedIndexInformer<GenericKubernetesResource> watch(
      KubernetesClient hub, String namespace, String apiVersion, String kind) {
    return hub.genericKubernetesResources(apiVersion, kind)
        .inNamespace(namespace)
        .inform(
            new ResourceEventHandler<>() {
              @Override
              public void onAdd(GenericKubernetesResource object) {
                changed.set(true);
              }

              @Override
              public void onUpdate(GenericKubernetesResource old, GenericKubernetesResource now) {
                changed.set(true);
              }

              @Override
              public void onDelete(GenericKubernetesResource object, boolean unknown) {
                changed.set(true);
              }
            });
  }

  private static GenericKubernetesResource first(
      SharedIndexInformer<GenericKubernetesResource> informer) {
    return informer.getStore().list().stream().findFirst().orElse(null);
  }

  @Override
  public void close() {
    painter.shutdownNow();
    changed.set(true);
    paintIfChanged();
    for (SharedIndexInformer<?> informer :
        List.of(
            clusters, controlPlanes, clusterInstalls, machines, metal3Machines, hosts, agents)) {
      informer.close();
    }
  }
}
