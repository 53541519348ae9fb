package io.openshiftagent.simulator.e2e;

import static io.openshiftagent.simulator.Fields.findCondition;
import static io.openshiftagent.simulator.Fields.string;
import static io.openshiftagent.simulator.e2e.ClusterScenario.name;
import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.openshiftagent.simulator.ApiVersions;
import io.openshiftagent.simulator.assisted.Machine.Fault;
import java.time.Duration;
import java.time.Instant;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Consumer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.parallel.ResourceAccessMode;
import org.junit.jupiter.api.parallel.ResourceLock;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What the real assisted-service refuses or waits for is what the user reads on our objects, in the
 * service's words: an SSH key it cannot parse (our CRD admits any string: the service is the one
 * that parses keys), and VIPs outside the hosts' network. And what only the service records: a
 * user-managed load balancer, and disk encryption with Tang servers.
 */
@ResourceLock(value = E2eWorld.WORLD, mode = ResourceAccessMode.READ)
class ServiceWordsTest {
  private static final Logger LOG = LoggerFactory.getLogger(ServiceWordsTest.class);

  @RegisterExtension static final E2eWorld world = new E2eWorld();

  /** A key of a supported type whose body is no key. */
  static final String UNPARSABLE_KEY = "ssh-rsa notakey user@example";

  static final String KEY =
      "ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIPWCmCQBl8AFoeTGj8v52CkBt9PxUkUJ7Ss2++ELtgNq user@example";

  /**
   * The service's refusal on each config and Machine; then the two fixes: one Machine's InfraEnv
   * corrected in place, and the control plane's spec, which replaces the Machines whose hosts never
   * booted by itself (the installation has not started) and leaves the one whose data was made to
   * the user.
   */
  @Test
  void aKeyTheServiceRefusesIsReportedAndTheFixedKeyClearsIt() {
    ClusterScenario cluster = world.scenario("e2e-refused-key", "test-multinode");
    // No host: the InfraEnvs, and the service's answer to them, come before any host boots.
    // The same cluster is dual-stack, which the service takes without any host.
    cluster.apply(
        "/e2e/ha.yaml",
        Map.of("BOOT_MODE", "LiveISO", "WORKERS", "0"),
        onControlPlane(cp -> configSpec(cp).put("sshAuthorizedKey", UNPARSABLE_KEY))
            .andThen(DualStack::add));

    cluster.await(
        "each config to report the discovery image refused",
        () -> {
          List<GenericKubernetesResource> configs = configs(cluster);
          return configs.size() == 3
              && configs.stream()
                  .allMatch(c -> "DiscoveryImageRefused".equals(ready(c).get("reason")));
        });
    // The Machines (named as their configs) in the order of their replacement: oldest first, then
    // by name. The one fixed in place goes last, so no replacement can race with its data.
    List<String> refused =
        cluster.controlPlaneMachines().stream()
            .sorted(
                Comparator.comparing(
                        (GenericKubernetesResource m) -> m.getMetadata().getCreationTimestamp())
                    .thenComparing(ClusterScenario::name))
            .map(ClusterScenario::name)
            .toList();
    assertThat(refused)
        .containsExactlyInAnyOrderElementsOf(
            configs(cluster).stream().map(ClusterScenario::name).toList());
    String config = refused.get(2);
    GenericKubernetesResource infraEnv = cluster.get(ApiVersions.AGENT_INSTALL, "InfraEnv", config);
    Map<String, Object> imageCreated = condition(infraEnv, "ImageCreated");
    assertThat(imageCreated).containsEntry("status", "False");
    String serviceWords = (String) imageCreated.get("message");
    String message =
        (String)
            ready(cluster.get(ApiVersions.BOOTSTRAP, "OpenshiftAssistedConfig", config))
                .get("message");
    assertThat(message)
        .startsWith("assisted-service refused to create the discovery image of InfraEnv")
        .contains(serviceWords)
        .contains("sshAuthorizedKey");
    assertThat(serviceWords).containsIgnoringCase("ssh");

    cluster.await(
        "the Machine to carry the refusal, as Cluster API mirrors the config's Ready",
        () ->
            cluster.controlPlaneMachines().stream()
                .map(machine -> condition(machine, "BootstrapConfigReady").get("message"))
                .anyMatch(m -> m instanceof String text && text.contains(serviceWords)));

    // The config's spec is immutable: one Machine's fix is its InfraEnv's spec, corrected in
    // place.
    cluster.setSpec(ApiVersions.AGENT_INSTALL, "InfraEnv", config, "sshAuthorizedKey", KEY);
    cluster.await(
        "the service to create the image from the corrected InfraEnv",
        () -> imageCreated(cluster, config));
    cluster.await(
        "the config to make its bootstrap data, the refusal gone",
        () ->
            "True"
                .equals(
                    ready(cluster.get(ApiVersions.BOOTSTRAP, "OpenshiftAssistedConfig", config))
                        .get("status")));

    // The others' fix: the control plane's spec. Their hosts never booted (no data was ever
    // made for them) and the installation has not started, so they are replaced by themselves.
    cluster.patch(
        ApiVersions.CONTROL_PLANE,
        "OpenshiftAssistedControlPlane",
        "test-multinode",
        Map.of("spec", Map.of("openshiftAssistedConfigSpec", Map.of("sshAuthorizedKey", KEY))));
    List<String> neverBooted = refused.subList(0, 2);
    Duration replaced =
        cluster.await(
            "the Machines whose hosts never booted to be replaced by Machines of the fixed key,"
                + " whose images the service creates",
            () -> {
              List<GenericKubernetesResource> configs = configs(cluster);
              List<String> names = configs.stream().map(ClusterScenario::name).toList();
              return configs.size() == 3
                  && names.contains(config)
                  && names.stream().noneMatch(neverBooted::contains)
                  && configs.stream()
                      .filter(c -> !name(c).equals(config))
                      .allMatch(
                          c ->
                              KEY.equals(string(c, "spec", "sshAuthorizedKey"))
                                  && imageCreated(cluster, name(c)));
            });
    LOG.info("the two Machines whose hosts never booted were replaced in {}", replaced);
    for (GenericKubernetesResource made : configs(cluster)) {
      if (!name(made).equals(config)) {
        assertThat(
                string(
                    cluster.get(ApiVersions.AGENT_INSTALL, "InfraEnv", name(made)),
                    "spec",
                    "sshAuthorizedKey"))
            .isEqualTo(KEY);
      }
    }
    assertThat(
            cluster
                .hub()
                .events()
                .v1()
                .events()
                .inNamespace(cluster.namespace())
                .list()
                .getItems()
                .stream()
                .filter(e -> "ReplaceNeverBooted".equals(e.getAction()))
                .map(e -> e.getNote()))
        .as("an Event for each Machine replaced")
        .hasSize(2)
        .allMatch(note -> note.contains("its host never booted and it does not match the spec"));
    // The Machine whose data was made may have a host by now: it stays the user's (OnDelete).
    cluster.await(
        "the control plane to leave the Machine whose data was made to the user",
        () -> {
          Map<String, Object> rollingOut = condition(cluster.controlPlane(), "RollingOut");
          return "RollingOut".equals(rollingOut.get("reason"))
              && rollingOut.get("message") instanceof String text
              && text.endsWith("made from the current spec: " + config);
        });
    DualStack.assertRecorded(new ServiceRecord(world.world(), cluster));
  }

  private static boolean imageCreated(ClusterScenario cluster, String infraEnv) {
    GenericKubernetesResource now = cluster.get(ApiVersions.AGENT_INSTALL, "InfraEnv", infraEnv);
    String url = now == null ? null : string(now, "status", "isoDownloadURL");
    return url != null
        && !url.isEmpty()
        && "True".equals(condition(now, "ImageCreated").get("status"));
  }

  /**
   * Also, on the same hosts: their network's NTP service down, so that each host fails the
   * service's validation of its clock. Beyond the grace each config, and through it each Machine,
   * names the failing validation in the service's words, with a Warning Event, and the control
   * plane's Available names each Machine held back; once NTP answers again the validation passes
   * and no config names it any more. Two of the hosts also come wrong, a disk too small and no
   * default route, which their Machines name too until the hosts are put right.
   */
  @Test
  void vipsOutsideTheHostsNetworkAreTheUsersToFix() {
    ClusterScenario cluster = world.scenario("e2e-vips-outside", "test-multinode");
    world.world().serveNtp(cluster.namespace(), false);
    cluster.enrolHosts(3);
    // Two of the three machines come wrong: one without its data disks, one whose network gives
    // it no gateway. The others' network validations cannot fail for one host alone here: with
    // the VIPs outside the hosts' network the machine network is undefined, and the service
    // leaves belongs-to-machine-cidr and belongs-to-majority-group pending on every host.
    List<String> hosts =
        cluster.list(ApiVersions.METAL3, "BareMetalHost").stream()
            .map(ClusterScenario::name)
            .sorted()
            .toList();
    world.world().hostFaults(cluster.namespace(), hosts.get(0), Set.of(Fault.SMALL_DISK));
    world.world().hostFaults(cluster.namespace(), hosts.get(1), Set.of(Fault.NO_DEFAULT_ROUTE));
    try (HostWordsWatch disk = HostWordsWatch.start(cluster, hosts.get(0), NO_ELIGIBLE_DISK);
        HostWordsWatch route = HostWordsWatch.start(cluster, hosts.get(1), NO_DEFAULT_ROUTE)) {
      hostsWithoutNtp(cluster);
      hostsThatCameWrong(cluster, hosts, disk, route);
    }
    world.world().serveNtp(cluster.namespace(), true);
    cluster.await(
        "no config to name the NTP validation once NTP answers",
        () ->
            configs(cluster).stream()
                .noneMatch(c -> String.valueOf(ready(c).get("message")).contains(NTP_FAILING)));
  }

  /** The Agent's message is on the Machine past the grace, and within seconds of the service. */
  private static final Duration WITHIN = Duration.ofSeconds(10);

  /**
   * How long a host fails its validations before it is reported (docs/bootstrap.md, "Why a host is
   * stuck").
   */
  private static final Duration GRACE = Duration.ofSeconds(60);

  /**
   * The host without its data disks, and the one without a default route: each Machine names what
   * is wrong with its host besides NTP, in the service's words, no later than {@link #WITHIN} after
   * the service said it (past the grace, which started when the host began failing); the third
   * host's names neither. Put right (the disks fitted, the gateway given), the host reports it with
   * its next inventory, and its Machine stops naming it within seconds of the service, still naming
   * NTP.
   */
  private static void hostsThatCameWrong(
      ClusterScenario cluster, List<String> hosts, HostWordsWatch disk, HostWordsWatch route) {
    cluster.await(
        "the Machines of the hosts that came wrong to name what is wrong",
        () -> disk.machineSaid() != null && route.machineSaid() != null);
    for (HostWordsWatch watch : List.of(disk, route)) {
      Instant reportable = later(watch.serviceSaid(), watch.failingSince().plus(GRACE));
      LOG.info(
          "host {}: the service said it at {} (failing since {}), the Machine at {}: {}",
          watch.host(),
          watch.serviceSaid(),
          watch.failingSince(),
          watch.machineSaid(),
          watch.machineMessage());
      assertThat(Duration.between(reportable, watch.machineSaid()))
          .as(
              "the Machine of %s names it within seconds of the service, past the grace",
              watch.host())
          .isLessThan(WITHIN);
      assertThat(watch.machineMessage())
          .as("a host that fails two validations names both")
          .contains(NTP_FAILING);
    }
    assertThat(
            cluster.controlPlaneMachines().stream()
                .map(m -> String.valueOf(condition(m, "BootstrapConfigReady").get("message")))
                .filter(m -> m.startsWith("host " + hosts.get(2) + " (")))
        .as("the third host's Machine names NTP only")
        .singleElement()
        .satisfies(
            m ->
                assertThat(m)
                    .contains(NTP_FAILING)
                    .doesNotContain(NO_ELIGIBLE_DISK, NO_DEFAULT_ROUTE));

    world.world().hostFaults(cluster.namespace(), disk.host(), Set.of());
    world.world().hostFaults(cluster.namespace(), route.host(), Set.of());
    cluster.await(
        "the Machines of the hosts put right to stop naming what was wrong",
        () -> disk.machineStopped() != null && route.machineStopped() != null);
    for (HostWordsWatch watch : List.of(disk, route)) {
      LOG.info(
          "host {} put right: the service stopped saying it at {}, the Machine at {}: {}",
          watch.host(),
          watch.serviceStopped(),
          watch.machineStopped(),
          watch.machineMessage());
      assertThat(watch.serviceStopped()).isNotNull();
      assertThat(Duration.between(watch.serviceStopped(), watch.machineStopped()))
          .as("the Machine of %s stops naming it within seconds of the service", watch.host())
          .isLessThan(WITHIN);
      assertThat(watch.machineMessage()).contains(NTP_FAILING);
    }
  }

  private static Instant later(Instant a, Instant b) {
    return a.isAfter(b) ? a : b;
  }

  /**
   * Each Machine names the NTP validation; the control plane's Available names each Machine held
   * back; a Warning Event on each config.
   */
  private static void hostsWithoutNtp(ClusterScenario cluster) {
    cluster.apply(
        "/e2e/ha.yaml",
        Map.of("BOOT_MODE", "LiveISO", "WORKERS", "0"),
        onControlPlane(
            cp -> {
              Map<String, Object> config = config(cp);
              config.put("apiVIPs", List.of("10.99.0.40"));
              config.put("ingressVIPs", List.of("10.99.0.41"));
            }));
    cluster.await(
        "the control plane to say that assisted-service waits for the user",
        () ->
            "InstallationNeedsUserAction"
                .equals(condition(cluster.controlPlane(), "Available").get("reason")));
    String message = (String) condition(cluster.controlPlane(), "Available").get("message");
    LOG.info("VIPs outside the hosts' network: Available says: {}", message);
    GenericKubernetesResource install =
        cluster.get(ApiVersions.HIVE_EXTENSION, "AgentClusterInstall", "test-multinode");
    assertThat(message)
        .startsWith("assisted-service waits for the user: AgentClusterInstall test-multinode is ")
        .contains(string(install, "status", "debugInfo", "state"))
        .contains(
            "failing validations: machine-cidr-defined (The Machine Network CIDR is undefined)");
    assertThat((String) condition(install, "Validated").get("message"))
        .as("the service's own condition says the same")
        .contains("The Machine Network CIDR is undefined");

    cluster.await(
        "each Machine to say that its host fails the NTP validation",
        () -> {
          List<GenericKubernetesResource> machines = cluster.controlPlaneMachines();
          return machines.size() == 3
              && machines.stream()
                  .map(m -> condition(m, "BootstrapConfigReady"))
                  .allMatch(
                      c ->
                          HOST_VALIDATIONS_FAILING.equals(c.get("reason"))
                              && String.valueOf(c.get("message")).contains(NTP_FAILING));
        });
    LOG.info(
        "hosts without NTP: a Machine's BootstrapConfigReady says: {}",
        condition(cluster.controlPlaneMachines().get(0), "BootstrapConfigReady").get("message"));
    cluster.await(
        "the control plane's Available to name each host held back",
        () -> {
          String available =
              String.valueOf(condition(cluster.controlPlane(), "Available").get("message"));
          return available.contains("; hosts held back: ")
              && cluster.controlPlaneMachines().stream()
                  .allMatch(m -> available.contains("Machine " + name(m) + ": "))
              && available.contains(NTP_FAILING);
        });
    LOG.info(
        "hosts without NTP: the control plane's Available says: {}",
        condition(cluster.controlPlane(), "Available").get("message"));
    for (GenericKubernetesResource config : configs(cluster)) {
      Map<String, Object> ready = ready(config);
      assertThat(ready.get("status")).isEqualTo("False");
      assertThat((String) ready.get("message"))
          .contains("fails assisted-service's validations since")
          .contains(NTP_FAILING);
    }
    assertThat(
            cluster.hub().v1().events().inNamespace(cluster.namespace()).list().getItems().stream()
                .filter(e -> HOST_VALIDATIONS_FAILING.equals(e.getReason()))
                .filter(e -> "Warning".equals(e.getType()))
                .map(e -> e.getInvolvedObject().getName())
                .distinct())
        .as("a Warning Event on each config")
        .containsExactlyInAnyOrderElementsOf(
            configs(cluster).stream().map(ClusterScenario::name).toList());
  }

  private static final String HOST_VALIDATIONS_FAILING = "HostValidationsFailing";

  /** assisted-service's words for a host whose clock follows no NTP source. */
  private static final String NTP_FAILING = "Host couldn't synchronize with any NTP server";

  /** Its words for a host without a disk it may install on (has-min-valid-disks). */
  private static final String NO_ELIGIBLE_DISK =
      "No eligible disks were found, please check specific disks to see why they are not eligible";

  /** Its words for a host whose inventory has no default route (has-default-route). */
  private static final String NO_DEFAULT_ROUTE =
      "Host has not yet been configured with a default route.";

  @Test
  void aUserManagedLoadBalancerIsTheServicesToo() throws Exception {
    ClusterScenario cluster = world.scenario("e2e-user-lb", "test-multinode");
    // No host: what the service records of the cluster comes before any host boots.
    cluster.apply(
        "/e2e/ha.yaml",
        Map.of("BOOT_MODE", "LiveISO", "WORKERS", "0"),
        onControlPlane(
            cp -> {
              config(cp).put("loadBalancer", Map.of("type", "UserManaged"));
              config(cp)
                  .put(
                      "diskEncryption",
                      Map.of("enableOn", "masters", "mode", "tang", "tangServers", TANG_SERVERS));
            }));
    // The service's record, not SpecSynced: with no host yet the service cannot apply the
    // install-config overrides (the capabilities every bare-metal cluster gets) to the cluster of a
    // user-managed load balancer; it logs "has no bootstrap host" and retries until one registers.
    cluster.await(
        "assisted-service to record the cluster's load balancer as user-managed",
        () -> List.of("user-managed").equals(loadBalancerRecorded(cluster)));
    GenericKubernetesResource install =
        cluster.get(ApiVersions.HIVE_EXTENSION, "AgentClusterInstall", "test-multinode");
    assertThat(string(install, "spec", "loadBalancer", "type")).isEqualTo("UserManaged");
    // The same cluster's disk encryption with Tang servers, which the service parses and records.
    assertThat(
            new ServiceRecord(world.world(), cluster)
                .clusterColumns(
                    "disk_encryption_enable_on, disk_encryption_mode, disk_encryption_tang_servers"))
        .isEqualTo("masters|tang|" + TANG_SERVERS);
  }

  /** A Tang server as assisted-service takes them: a JSON list of URLs and thumbprints. */
  static final String TANG_SERVERS =
      "[{\"url\":\"http://tang.lab.home:7500\",\"thumbprint\":\"PLjNyRdGw03zlRoGjQYMahSZGu9\"}]";

  /** The service's own record of the cluster's load balancer type. */
  private static List<String> loadBalancerRecorded(ClusterScenario cluster) {
    try {
      return world
          .world()
          .assistedService()
          .postgres()
          .query(
              "SELECT load_balancer_type FROM clusters WHERE kube_key_namespace = '"
                  + cluster.namespace()
                  + "' AND kube_key_name = 'test-multinode'");
    } catch (Exception e) {
      throw new IllegalStateException(e);
    }
  }

  private static List<GenericKubernetesResource> configs(ClusterScenario cluster) {
    return cluster.list(ApiVersions.BOOTSTRAP, "OpenshiftAssistedConfig");
  }

  private static Map<String, Object> ready(GenericKubernetesResource config) {
    return condition(config, "Ready");
  }

  private static Map<String, Object> condition(GenericKubernetesResource object, String type) {
    return findCondition(object, type).orElse(Map.of());
  }

  private static Consumer<HasMetadata> onControlPlane(Consumer<GenericKubernetesResource> edit) {
    return object -> {
      if (object instanceof GenericKubernetesResource resource
          && "OpenshiftAssistedControlPlane".equals(object.getKind())) {
        edit.accept(resource);
      }
    };
  }

  @SuppressWarnings("unchecked")
  private static Map<String, Object> config(GenericKubernetesResource cp) {
    Map<String, Object> spec = (Map<String, Object>) cp.getAdditionalProperties().get("spec");
    Map<String, Object> config = new HashMap<>((Map<String, Object>) spec.get("config"));
    spec.put("config", config);
    return config;
  }

  @SuppressWarnings("unchecked")
  private static Map<String, Object> configSpec(GenericKubernetesResource cp) {
    Map<String, Object> spec = (Map<String, Object>) cp.getAdditionalProperties().get("spec");
    Map<String, Object> config =
        new HashMap<>((Map<String, Object>) spec.get("openshiftAssistedConfigSpec"));
    spec.put("openshiftAssistedConfigSpec", config);
    return config;
  }
}
