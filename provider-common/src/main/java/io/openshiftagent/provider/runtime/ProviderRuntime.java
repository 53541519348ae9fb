package io.openshiftagent.provider.runtime;

import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.ConfigBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import io.javaoperatorsdk.operator.Operator;
import io.javaoperatorsdk.operator.api.monitoring.AggregatedMetrics;
import io.micrometer.core.instrument.Metrics;
import io.micrometer.core.instrument.binder.jvm.JvmGcMetrics;
import io.micrometer.core.instrument.binder.jvm.JvmMemoryMetrics;
import io.micrometer.core.instrument.binder.jvm.JvmThreadMetrics;
import io.micrometer.core.instrument.binder.system.ProcessorMetrics;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import io.openshiftagent.provider.reconcile.EventRecorder;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Runs a provider process: command line, logging, Kubernetes client, leader election, metrics,
 * probes, and a clean stop on SIGTERM. Each provider supplies only its controllers through {@link
 * Provider}.
 */
public final class ProviderRuntime implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(ProviderRuntime.class);
  private static final Path SERVICE_ACCOUNT_TOKEN =
      Path.of("/var/run/secrets/kubernetes.io/serviceaccount/token");

  /** What a provider plugs into the runtime. */
  public interface Provider {
    /** The command name, e.g. {@code bootstrap-provider}. */
    String command();

    /** One line for --help. */
    String description();

    /** The default name of the leader-election Lease. */
    String defaultLeaseName();

    /** Registers the provider's controllers, restricted to {@code scope}. */
    void register(Operator operator, KubernetesClient client, ControllerScope scope);
  }

  private final KubernetesClient client;
  private final Operator operator;
  private final LeaderElection leaderElection;
  private boolean closing;
  private final List<AutoCloseable> servers = new ArrayList<>();
  private final ProbeServer healthServer;
  private final DiagnosticsServer metricsServer;
  private final PrometheusMeterRegistry registry;

  private ProviderRuntime(Provider provider, ProviderOptions options) throws IOException {
    String identity = ProcessIdentity.replica();
    Config config = clientConfig(options);
    // Who we are in the API server's audit log and metrics, instead of fabric8's default.
    config.setUserAgent(ProcessIdentity.userAgent(provider, identity));
    PrometheusMeterRegistry registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
    new JvmMemoryMetrics().bindTo(registry);
    new JvmGcMetrics().bindTo(registry);
    new JvmThreadMetrics().bindTo(registry);
    new ProcessorMetrics().bindTo(registry);
    // The providers' own metrics (clusters by stage, registry lookups, assisted-service calls) are
    // recorded where they happen, through Micrometer's global registry.
    Metrics.globalRegistry.add(registry);
    this.registry = registry;
    UnreadableObjectReport unreadable = new UnreadableObjectReport(UnreadableObjects.OURS);
    client =
        new KubernetesClientBuilder()
            .withConfig(config)
            .withKubernetesSerialization(
                UnreadableObjects.serialization(UnreadableObjects.OURS, unreadable))
            .build();
    unreadable.eventsTo(
        new EventRecorder(
            client, "openshift-agent.io/" + provider.command(), ProcessIdentity.pod(provider)));
    boolean inCluster = Files.exists(SERVICE_ACCOUNT_TOKEN);
    ReconcileProgress progress = new ReconcileProgress();
    operator =
        ProviderOperator.create(
            client,
            o ->
                o.withConcurrentReconciliationThreads(options.concurrency())
                    .withMetrics(
                        // JOSDK has only the first of these time each reconcile.
                        new AggregatedMetrics(
                            List.of(new ControllerRuntimeMetrics(registry), progress))));
    if (options.leaderElectionEnabled(inCluster)) {
      Config leaseConfig = clientConfig(options);
      leaseConfig.setUserAgent(config.getUserAgent());
      leaderElection =
          new LeaderElection(
              leaseConfig,
              options.leaderElectionNamespace().orElse(client.getConfiguration().getNamespace()),
              options.leaderElectionId(),
              identity,
              options.leaseTiming(),
              this::startLeading,
              ProviderRuntime::haltAtOnce);
    } else {
      leaderElection = null;
    }
    provider.register(
        operator, client, new ControllerScope(options.namespaces(), options.watchFilter()));
    healthServer =
        options.health().isEmpty()
            ? null
            : ProbeServer.start(
                options.health().get(),
                Optional.empty(),
                Map.of(
                    "/healthz",
                    headers -> Liveness.of(progress, options.livenessStallTimeout()),
                    "/readyz",
                    headers -> readiness()));
    servers.add(healthServer);
    metricsServer =
        options.metrics().isEmpty()
            ? null
            : DiagnosticsServer.start(
                options.metrics().get(), options.tls(), client, registry::scrape);
    servers.add(metricsServer);
    LOG.info(
        "{} starting: namespaces={}, watch filter={}, leader election={}, concurrency={}",
        provider.command(),
        options.namespaces().isEmpty() ? "all" : options.namespaces(),
        options.watchFilter().orElse("none"),
        leaderElection != null ? options.leaderElectionId() : "off",
        options.concurrency());
    if (leaderElection == null) {
      operator.start();
    } else {
      leaderElection.start();
    }
  }

  /** Starts a provider with these options; the caller closes it. */
  public static ProviderRuntime start(Provider provider, ProviderOptions options) {
    try {
      return new ProviderRuntime(provider, options);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot open the probe or metrics port", e);
    }
  }

  /** The process entry point: parses the command line, runs until SIGTERM, then stops cleanly. */
  public static void main(Provider provider, String[] args) {
    ProviderOptions options;
    try {
      options = ProviderOptions.parse(provider.defaultLeaseName(), args);
    } catch (IllegalArgumentException e) {
      System.err.println(provider.command() + ": " + e.getMessage());
      System.err.print(
          ProviderOptions.usage(
              provider.command(), provider.description(), provider.defaultLeaseName()));
      System.exit(2);
      return;
    }
    if (options.help()) {
      System.out.print(
          ProviderOptions.usage(
              provider.command(), provider.description(), provider.defaultLeaseName()));
      return;
    }
    if (options.version()) {
      System.out.println(provider.command() + " " + ProcessIdentity.version());
      return;
    }
    Logging.configure(options.logLevel(), options.logFormat());
    options.deprecatedFlags().forEach(f -> LOG.warn("deprecated flag {}", f));
    ProviderRuntime runtime;
    try {
      runtime = start(provider, options);
    } catch (RuntimeException e) {
      LOG.error("{} cannot start: {}", provider.command(), e.getMessage(), e);
      System.exit(1);
      return;
    }
    Runtime.getRuntime().addShutdownHook(new Thread(runtime::close, "shutdown"));
  }

  public Operator operator() {
    return operator;
  }

  /** The port the probes listen on, or -1 when disabled. */
  public int healthPort() {
    return healthServer == null ? -1 : healthServer.port();
  }

  public int metricsPort() {
    return metricsServer == null ? -1 : metricsServer.port();
  }

  private static void closeQuietly(AutoCloseable closeable) {
    try {
      closeable.close();
    } catch (Exception e) {
      LOG.warn("cannot close {}: {}", closeable, e.toString());
    }
  }

  /**
   * Runs the controllers once leading, unless stopping already; a leader that cannot is of no use
   * to anyone. Synchronized with {@link #close()}, which must not stop an operator still starting.
   */
  private synchronized void startLeading() {
    if (closing) {
      return;
    }
    try {
      operator.start();
    } catch (RuntimeException e) {
      LOG.error("cannot start the controllers: {}", e.getMessage(), e);
      haltAtOnce();
    }
  }

  /**
   * Another replica may already reconcile: stop before any further write, without the shutdown hook
   * (which would let in-flight reconciles finish).
   */
  private static void haltAtOnce() {
    Runtime.getRuntime().halt(1);
  }

  private ProbeServer.Response readiness() {
    if (leaderElection != null && !leaderElection.isLeader()) {
      // A standby is ready: it would hold up a rolling update otherwise.
      return ProbeServer.Response.ok("standby");
    }
    return Readiness.of(operator.getRuntimeInfo());
  }

  private static Config clientConfig(ProviderOptions options) {
    if (options.kubeconfig().isEmpty()) {
      return new ConfigBuilder().build(); // in-cluster, else $KUBECONFIG / ~/.kube/config
    }
    try {
      return Config.fromKubeconfig(Files.readString(options.kubeconfig().get()));
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read kubeconfig " + options.kubeconfig().get(), e);
    }
  }

  /**
   * Stops reconciling and writes the pending Events, still holding the Lease meanwhile (a new
   * leader must find nothing more written by us), then releases the Lease, then the probe servers
   * and the client.
   */
  @Override
  public void close() {
    LOG.info("stopping");
    synchronized (this) {
      closing = true;
    }
    try {
      operator.stop();
      EventRecorder.flush(Duration.ofSeconds(2));
      if (leaderElection != null) {
        leaderElection.close();
      }
    } finally {
      servers.stream().filter(Objects::nonNull).forEach(ProviderRuntime::closeQuietly);
      Metrics.globalRegistry.remove(registry);
      client.close();
    }
  }
}
