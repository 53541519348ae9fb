package io.openshiftagent.controlplane;

import io.fabric8.kubernetes.client.KubernetesClient;
import io.javaoperatorsdk.operator.Operator;
import io.javaoperatorsdk.operator.RegisteredController;
import io.micrometer.core.instrument.Metrics;
import io.openshiftagent.api.controlplane.v1alpha3.OpenshiftAssistedControlPlane;
import io.openshiftagent.controlplane.inplace.InPlaceHooks;
import io.openshiftagent.controlplane.inplace.InstalledKubelets;
import io.openshiftagent.controlplane.release.HubRegistries;
import io.openshiftagent.provider.runtime.ControllerScope;
import io.openshiftagent.provider.runtime.HookServer;
import io.openshiftagent.provider.runtime.ProviderOperator;
import io.openshiftagent.provider.runtime.ProviderRuntime;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** The control-plane provider process: {@code java -jar controlplane-provider.jar --help}. */
public final class ControlPlaneProvider implements ProviderRuntime.Provider {
  /** How often an installed cluster is looked at for versions and upgrade progress. */
  static final Duration WORKLOAD_POLL_INTERVAL = Duration.ofMinutes(1);

  /** The environment variable that overrides {@link #WORKLOAD_POLL_INTERVAL}. */
  static final String WORKLOAD_POLL_INTERVAL_ENV = "WORKLOAD_POLL_INTERVAL";

  /** Where the in-place update hooks are served; unset: not served. */
  static final String RUNTIME_EXTENSION_ADDRESS_ENV = "RUNTIME_EXTENSION_ADDRESS";

  private static final Pattern INTERVAL = Pattern.compile("(\\d+)(ms|s|m|h)");

  private final Map<String, String> environment;

  /**
   * @param environment the process environment, read for {@value #WORKLOAD_POLL_INTERVAL_ENV} and
   *     {@link HubRegistries}'s variables (tests pass their own)
   */
  public ControlPlaneProvider(Map<String, String> environment) {
    this.environment = environment;
  }

  public static void main(String[] args) {
    ProviderRuntime.main(new ControlPlaneProvider(System.getenv()), args);
  }

  @Override
  public String command() {
    return "controlplane-provider";
  }

  @Override
  public String description() {
    return """
        The openshift-agent Cluster API control-plane provider: OpenshiftAssistedControlPlane ->
        ClusterDeployment, AgentClusterInstall and control-plane Machines -> an installed, upgradable
        OpenShift control plane.

        Environment:
          WORKLOAD_POLL_INTERVAL       how often an installed cluster's versions and upgrade progress are
                                       looked at (nothing there can be watched from the hub), e.g. 30s,
                                       5m (default 1m); a settled cluster (no upgrade under way) is
                                       looked at half as often after each look, down to once every 16
                                       intervals
          REGISTRY_CA_BUNDLE_FILE      a PEM file of certificate authorities to trust, besides the JVM's,
                                       when resolving release images to digests (the hub's trusted CA
                                       bundle; docs/release-images.md)
          CONTAINERS_REGISTRIES_CONF   a containers-registries.conf(5) file: the hub's mirrors, asked
                                       for release digests after a cluster's own
                                       (spec.config.imageRegistryRef; docs/release-images.md)
          RUNTIME_EXTENSION_ADDRESS    serve Cluster API's in-place update hooks (Runtime SDK) over
                                       HTTPS here, e.g. :9443 (default: off); docs/controlplane.md
          RUNTIME_EXTENSION_CERT_DIR   their tls.crt and tls.key (default: a self-signed certificate,
                                       which an ExtensionConfig's caBundle cannot name)""";
  }

  @Override
  public String defaultLeaseName() {
    return "controlplane-openshift-agent-leader";
  }

  @Override
  public void register(Operator operator, KubernetesClient client, ControllerScope scope) {
    startRuntimeExtension(client, environment);
    ClusterStageMetrics.bind(
        register(
            operator,
            workloadPollInterval(environment),
            HubRegistries.fromEnvironment(environment),
            instanceName(),
            scope),
        Metrics.globalRegistry);
  }

  /**
   * The in-place update hooks when {@value #RUNTIME_EXTENSION_ADDRESS_ENV} is set, on every replica
   * (Cluster API calls whichever its Service reaches; the hooks only read). They live as long as
   * the process.
   */
  static Optional<HookServer> startRuntimeExtension(
      KubernetesClient client, Map<String, String> environment) {
    String address = environment.getOrDefault(RUNTIME_EXTENSION_ADDRESS_ENV, "").strip();
    if (address.isEmpty()) {
      return Optional.empty();
    }
    Optional<Path> certDir =
        Optional.ofNullable(environment.get("RUNTIME_EXTENSION_CERT_DIR"))
            .map(String::strip)
            .filter(dir -> !dir.isEmpty())
            .map(Path::of);
    try {
      return Optional.of(
          HookServer.start(
              HookServer.address(RUNTIME_EXTENSION_ADDRESS_ENV, address),
              certDir,
              new InPlaceHooks(new InstalledKubelets(client)).routes()));
    } catch (IOException e) {
      throw new UncheckedIOException("cannot serve the runtime extension on " + address, e);
    }
  }

  /**
   * {@value #WORKLOAD_POLL_INTERVAL_ENV} as {@code <n>ms}, {@code <n>s}, {@code <n>m} or {@code
   * <n>h}.
   */
  static Duration workloadPollInterval(Map<String, String> environment) {
    String value = environment.getOrDefault(WORKLOAD_POLL_INTERVAL_ENV, "").trim();
    if (value.isEmpty()) {
      return WORKLOAD_POLL_INTERVAL;
    }
    Matcher m = INTERVAL.matcher(value);
    if (!m.matches() || Long.parseLong(m.group(1)) == 0) {
      throw new IllegalArgumentException(
          WORKLOAD_POLL_INTERVAL_ENV
              + " must be a positive duration such as 500ms, 30s, 5m or 1h, not '"
              + value
              + "'");
    }
    long n = Long.parseLong(m.group(1));
    return switch (m.group(2)) {
      case "ms" -> Duration.ofMillis(n);
      case "s" -> Duration.ofSeconds(n);
      case "m" -> Duration.ofMinutes(n);
      default -> Duration.ofHours(n);
    };
  }

  /** Registers the control-plane controller, restricted to {@code scope}. */
  static RegisteredController<OpenshiftAssistedControlPlane> register(
      Operator operator,
      Duration workloadPollInterval,
      HubRegistries hubRegistries,
      String instance,
      ControllerScope scope) {
    return ProviderOperator.register(
        operator,
        new OpenshiftAssistedControlPlaneReconciler(
            workloadPollInterval, hubRegistries, instance, scope),
        scope.apply());
  }

  /**
   * An operator with the control-plane controller registered, not started (for tests), trusting the
   * hub CA bundle and mirrors {@code environment} names ({@link HubRegistries}).
   */
  public static Operator create(
      KubernetesClient client, Duration workloadPollInterval, Map<String, String> environment) {
    Operator operator = ProviderOperator.create(client, o -> {});
    register(
        operator,
        workloadPollInterval,
        HubRegistries.fromEnvironment(environment),
        instanceName(),
        ControllerScope.EVERYTHING);
    return operator;
  }

  /** The reporting instance of our Events: the pod name when running in a pod. */
  static String instanceName() {
    String pod = System.getenv("POD_NAME");
    if (pod != null && !pod.isBlank()) {
      return pod;
    }
    String host = System.getenv("HOSTNAME");
    return host != null && !host.isBlank() ? host : "controlplane-provider";
  }
}
