package io.openshiftagent.simulator;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.fail;

import io.fabric8.kubernetes.api.model.Condition;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.fabric8.kubernetes.api.model.OwnerReference;
import io.fabric8.kubernetes.api.model.Secret;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.Watch;
import io.fabric8.kubernetes.client.Watcher;
import io.fabric8.kubernetes.client.WatcherException;
import io.fabric8.kubernetes.client.dsl.Resource;
import io.fabric8.kubernetes.client.dsl.base.PatchContext;
import io.fabric8.kubernetes.client.dsl.base.PatchType;
import io.fabric8.kubernetes.client.utils.Serialization;
import io.openshiftagent.api.bootstrap.v1alpha2.OpenshiftAssistedConfig;
import io.openshiftagent.api.common.Conditions;
import io.openshiftagent.api.controlplane.v1alpha3.OpenshiftAssistedControlPlane;
import io.openshiftagent.api.external.ExternalKinds;
import io.openshiftagent.api.external.OwnedFieldsPatch;
import io.openshiftagent.api.external.assisted.Agent;
import io.openshiftagent.api.external.assisted.AgentClusterInstall;
import io.openshiftagent.api.external.assisted.AgentSpec;
import io.openshiftagent.api.external.assisted.InfraEnv;
import io.openshiftagent.api.external.capi.Cluster;
import io.openshiftagent.api.external.capi.Machine;
import io.openshiftagent.api.external.hive.ClusterDeployment;
import io.openshiftagent.api.external.metal3.BareMetalHost;
import io.openshiftagent.api.external.metal3.Metal3Machine;
import io.openshiftagent.bootstrap.BootstrapProviderMain;
import io.openshiftagent.controlplane.ControlPlaneProvider;
import io.openshiftagent.provider.reconcile.OwnerReferences;
import io.openshiftagent.provider.runtime.ProviderOptions;
import io.openshiftagent.provider.runtime.ProviderRuntime;
import io.openshiftagent.testsupport.CrdInstaller;
import io.openshiftagent.testsupport.FreePorts;
import io.openshiftagent.testsupport.RestartableKubeApiServer;
import java.io.IOException;
import java.io.InputStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.BooleanSupplier;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * API server restart: the hub's kube-apiserver and etcd restart in the middle of an HA cluster's
 * flow, and both providers, started as their {@code main} starts them (leader election off: with
 * it, a provider that cannot renew its Lease exits by design, see docs/reliability.md), reconnect
 * on their own and finish their part. The test plays Cluster API core, Metal3, the hosts and
 * assisted-service, and logs how long the providers took to resume.
 */
class ApiServerRestartTest {
  private static final Logger LOG = LoggerFactory.getLogger(ApiServerRestartTest.class);
  private static final Duration TIMEOUT = Duration.ofMinutes(3);
  private static final HttpClient HTTP = HttpClient.newHttpClient();
  private static final String CLUSTER = "restart";
  private static final int REPLICAS = 3;

  /** Longer than JOSDK's default retries of a failing reconcile last here (about 130 s). */
  private static final Duration LONG_OUTAGE = Duration.ofSeconds(150);

  private static RestartableKubeApiServer hub;
  private static KubernetesClient client;
  private static final Map<String, ProviderRuntime> providers = new LinkedHashMap<>();
  private final AtomicReference<Duration> away = new AtomicReference<>();

  @BeforeAll
  static void startHubAndProviders() throws Exception {
    Path dir =
        Files.createTempDirectory(Files.createDirectories(Path.of("target")), "restartable-hub-");
    hub = RestartableKubeApiServer.startHub(dir, List.of());
    client = hub.client();
    CrdInstaller.labelMetal3MachineContracts(client);
    Path kubeconfig = Files.writeString(dir.resolve("hub.kubeconfig"), hub.kubeConfigYaml());
    for (ProviderRuntime.Provider provider :
        List.of(new BootstrapProviderMain(Map.of()), new ControlPlaneProvider(Map.of()))) {
      ProviderOptions options =
          ProviderOptions.parse(
              provider.defaultLeaseName(),
              "--kubeconfig=" + kubeconfig,
              "--leader-elect=false",
              "--metrics-bind-address=0",
              "--health-probe-bind-address=:" + FreePorts.next());
      providers.put(provider.command(), ProviderRuntime.start(provider, options));
    }
  }

  @AfterAll
  static void stopAll() {
    providers.values().forEach(ProviderRuntime::close);
    if (hub != null) {
      hub.close();
    }
  }

  @Test
  void bothProvidersResumeOnTheirOwnWhenTheHubRestartsMidFlow() throws Exception {
    String ns = hub.createNamespace("api-restart");
    outageOnceTheFirstMachineAppears(ns, () -> away.set(hub.restart()));
    long back = System.nanoTime();

    // Right away, assisted-service reports on the AgentClusterInstall and Cluster API core makes
    // each Machine the owner of its config: both providers see these only through new watches.
    installerState(ns, "insufficient", "waiting for 3 hosts to register");
    Duration controlPlaneResumed =
        await(
            ns,
            "the control plane reporting the installer state written after the restart",
            () -> availableMessage(ns).contains("installer state: insufficient"),
            back);
    await(ns, REPLICAS + " control-plane Machines", () -> machines(ns).size() == REPLICAS);
    machines(ns).forEach(m -> clusterApiOwnsTheConfig(ns, m));
    Duration bootstrapResumed =
        await(ns, REPLICAS + " InfraEnvs", () -> list(ns, InfraEnv.class).size() == REPLICAS, back);
    Duration providersReady =
        await(ns, "both providers ready", ApiServerRestartTest::providersReady, back);

    // The rest of the flow: Metal3 claims hosts, the ISOs are published, the hosts register.
    List<Machine> machines = machines(ns);
    for (int i = 0; i < machines.size(); i++) {
      metal3ClaimsHost(ns, machines.get(i), "host-" + i);
    }
    list(ns, InfraEnv.class).forEach(i -> publishIso(ns, i));
    await(
        ns,
        "every Metal3Machine booting its discovery ISO, and the bootstrap data Secrets",
        () -> machines(ns).stream().allMatch(m -> bootsIsoWithData(ns, m)));
    list(ns, InfraEnv.class).forEach(i -> registerAgent(ns, i));
    await(
        ns,
        "every Agent approved as a master",
        () ->
            list(ns, Agent.class).size() == REPLICAS
                && list(ns, Agent.class).stream()
                    .allMatch(
                        a ->
                            Boolean.TRUE.equals(a.getSpec().approved)
                                && "master".equals(a.getSpec().role)));
    installerState(ns, "installing", "Installing: 3 of 3 hosts writing image to disk");
    await(
        ns,
        "the control plane Installing",
        // A state in which the installer makes progress is not named: the message changes from
        // the named "insufficient" to the installation being under way.
        () -> availableMessage(ns).contains("the installation is under way"));
    long total = (System.nanoTime() - back) / 1_000_000;

    // Nothing made twice across the restart.
    assertThat(machines(ns)).hasSize(REPLICAS);
    assertThat(list(ns, OpenshiftAssistedConfig.class)).hasSize(REPLICAS);
    assertThat(list(ns, Metal3Machine.class)).hasSize(REPLICAS);
    assertThat(list(ns, InfraEnv.class)).hasSize(REPLICAS);
    assertThat(list(ns, ClusterDeployment.class)).hasSize(1);
    assertThat(list(ns, AgentClusterInstall.class)).hasSize(1);
    assertThat(client.secrets().inNamespace(ns).list().getItems())
        .filteredOn(s -> ExternalKinds.CLUSTER_SECRET_TYPE.equals(s.getType()))
        .hasSize(REPLICAS);

    LOG.info(
        "API server restart: the API was away {} ms; after it came back the control plane"
            + " reported a change written then in {} ms, the bootstrap provider made the {}"
            + " InfraEnvs in {} ms, both providers were ready in {} ms, and the rest of the flow"
            + " was done in {} ms",
        away.get().toMillis(),
        controlPlaneResumed.toMillis(),
        REPLICAS,
        bootstrapResumed.toMillis(),
        providersReady.toMillis(),
        total);
  }

  /**
   * The API server away for longer than JOSDK's default retries last (five, about two minutes
   * here): the control plane's scale-up completes, meanwhile {@code /readyz} says the providers
   * cannot watch, and afterwards both act on new changes. (The control plane now creates the
   * Machines of one scale-up at once, so the outage rarely interrupts it any more; the unlimited
   * retry a failing reconcile gets is checked by {@code ProviderOperatorTest}.)
   */
  @Test
  void bothProvidersWatchAgainAfterALongOutage() throws Exception {
    String ns = hub.createNamespace("long-outage");
    AtomicBoolean readyDuringOutage = new AtomicBoolean();
    outageOnceTheFirstMachineAppears(
        ns,
        () -> {
          hub.stopApiServer();
          sleep(LONG_OUTAGE.dividedBy(2));
          readyDuringOutage.set(anyProviderReady());
          sleep(LONG_OUTAGE.dividedBy(2));
          hub.startApiServer();
        });
    long back = System.nanoTime();
    assertThat(readyDuringOutage)
        .as("a provider's /readyz answered ok while it could not watch")
        .isFalse();

    Duration scaledUp =
        await(
            ns, REPLICAS + " control-plane Machines", () -> machines(ns).size() == REPLICAS, back);
    installerState(ns, "insufficient", "waiting for 3 hosts to register");
    machines(ns).forEach(m -> clusterApiOwnsTheConfig(ns, m));
    Duration watching =
        await(
            ns,
            "the control plane reporting the installer state, and " + REPLICAS + " InfraEnvs",
            () ->
                availableMessage(ns).contains("installer state: insufficient")
                    && list(ns, InfraEnv.class).size() == REPLICAS,
            back);
    Duration providersReady =
        await(ns, "both providers ready", ApiServerRestartTest::providersReady, back);

    LOG.info(
        "API server outage of {} s: after it the control plane finished its scale-up in {} ms,"
            + " both providers had acted on changes written after it within {} ms and were ready"
            + " in {} ms",
        LONG_OUTAGE.toSeconds(),
        scaledUp.toMillis(),
        watching.toMillis(),
        providersReady.toMillis());
  }

  /**
   * Applies the cluster as a user would and, as soon as the control plane's first Machine appears
   * (the watch event the provider gets too), runs {@code outage}: the control plane's next step is
   * then under way. Returns when the API went away.
   */
  private static Instant outageOnceTheFirstMachineAppears(String ns, Runnable outage)
      throws Exception {
    CountDownLatch firstMachine = new CountDownLatch(1);
    try (Watch watch =
        client
            .resources(Machine.class)
            .inNamespace(ns)
            .watch(
                new Watcher<>() {
                  @Override
                  public void eventReceived(Action action, Machine machine) {
                    firstMachine.countDown();
                  }

                  @Override
                  public void onClose(WatcherException cause) {}
                })) {
      apply(ns, "/faults/ha-cluster.yaml");
      clusterApiAdoptsTheControlPlane(ns);
      if (!firstMachine.await(TIMEOUT.toMillis(), TimeUnit.MILLISECONDS)) {
        fail("no control-plane Machine after " + TIMEOUT + "\n" + dump(ns));
      }
    }
    Instant wentAway = Instant.now();
    outage.run();
    return wentAway;
  }

  // ---- the parts the test plays ----

  private static void apply(String ns, String resource) throws IOException {
    try (InputStream in = ApiServerRestartTest.class.getResourceAsStream(resource)) {
      for (HasMetadata object : client.load(in).items()) {
        object.getMetadata().setNamespace(ns);
        client.resource(object).create();
      }
    }
  }

  /** Cluster API core: the Cluster owns its control plane; CAPM3 provisioned the infrastructure. */
  private static void clusterApiAdoptsTheControlPlane(String ns) {
    addOwner(
        client.resources(OpenshiftAssistedControlPlane.class).inNamespace(ns).withName(CLUSTER),
        get(ns, Cluster.class, CLUSTER));
    patchStatus(
        ns,
        Cluster.class,
        CLUSTER,
        new OwnedFieldsPatch().set(true, "status", "initialization", "infrastructureProvisioned"));
  }

  /** Cluster API core: a Machine controls its bootstrap config. */
  private static void clusterApiOwnsTheConfig(String ns, Machine machine) {
    addOwner(
        client
            .resources(OpenshiftAssistedConfig.class)
            .inNamespace(ns)
            .withName(machine.getSpec().bootstrap.configRef.name),
        machine);
  }

  /**
   * Appends a controller owner reference with a JSON patch: no read-modify-write that races the
   * providers' own writes (finalizers, status).
   */
  private static void addOwner(Resource<? extends HasMetadata> owned, HasMetadata owner) {
    OwnerReference reference = OwnerReferences.controller(owner);
    List<OwnerReference> existing = owned.get().getMetadata().getOwnerReferences();
    Map<String, Object> add =
        existing == null || existing.isEmpty()
            ? Map.of("op", "add", "path", "/metadata/ownerReferences", "value", List.of(reference))
            : Map.of("op", "add", "path", "/metadata/ownerReferences/-", "value", reference);
    owned.patch(PatchContext.of(PatchType.JSON), Serialization.asJson(List.of(add)));
  }

  /**
   * CAPM3: the Metal3Machine claimed a BareMetalHost, which it labels with the Cluster's name (the
   * bootstrap provider caches only the hosts a cluster uses).
   */
  private static void metal3ClaimsHost(String ns, Machine machine, String host) {
    client
        .resources(BareMetalHost.class)
        .inNamespace(ns)
        .withName(host)
        .patch(
            PatchContext.of(PatchType.JSON_MERGE),
            new OwnedFieldsPatch()
                .set(
                    machine.getSpec().clusterName,
                    "metadata",
                    "labels",
                    ExternalKinds.CLUSTER_NAME_LABEL)
                .toJson());
    client
        .resources(Metal3Machine.class)
        .inNamespace(ns)
        .withName(machine.getSpec().infrastructureRef.name)
        .patch(
            PatchContext.of(PatchType.JSON_MERGE),
            new OwnedFieldsPatch()
                .set(
                    ns + "/" + host,
                    "metadata",
                    "annotations",
                    ExternalKinds.BAREMETALHOST_ANNOTATION)
                .toJson());
  }

  /** assisted-service: the InfraEnv's discovery ISO is ready. */
  private static void publishIso(String ns, InfraEnv infraEnv) {
    String name = infraEnv.getMetadata().getName();
    patchStatus(
        ns,
        InfraEnv.class,
        name,
        new OwnedFieldsPatch().set(isoUrl(name), "status", "isoDownloadURL"));
  }

  /** assisted-service: the host that booted the InfraEnv's ISO registered as an Agent. */
  private static void registerAgent(String ns, InfraEnv infraEnv) {
    Map<String, String> labels = new HashMap<>(infraEnv.getSpec().agentLabels);
    labels.put(ExternalKinds.INFRAENV_LABEL, infraEnv.getMetadata().getName());
    Agent agent = new Agent();
    agent.setMetadata(
        new ObjectMetaBuilder()
            .withName("agent-" + infraEnv.getMetadata().getName())
            .withNamespace(ns)
            .withLabels(labels)
            .build());
    agent.setSpec(new AgentSpec());
    agent.getSpec().approved = false;
    agent.getSpec().role = "";
    agent.getSpec().clusterDeploymentName = infraEnv.getSpec().clusterRef;
    client.resource(agent).create();
  }

  /** assisted-service: the state of the installation. */
  private static void installerState(String ns, String state, String stateInfo) {
    patchStatus(
        ns,
        AgentClusterInstall.class,
        CLUSTER,
        new OwnedFieldsPatch()
            .set(state, "status", "debugInfo", "state")
            .set(stateInfo, "status", "debugInfo", "stateInfo"));
  }

  /** A merge patch of an object's status, as the system that owns that status writes it. */
  private static void patchStatus(
      String ns, Class<? extends HasMetadata> type, String name, OwnedFieldsPatch patch) {
    client
        .resources(type)
        .inNamespace(ns)
        .withName(name)
        .subresource("status")
        .patch(PatchContext.of(PatchType.JSON_MERGE), patch.toJson());
  }

  // ---- reading ----

  private static String isoUrl(String infraEnv) {
    return "https://assisted.example.com/images/" + infraEnv + ".iso";
  }

  private static boolean bootsIsoWithData(String ns, Machine machine) {
    String config = machine.getSpec().bootstrap.configRef.name;
    Metal3Machine m3m = get(ns, Metal3Machine.class, machine.getSpec().infrastructureRef.name);
    return m3m != null
        && m3m.getSpec().image != null
        && isoUrl(config).equals(m3m.getSpec().image.url)
        && get(ns, Secret.class, config) != null;
  }

  private static String availableMessage(String ns) {
    OpenshiftAssistedControlPlane cp = get(ns, OpenshiftAssistedControlPlane.class, CLUSTER);
    if (cp == null || cp.getStatus() == null) {
      return "";
    }
    return Conditions.find(cp.getStatus().conditions, "Available")
        .map(Condition::getMessage)
        .orElse("");
  }

  private static List<Machine> machines(String ns) {
    return list(ns, Machine.class).stream()
        .sorted((a, b) -> a.getMetadata().getName().compareTo(b.getMetadata().getName()))
        .toList();
  }

  private static <T extends HasMetadata> List<T> list(String ns, Class<T> type) {
    return client.resources(type).inNamespace(ns).list().getItems();
  }

  private static <T extends HasMetadata> T get(String ns, Class<T> type, String name) {
    return client.resources(type).inNamespace(ns).withName(name).get();
  }

  private static boolean providersReady() {
    return providers.values().stream().allMatch(p -> status(p.healthPort(), "/readyz") == 200);
  }

  private static boolean anyProviderReady() {
    return providers.values().stream().anyMatch(p -> status(p.healthPort(), "/readyz") == 200);
  }

  private static int status(int port, String path) {
    try {
      return HTTP.send(
              HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + path)).build(),
              HttpResponse.BodyHandlers.discarding())
          .statusCode();
    } catch (IOException e) {
      return -1;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return -1;
    }
  }

  // ---- waiting, and saying why on failure ----

  /** Waits until {@code done}; returns how long that took from now. */
  private static Duration await(String ns, String what, BooleanSupplier done) throws Exception {
    return await(ns, what, done, System.nanoTime());
  }

  /** Waits until {@code done}; returns how long that took from {@code since} (nanoTime). */
  private static Duration await(String ns, String what, BooleanSupplier done, long since)
      throws Exception {
    long deadline = System.nanoTime() + TIMEOUT.toNanos();
    while (!holds(done)) {
      if (System.nanoTime() > deadline) {
        fail("timed out after " + TIMEOUT + " waiting for " + what + "\n" + dump(ns));
      }
      Thread.sleep(50);
    }
    return Duration.ofNanos(System.nanoTime() - since);
  }

  private static void sleep(Duration duration) {
    try {
      Thread.sleep(duration.toMillis());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(e);
    }
  }

  private static boolean holds(BooleanSupplier condition) {
    try {
      return condition.getAsBoolean();
    } catch (KubernetesClientException notServingYet) {
      return false;
    }
  }

  private static String dump(String ns) {
    StringBuilder out = new StringBuilder();
    OpenshiftAssistedControlPlane cp = get(ns, OpenshiftAssistedControlPlane.class, CLUSTER);
    if (cp != null && cp.getStatus() != null) {
      cp.getStatus().conditions.forEach(c -> out.append("control plane ").append(c).append('\n'));
    }
    for (OpenshiftAssistedConfig config : list(ns, OpenshiftAssistedConfig.class)) {
      out.append("config ").append(config.getMetadata().getName());
      if (config.getStatus() != null) {
        config.getStatus().conditions.forEach(c -> out.append("\n  ").append(c));
      }
      out.append('\n');
    }
    out.append("hub logs: ").append(hub.log("kube-apiserver")).append(", ").append(hub.log("etcd"));
    return out.toString();
  }
}
