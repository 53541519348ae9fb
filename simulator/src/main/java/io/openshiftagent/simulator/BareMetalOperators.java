package io.openshiftagent.simulator;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.informers.ResourceEventHandler;
import io.fabric8.kubernetes.client.informers.SharedIndexInformer;
import java.nio.file.Path;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The baremetal-operators of a world: one per namespace of hosts ({@link BareMetalOperator}: its
 * test mode shares one state among all the hosts an operator manages), as a multi-tenant Metal3
 * runs one per tenant namespace. Each starts when the first BareMetalHost of its namespace appears,
 * or before, when a test asks ({@link #start}); all stop with the world. So hosts register in any
 * namespace a user creates them in, as on a hub whose Metal3 watches every namespace.
 *
 * <p>Worlds follow one another on a test JVM's hub, and the hosts of earlier worlds' tests stay
 * there, idle: their namespaces get an operator only when one of them is asked to change (its spec,
 * e.g. claimed by CAPM3), not for being there when the world starts.
 *
 * <p>A namespace's operator registers its validating webhooks when it starts: the hosts created
 * before that, in the few seconds it takes, were not validated.
 */
final class BareMetalOperators implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(BareMetalOperators.class);

  private final KubernetesClient hub;
  private final String kubeconfigYaml;
  private final Path workDir;
  private final Map<String, UpstreamManager> operators = new LinkedHashMap<>();

  /** Namespaces whose operator runs or is being started: a cheap test for every host event. */
  private final Set<String> asked = ConcurrentHashMap.newKeySet();

  private final ExecutorService starter =
      Executors.newSingleThreadExecutor(
          r -> {
            Thread thread = new Thread(r, "baremetal-operator-starter");
            thread.setDaemon(true);
            return thread;
          });

  private SharedIndexInformer<GenericKubernetesResource> hosts;
  private volatile Instant startedAt;
  private boolean closed;

  /**
   * @param hub a client of the hub, not closed here
   */
  BareMetalOperators(KubernetesClient hub, String kubeconfigYaml, Path workDir) {
    this.hub = hub;
    this.kubeconfigYaml = kubeconfigYaml;
    this.workDir = workDir;
  }

  /** Installs the operator's CRDs and starts watching for hosts in every namespace. */
  void start() {
    // The API server's timestamps have whole seconds.
    startedAt = Instant.now().truncatedTo(ChronoUnit.SECONDS);
    BareMetalOperator.installCrds(hub);
    hosts =
        hub.genericKubernetesResources(ApiVersions.METAL3, "BareMetalHost")
            .inAnyNamespace()
            .inform(
                new ResourceEventHandler<>() {
                  @Override
                  public void onAdd(GenericKubernetesResource host) {
                    Instant created = Instant.parse(host.getMetadata().getCreationTimestamp());
                    if (!created.isBefore(startedAt)) {
                      startInTheBackground(host.getMetadata().getNamespace());
                    }
                  }

                  @Override
                  public void onUpdate(
                      GenericKubernetesResource old, GenericKubernetesResource host) {
                    if (!Objects.equals(
                        old.getMetadata().getGeneration(), host.getMetadata().getGeneration())) {
                      startInTheBackground(host.getMetadata().getNamespace());
                    }
                  }

                  @Override
                  public void onDelete(GenericKubernetesResource host, boolean unknown) {}
                });
  }

  private void startInTheBackground(String namespace) {
    if (asked.add(namespace)) {
      starter.execute(
          () -> {
            try {
              start(namespace);
            } catch (RuntimeException e) {
              asked.remove(namespace);
              LOG.error("could not start the baremetal-operator of {}", namespace, e);
            }
          });
    }
  }

  /** The operator of {@code namespace}, started now unless it runs; returns once it is ready. */
  synchronized WorldProcess start(String namespace) {
    if (closed) {
      throw new IllegalStateException("the world is stopped");
    }
    UpstreamManager operator = operators.get(namespace);
    if (operator == null) {
      operator = BareMetalOperator.start(hub, kubeconfigYaml, workDir, namespace);
      operators.put(namespace, operator);
      asked.add(namespace);
      LOG.info("baremetal-operator of namespace {} ready", namespace);
    }
    return operator.process();
  }

  /** Each namespace's operator, in the order they started. */
  synchronized List<WorldProcess> processes() {
    return operators.values().stream().map(UpstreamManager::process).toList();
  }

  synchronized Optional<WorldProcess> of(String namespace) {
    return Optional.ofNullable(operators.get(namespace)).map(UpstreamManager::process);
  }

  /** Stops watching, then every operator, the last started first. */
  @Override
  public void close() {
    if (hosts != null) {
      hosts.close();
    }
    starter.shutdownNow();
    Deque<UpstreamManager> started;
    synchronized (this) {
      closed = true;
      started = new ArrayDeque<>(operators.values());
      operators.clear();
    }
    List<RuntimeException> failures = new ArrayList<>();
    while (!started.isEmpty()) {
      try {
        started.removeLast().close();
      } catch (RuntimeException e) {
        failures.add(e);
      }
    }
    failures.forEach(e -> LOG.warn("could not stop a baremetal-operator", e));
  }
}
