package io.openshiftagent.simulator;

import io.fabric8.kubernetes.api.model.EnvVar;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.admissionregistration.v1.ValidatingWebhookConfiguration;
import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceDefinition;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.dsl.NonDeletingOperation;
import io.fabric8.kubernetes.client.informers.ResourceEventHandler;
import io.fabric8.kubernetes.client.informers.SharedIndexInformer;
import io.openshiftagent.simulator.assisted.PrivateNamespaces;
import io.openshiftagent.testsupport.CrdInstaller;
import io.openshiftagent.testsupport.TestPaths;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The Go provider pair (cluster-api-provider-openshift-assisted) in place of ours: its two
 * managers, built from a checkout of its repository by {@code hack/build-go-provider.sh}, against
 * the hub as {@code clusterctl init --bootstrap openshift-assisted --control-plane
 * openshift-assisted} installs its release's components ({@code bootstrap-components.yaml}, {@code
 * controlplane-components.yaml}, the kustomize output of its {@code config/}): its CRDs with every
 * version they serve and their contract labels, its ServiceAccounts with their roles, its
 * conversion and validating webhooks (registered with the certificate of a throwaway CA), and each
 * manager with its Deployment's arguments and environment.
 *
 * <p>Its webhook server's port (9443) and certificate directory ({@code
 * /tmp/k8s-webhook-server/serving-certs}) are fixed in its code, so each manager runs in {@link
 * PrivateNamespaces}, as each runs in a pod of its own: a loopback of its own, a {@code
 * /tmp/k8s-webhook-server} of its own (the empty mount point is left on this machine), and a {@code
 * /run} holding its pod's namespace file, where its leader election looks. It reaches what a pod
 * reaches (the hub, assisted-service, the registry, the installed clusters) through bridges on this
 * machine's loopback ({@link #reachOutside}).
 *
 * <p>Each manager's Deployment is on the hub too, as clusterctl leaves it, and stands for its pod:
 * the hub has no kubelet, so this class plays the part a Deployment's controllers play when a user
 * scales it to 0 or deletes it (the manager stops; its webhook registrations and CRDs stay, as they
 * would).
 */
public final class GoProviders implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(GoProviders.class);

  /** Where the managers' webhook server listens inside their namespaces, as their code has it. */
  private static final int WEBHOOK_PORT = 9443;

  private static final int HEALTH_PORT = 8081;
  private static final int METRICS_PORT = 8080;

  /** One of its two managers, and the release file that installs it. */
  public enum Manager {
    BOOTSTRAP("bootstrap", "bootstrap-openshift-assisted"),
    CONTROLPLANE("controlplane", "control-plane-openshift-assisted");

    /** Its directory in the repository, and the name of its binary's and components' files. */
    public final String directory;

    /** What clusterctl labels its objects with ({@code cluster.x-k8s.io/provider}). */
    final String clusterctlProvider;

    Manager(String directory, String clusterctlProvider) {
      this.directory = directory;
      this.clusterctlProvider = clusterctlProvider;
    }

    String processName() {
      return "capoa-" + directory;
    }
  }

  private record Running(
      ManagerProcess process,
      PrivateNamespaces namespaces,
      Webhooks webhooks,
      ProviderServiceAccount account,
      SharedIndexInformer<Deployment> deployment) {}

  private final Path build;
  private final Map<Manager, Running> running = new EnumMap<>(Manager.class);

  private GoProviders(Path build) {
    this.build = build;
  }

  /**
   * Builds the pair from {@code checkout} unless the hack cache has it already, installs what its
   * release installs, and starts both managers, each reaching the hub and {@code reachable} ports.
   *
   * @param environment each manager's environment besides its Deployment's
   */
  static GoProviders start(
      KubernetesClient hub,
      String adminKubeconfig,
      Path workDir,
      Path checkout,
      List<Integer> reachable,
      Map<Manager, Map<String, String>> environment) {
    GoProviders providers = new GoProviders(build(checkout));
    removeOurCrds(hub);
    List<Integer> ports = new ArrayList<>(reachable);
    ports.add(URI.create(Config.fromKubeconfig(adminKubeconfig).getMasterUrl()).getPort());
    try {
      for (Manager manager : Manager.values()) {
        providers.start(
            hub,
            adminKubeconfig,
            workDir.toAbsolutePath().resolve(manager.processName()),
            manager,
            ports,
            environment.getOrDefault(manager, Map.of()));
      }
      return providers;
    } catch (RuntimeException | Error e) {
      providers.close();
      throw e;
    }
  }

  /**
   * Our CRDs, which every hub of the world starts with, deleted (none has objects yet): on a hub
   * the Go pair was installed on there are only its own, and ours come with the switch.
   */
  private static void removeOurCrds(KubernetesClient hub) {
    for (CustomResourceDefinition ours : CrdInstaller.read(hub, TestPaths.ourCrds())) {
      hub.resource(ours).delete();
      hub.resource(ours).waitUntilCondition(Objects::isNull, 60, TimeUnit.SECONDS);
    }
  }

  /** {@code hack/build-go-provider.sh checkout}: the directory of the built pair (cached). */
  static Path build(Path checkout) {
    Path script = TestPaths.repoRoot().resolve("hack/build-go-provider.sh");
    try {
      Path out = Files.createTempFile("go-provider", ".out");
      try {
        Process process =
            new ProcessBuilder(script.toString(), checkout.toAbsolutePath().toString())
                .redirectOutput(out.toFile())
                .redirectError(ProcessBuilder.Redirect.INHERIT)
                .start();
        if (!process.waitFor(20, TimeUnit.MINUTES) || process.exitValue() != 0) {
          process.destroyForcibly();
          throw new IllegalStateException(script + " " + checkout + " failed (see its output)");
        }
        return Path.of(Files.readString(out).strip());
      } finally {
        Files.delete(out);
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(e);
    }
  }

  private void start(
      KubernetesClient hub,
      String adminKubeconfig,
      Path dir,
      Manager manager,
      List<Integer> ports,
      Map<String, String> extraEnvironment) {
    List<HasMetadata> components =
        Webhooks.read(hub, build.resolve(manager.directory + "-components.yaml"));
    components.forEach(object -> labelAsClusterctlDoes(object, manager));
    ProviderServiceAccount account =
        ProviderServiceAccount.install(hub, components, manager.directory + "-components.yaml");
    Deployment deployment =
        components.stream()
            .filter(Deployment.class::isInstance)
            .map(Deployment.class::cast)
            .findFirst()
            .orElseThrow(() -> new IllegalStateException(manager + " has no Deployment"));
    PrivateNamespaces namespaces = null;
    Webhooks webhooks = new Webhooks(hub, manager.processName());
    try {
      TestPaths.deleteRecursively(dir);
      Path run = dir.resolve("run");
      Path serviceAccount = run.resolve("secrets/kubernetes.io/serviceaccount");
      Files.createDirectories(serviceAccount);
      Files.writeString(serviceAccount.resolve("namespace"), account.namespace());
      Path webhookServer = dir.resolve("k8s-webhook-server");
      Map<Path, Path> mounts = new LinkedHashMap<>();
      mounts.put(Path.of("/run"), run);
      mounts.put(Path.of("/tmp/k8s-webhook-server"), webhookServer);
      namespaces = PrivateNamespaces.create(mounts, dir.resolve("bridges.log"));
      ports.forEach(namespaces::reachOutside);
      int webhookPort = namespaces.publish(WEBHOOK_PORT);
      int healthPort = namespaces.publish(HEALTH_PORT);
      webhooks.writeServingCertificate(webhookServer.resolve("serving-certs"), webhookPort);
      Path kubeconfig = dir.resolve("hub.kubeconfig");
      Files.writeString(kubeconfig, account.kubeconfig(adminKubeconfig));

      List<CustomResourceDefinition> crds =
          components.stream()
              .filter(CustomResourceDefinition.class::isInstance)
              .map(CustomResourceDefinition.class::cast)
              .toList();
      crds.forEach(webhooks::pointConversionHere);
      CrdInstaller.install(hub, crds, Duration.ofSeconds(60));

      var container = deployment.getSpec().getTemplate().getSpec().getContainers().get(0);
      List<String> command = new ArrayList<>();
      command.add(build.resolve(manager.directory + "-manager").toString());
      command.addAll(container.getArgs());
      command.add("--kubeconfig=" + kubeconfig);
      command.add("--health-probe-bind-address=127.0.0.1:" + HEALTH_PORT);
      command.add("--metrics-bind-address=127.0.0.1:" + METRICS_PORT);
      Map<String, String> environment = new HashMap<>();
      for (EnvVar variable : container.getEnv()) {
        environment.put(variable.getName(), value(variable, deployment));
      }
      environment.putAll(extraEnvironment);
      ManagerProcess process =
          ManagerProcess.start(
              manager.processName(),
              namespaces.inside(command),
              environment,
              dir.resolve(manager.processName() + ".log"),
              healthPort);
      hub.resource(deployment).createOr(NonDeletingOperation::update);
      running.put(
          manager,
          new Running(
              process,
              namespaces,
              webhooks,
              account,
              stopWhenScaledDown(hub, deployment, process)));
      UpstreamManager.awaitListening(manager.processName(), webhookPort);
      webhooks.registerAdmission(
          components.stream().filter(ValidatingWebhookConfiguration.class::isInstance).toList(),
          "",
          null);
    } catch (IOException e) {
      if (namespaces != null && !running.containsKey(manager)) {
        namespaces.close();
      }
      throw new UncheckedIOException(e);
    } catch (RuntimeException | Error e) {
      if (namespaces != null && !running.containsKey(manager)) {
        namespaces.close();
      }
      throw e;
    }
  }

  /**
   * Stops {@code process} once its Deployment asks for no replica or is deleted, as the kubelet
   * stops the pod of a Deployment scaled to 0.
   */
  private static SharedIndexInformer<Deployment> stopWhenScaledDown(
      KubernetesClient hub, Deployment deployment, ManagerProcess process) {
    return hub.apps()
        .deployments()
        .inNamespace(deployment.getMetadata().getNamespace())
        .withName(deployment.getMetadata().getName())
        .inform(
            new ResourceEventHandler<>() {
              @Override
              public void onAdd(Deployment added) {
                onUpdate(null, added);
              }

              @Override
              public void onUpdate(Deployment before, Deployment after) {
                Integer replicas = after.getSpec().getReplicas();
                if (replicas != null && replicas == 0 && process.isAlive()) {
                  LOG.info("{} scaled to 0: stopping {}", name(after), process.name());
                  process.close();
                }
              }

              @Override
              public void onDelete(Deployment deleted, boolean unknownFinalState) {
                LOG.info("{} deleted: stopping {}", name(deleted), process.name());
                process.close();
              }
            });
  }

  private static String name(Deployment deployment) {
    return deployment.getMetadata().getNamespace() + "/" + deployment.getMetadata().getName();
  }

  /** A variable of the Deployment: a value, or the pod's namespace (all it takes from fields). */
  private static String value(EnvVar variable, Deployment deployment) {
    if (variable.getValueFrom() == null) {
      return variable.getValue();
    }
    var field = variable.getValueFrom().getFieldRef();
    if (field != null && "metadata.namespace".equals(field.getFieldPath())) {
      return deployment.getMetadata().getNamespace();
    }
    throw new IllegalStateException(
        "the Go provider's Deployment sets " + variable.getName() + " from what is not supported");
  }

  private static void labelAsClusterctlDoes(HasMetadata object, Manager manager) {
    Map<String, String> labels =
        new HashMap<>(
            object.getMetadata().getLabels() == null ? Map.of() : object.getMetadata().getLabels());
    labels.put("clusterctl.cluster.x-k8s.io", "");
    labels.put("cluster.x-k8s.io/provider", manager.clusterctlProvider);
    object.getMetadata().setLabels(labels);
  }

  /** Connections from either manager to 127.0.0.1:{@code port} reach it on this machine. */
  public void reachOutside(int port) {
    running.values().forEach(r -> r.namespaces().reachOutside(port));
  }

  /**
   * A manager's process: its pid, its log; kill and restart it; the CPU time and peak resident set
   * size it has used so far.
   */
  public ManagerProcess process(Manager manager) {
    return running.get(manager).process();
  }

  /** The ServiceAccount a manager runs as. */
  public ProviderServiceAccount serviceAccount(Manager manager) {
    return running.get(manager).account();
  }

  /** Whether both managers have stopped (their Deployments scaled to 0 or deleted). */
  public boolean stopped() {
    return running.values().stream().noneMatch(r -> r.process().isAlive());
  }

  /** The directory {@code hack/build-go-provider.sh} built the pair into. */
  public Path build() {
    return build;
  }

  /**
   * Stops both managers (the control plane first, as it was started last), then removes their
   * admission webhooks; their CRDs stay, as {@code clusterctl delete} leaves them by default.
   */
  @Override
  public void close() {
    List<Manager> order = new ArrayList<>(running.keySet());
    java.util.Collections.reverse(order);
    for (Manager manager : order) {
      Running r = running.remove(manager);
      try {
        r.deployment().close();
        r.process().close();
      } finally {
        r.webhooks().unregister();
        r.namespaces().close();
      }
    }
  }
}
