package io.openshiftagent.simulator.e2e;

import static io.openshiftagent.simulator.Fields.conditionTrue;
import static io.openshiftagent.simulator.Fields.conditions;
import static io.openshiftagent.simulator.Fields.label;
import static io.openshiftagent.simulator.Fields.string;
import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.Event;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.SecretBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.dsl.Resource;
import io.fabric8.kubernetes.client.dsl.base.PatchContext;
import io.fabric8.kubernetes.client.dsl.base.PatchType;
import io.fabric8.kubernetes.client.utils.Serialization;
import io.openshiftagent.api.external.ExternalKinds;
import io.openshiftagent.provider.contract.GoProvider;
import io.openshiftagent.simulator.ApiVersions;
import io.openshiftagent.simulator.Fields;
import io.openshiftagent.simulator.World;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.function.BooleanSupplier;
import java.util.function.Consumer;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One cluster of an end-to-end test, in a namespace of its own on the world's hub: what a user does
 * (register hosts, apply manifests, patch), what they look at (the Cluster, its control plane,
 * Machines) and waiting for Cluster API to report an outcome. {@link #dump()} describes everything
 * that tells why a wait did not end.
 */
public final class ClusterScenario {
  private static final Logger LOG = LoggerFactory.getLogger(ClusterScenario.class);

  /**
   * How long a wait may take. The classes run side by side on one world, nine clusters at once on
   * two cores, beside the delivery tests' image builds: at that load the ClusterClass's HA cluster
   * with two workers took about 6.5 minutes to be Running with every Node, so the bound is 8. Speed
   * is measured by the benchmark, not here.
   */
  public static final Duration TIMEOUT = Duration.ofMinutes(8);

  private final World world;
  private final KubernetesClient hub;
  private final String namespace;
  private final String clusterName;
  private final SecretLeaks secrets;

  /** What the user created: {@code apiVersion kind name} of each object. */
  private final Set<String> created = new TreeSet<>();

  /**
   * What the user created that the hub's garbage collector deleted (its owners gone), as the audit
   * log shows ({@link GarbageCollection}); remembered, so the log is read again only for others.
   */
  private final Set<String> collectedByTheGarbageCollector =
      java.util.concurrent.ConcurrentHashMap.newKeySet();

  ClusterScenario(World world, String namespace, String clusterName, SecretLeaks secrets) {
    this.world = world;
    this.secrets = secrets;
    this.hub = world.hub();
    this.namespace = namespace;
    this.clusterName = clusterName;
  }

  public String namespace() {
    return namespace;
  }

  public String clusterName() {
    return clusterName;
  }

  public KubernetesClient hub() {
    return hub;
  }

  /**
   * The installed cluster's API server (one per installation: its AgentClusterInstall is named like
   * the control plane), waiting for it if it is starting.
   */
  public KubernetesClient workload() {
    GenericKubernetesResource cluster = cluster();
    String controlPlane =
        cluster == null ? null : string(cluster, "spec", "controlPlaneRef", "name");
    if (controlPlane == null) {
      throw new IllegalStateException("Cluster " + clusterName + " names no control plane yet");
    }
    return world.workload(namespace, controlPlane);
  }

  // ---- what the user does ----

  /**
   * Enrols {@code count} bare-metal hosts, {@code host-0}, {@code host-1}, ..., each with its BMC
   * credentials, as a Metal3 user does before creating clusters (once the namespace's
   * baremetal-operator runs). When all installed clusters share one API server, the hosts' names
   * start with the namespace's: a Node is named after its host ({@code $METADATA_NAME}), and two
   * clusters' Nodes must not meet under one name.
   */
  public void enrolHosts(int count) {
    world.startBareMetalOperator(namespace);
    String prefix = world.workloadMode() == World.Workloads.SHARED ? namespace + "-" : "";
    for (int i = 0; i < count; i++) {
      String name = prefix + "host-" + i;
      hub.resource(
              new SecretBuilder()
                  .withNewMetadata()
                  .withName(name + "-bmc")
                  .withNamespace(namespace)
                  .endMetadata()
                  .addToStringData("username", "admin")
                  .addToStringData("password", "secret")
                  .build())
          .create();
      GenericKubernetesResource host = new GenericKubernetesResource();
      host.setApiVersion(ApiVersions.METAL3);
      host.setKind("BareMetalHost");
      host.setMetadata(
          new io.fabric8.kubernetes.api.model.ObjectMetaBuilder()
              .withName(name)
              .withNamespace(namespace)
              .build());
      host.setAdditionalProperty(
          "spec",
          Map.of(
              "online", false,
              "bootMACAddress", String.format("52:54:00:00:00:%02x", i),
              "bmc",
                  Map.of(
                      "address",
                      "redfish-virtualmedia://192.168.222.1:8000/redfish/v1/Systems/" + name,
                      "credentialsName",
                      name + "-bmc")));
      hub.resource(host).create();
      created.add(describe("v1", "Secret", name + "-bmc"));
      created.add(describe(ApiVersions.METAL3, "BareMetalHost", name));
    }
  }

  /**
   * Creates every object of a manifest resource in this namespace, as {@code kubectl create -f}
   * does, after replacing each {@code ${NAME}} with its value in {@code variables}, and {@code
   * ${RELEASE_REPOSITORY}} and {@code ${OKD_RELEASE_REPOSITORY}} with the world's release
   * registry's repositories ({@link World#releaseRepositories}) unless given.
   */
  public void apply(String resource, Map<String, String> variables) {
    apply(resource, variables, object -> {});
  }

  /**
   * As {@link #apply(String, Map)}, with {@code edit} changing each object before it is created:
   * the manifest as a user changed it for their site.
   */
  public void apply(String resource, Map<String, String> variables, Consumer<HasMetadata> edit) {
    String text;
    try (InputStream in = ClusterScenario.class.getResourceAsStream(resource)) {
      if (in == null) {
        throw new IllegalArgumentException("no test resource " + resource);
      }
      text = new String(in.readAllBytes(), StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    Map<String, String> values = new HashMap<>(World.releaseRepositories());
    values.putAll(variables);
    for (Map.Entry<String, String> variable : values.entrySet()) {
      text = text.replace("${" + variable.getKey() + "}", variable.getValue());
    }
    // ${METADATA_*} is the manifest's own: host metadata the bootstrap provider resolves.
    assertThat(text.replace("${METADATA_", ""))
        .as("unreplaced variables in " + resource)
        .doesNotContain("${");
    for (HasMetadata object : hub.load(new java.io.ByteArrayInputStream(text.getBytes())).items()) {
      object.getMetadata().setNamespace(namespace);
      edit.accept(object);
      hub.resource(object).create();
      created.add(describe(object));
    }
  }

  /** A JSON merge patch of the object's spec or metadata, as {@code kubectl patch --type merge}. */
  public void patch(String apiVersion, String kind, String name, Map<String, Object> patch) {
    resource(apiVersion, kind, name)
        .patch(PatchContext.of(PatchType.JSON_MERGE), Serialization.asJson(patch));
  }

  /** Sets one field of the object's spec, as {@code kubectl patch} of that field does. */
  public void setSpec(String apiVersion, String kind, String name, String field, Object value) {
    patch(apiVersion, kind, name, Map.of("spec", Map.of(field, value)));
  }

  /**
   * The names of the installed cluster's Nodes of a role ({@code control-plane}, {@code worker}).
   */
  List<String> nodesWithRole(String role) {
    return workload()
        .nodes()
        .withLabel("node-role.kubernetes.io/" + role)
        .list()
        .getItems()
        .stream()
        .map(n -> n.getMetadata().getName())
        .toList();
  }

  /** Marks a Machine to go first when its owner scales down ({@code delete-machine}). */
  public void markForDeletion(GenericKubernetesResource machine) {
    patch(
        ApiVersions.CAPI,
        "Machine",
        name(machine),
        Map.of(
            "metadata",
            Map.of("annotations", Map.of(ExternalKinds.DELETE_MACHINE_ANNOTATION, "yes"))));
  }

  public void delete(String apiVersion, String kind, String name) {
    resource(apiVersion, kind, name).delete();
  }

  /**
   * Deletes the Cluster, as {@code kubectl delete cluster} does, and waits until Cluster API and
   * the providers have deleted everything it owns and it is gone. Returns how long that took.
   */
  public Duration deleteCluster() {
    delete(ApiVersions.CAPI, "Cluster", clusterName);
    Duration took = await("Cluster " + clusterName + " to be deleted", () -> cluster() == null);
    LOG.info("{}/{}: deleted in {} ms", namespace, clusterName, took.toMillis());
    return took;
  }

  /**
   * What the user created ({@code apiVersion kind name}), less the kinds Cluster API deletes with
   * the Cluster: what deleting the Cluster must leave in the namespace.
   */
  public Set<String> createdAndNotOwnedByTheCluster() {
    Set<String> kept = new TreeSet<>(created);
    kept.removeIf(
        o ->
            o.startsWith(ApiVersions.CAPI + " Cluster ")
                || o.startsWith(ApiVersions.CAPI + " MachineDeployment ")
                || o.startsWith(ApiVersions.METAL3_INFRASTRUCTURE + " Metal3Cluster ")
                || o.startsWith(ApiVersions.CONTROL_PLANE + " OpenshiftAssistedControlPlane "));
    return kept;
  }

  /**
   * Every object in the namespace ({@code apiVersion kind name}), of every namespaced kind the hub
   * serves, but Events (they expire by themselves).
   */
  public Set<String> everythingInTheNamespace() {
    return new TreeSet<>(ApiObjects.objects(hub, true, namespace).keySet());
  }

  /**
   * Everything the hub's garbage collector deleted in the namespace so far ({@code resource name}),
   * as the hub's audit log shows.
   */
  public List<String> whatTheGarbageCollectorDeleted() {
    return GarbageCollection.deletedIn(world.hubAuditLog(), namespace);
  }

  /**
   * Those of {@code present} whose owners are all gone: the hub's garbage collector is to delete
   * them (every owner here is in the same namespace).
   */
  private static Set<String> orphaned(Map<String, GenericKubernetesResource> present) {
    Set<String> uids = new HashSet<>();
    present.values().forEach(o -> uids.add(o.getMetadata().getUid()));
    Set<String> orphaned = new TreeSet<>();
    present.forEach(
        (key, object) -> {
          var owners = object.getMetadata().getOwnerReferences();
          if (owners != null
              && !owners.isEmpty()
              && owners.stream().noneMatch(owner -> uids.contains(owner.getUid()))) {
            orphaned.add(key);
          }
        });
    return orphaned;
  }

  /**
   * What deleting the Cluster must leave in the namespace, and nothing more: what the user created
   * that the Cluster did not own ({@link #createdAndNotOwnedByTheCluster}) but what the hub's
   * garbage collector is to delete or deleted (Cluster API makes the Cluster the owner of the
   * worker templates; the hub's audit log must show the collector's delete, {@link
   * GarbageCollection}: anything else that deleted them is a bug), and what the baremetal-operator
   * keeps for each of the user's hosts as long as the host exists: the objects owned, directly or
   * through one another, by a BareMetalHost the user created (its HardwareData,
   * HostFirmwareSettings and HostFirmwareComponents, and the FirmwareSchema those settings own).
   */
  public Set<String> whatDeletingTheClusterMustLeave() {
    Map<String, GenericKubernetesResource> present = ApiObjects.objects(hub, true, namespace);
    Set<String> expected = createdAndNotOwnedByTheCluster();
    Set<String> owners = new TreeSet<>();
    expected.stream()
        .filter(o -> o.startsWith(ApiVersions.METAL3 + " BareMetalHost "))
        .forEach(o -> owners.add(o.substring(o.indexOf(' ') + 1)));
    boolean grew = true;
    while (grew) {
      grew = false;
      for (Map.Entry<String, GenericKubernetesResource> object : present.entrySet()) {
        var references = object.getValue().getMetadata().getOwnerReferences();
        boolean ownedByTheHosts =
            references != null
                && references.stream()
                    .anyMatch(r -> owners.contains(r.getKind() + " " + r.getName()));
        if (ownedByTheHosts && expected.add(object.getKey())) {
          String key = object.getKey();
          owners.add(key.substring(key.indexOf(' ') + 1));
          grew = true;
        }
      }
    }
    // What Cluster API made the Cluster's (the MachineDeployment's templates) goes with it: while
    // such an object is there with its owners gone it is not expected, so the wait goes on until
    // the garbage collector has deleted it; once gone, only the collector may have deleted it.
    expected.removeAll(orphaned(present));
    Set<String> gone = new TreeSet<>(expected);
    gone.removeAll(present.keySet());
    gone.removeAll(collectedByTheGarbageCollector);
    collectedByTheGarbageCollector.addAll(
        GarbageCollection.collected(hub, world.hubAuditLog(), namespace, gone));
    expected.removeAll(collectedByTheGarbageCollector);
    return expected;
  }

  /**
   * The hub's cluster-scoped objects ({@code apiVersion kind name}), less those of the other
   * namespaces' clusters, which other classes on the shared world create meanwhile: their
   * Namespaces, their baremetal-operators' webhook configurations, their ClusterImageSets ({@code
   * <namespace>.<control plane>}). Those classes create and delete their namespaces at any moment,
   * so the other namespaces are those listed before or after the objects, or among them.
   */
  public Set<String> clusterScopedObjectsButOtherNamespaces() {
    Set<String> others = new TreeSet<>(otherNamespaces());
    Set<String> objects = ApiObjects.list(hub, false, null);
    others.addAll(otherNamespaces());
    objects.stream()
        .filter(o -> o.startsWith("v1 Namespace "))
        .map(o -> o.substring("v1 Namespace ".length()))
        .filter(n -> !n.equals(namespace))
        .forEach(others::add);
    objects.removeIf(
        o -> {
          String name = o.substring(o.lastIndexOf(' ') + 1);
          return others.contains(name)
              || others.stream()
                  .anyMatch(
                      ns ->
                          name.startsWith(ns + ".")
                              || name.startsWith("baremetal-operator-" + ns + "-"));
        });
    return objects;
  }

  private Set<String> otherNamespaces() {
    return hub.namespaces().list().getItems().stream()
        .map(ClusterScenario::name)
        .filter(n -> !n.equals(namespace))
        .collect(Collectors.toCollection(TreeSet::new));
  }

  static String describe(HasMetadata object) {
    return describe(object.getApiVersion(), object.getKind(), object.getMetadata().getName());
  }

  static String describe(String apiVersion, String kind, String name) {
    return apiVersion + " " + kind + " " + name;
  }

  // ---- what the user looks at ----

  public GenericKubernetesResource get(String apiVersion, String kind, String name) {
    return resource(apiVersion, kind, name).get();
  }

  public List<GenericKubernetesResource> list(String apiVersion, String kind) {
    return hub.genericKubernetesResources(apiVersion, kind)
        .inNamespace(namespace)
        .list()
        .getItems();
  }

  public GenericKubernetesResource cluster() {
    return get(ApiVersions.CAPI, "Cluster", clusterName);
  }

  /** The OpenshiftAssistedControlPlane named in the Cluster's spec.controlPlaneRef. */
  public GenericKubernetesResource controlPlane() {
    GenericKubernetesResource cluster = cluster();
    String name = cluster == null ? null : string(cluster, "spec", "controlPlaneRef", "name");
    return name == null
        ? null
        : get(ApiVersions.CONTROL_PLANE, "OpenshiftAssistedControlPlane", name);
  }

  /**
   * The installer's state of the cluster ({@code status.debugInfo.state} of its
   * AgentClusterInstall, named like the control plane), or null.
   */
  public String installerState() {
    GenericKubernetesResource install =
        get(ApiVersions.HIVE_EXTENSION, "AgentClusterInstall", name(controlPlane()));
    return install == null ? null : string(install, "status", "debugInfo", "state");
  }

  public List<GenericKubernetesResource> machines() {
    return list(ApiVersions.CAPI, "Machine");
  }

  public List<GenericKubernetesResource> controlPlaneMachines() {
    return machines().stream()
        .filter(m -> label(m, ExternalKinds.CONTROL_PLANE_LABEL) != null)
        .toList();
  }

  public List<GenericKubernetesResource> workerMachines() {
    return machines().stream()
        .filter(m -> label(m, ExternalKinds.CONTROL_PLANE_LABEL) == null)
        .toList();
  }

  /** Machines Cluster API reports {@code Running} with a Node of the installed cluster. */
  public static long runningWithNode(List<GenericKubernetesResource> machines) {
    return machines.stream()
        .filter(m -> "Running".equals(string(m, "status", "phase")))
        .filter(m -> string(m, "status", "nodeRef", "name") != null)
        .count();
  }

  /** Released by Metal3: no consumer, deprovisioned, available for another Machine. */
  public static boolean isFree(GenericKubernetesResource host) {
    return host != null
        && Fields.get(host, "spec", "consumerRef") == null
        && "available".equals(string(host, "status", "provisioning", "state"));
  }

  // ---- waiting for outcomes ----

  /** Waits until {@code done}, for at most {@link #TIMEOUT}; returns how long it took. */
  public Duration await(String what, BooleanSupplier done) {
    return await(what, TIMEOUT, done);
  }

  /**
   * Waits until {@code done}, for at most {@code timeout}; returns how long it took. It looks again
   * after 250 ms, then less and less often, at most every 2 s: each look is several reads of the
   * hub, which a dozen classes share, and most waits are for an installation that takes minutes.
   */
  public Duration await(String what, Duration timeout, BooleanSupplier done) {
    long started = System.nanoTime();
    long deadline = started + timeout.toNanos();
    long pause = 250;
    while (!done.getAsBoolean()) {
      if (System.nanoTime() > deadline) {
        throw new AssertionError("timed out after " + timeout + " waiting for " + what);
      }
      try {
        Thread.sleep(pause);
        pause = Math.min(2_000, pause * 3 / 2);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new AssertionError("interrupted waiting for " + what, e);
      }
    }
    return Duration.ofNanos(System.nanoTime() - started);
  }

  /**
   * Waits until the cluster is installed as Cluster API sees it: the control plane {@code
   * Available}; the Cluster's {@code InfrastructureReady}, {@code ControlPlaneInitialized}, {@code
   * ControlPlaneAvailable}, {@code WorkersAvailable}, {@code RemoteConnectionProbe} and {@code
   * Available} True, as Cluster API computes them; exactly {@code machines} Machines, all {@code
   * Running} with a Node. Logs how long it took and how much of it Cluster API's ClusterCache spent
   * connecting after the kubeconfig existed.
   */
  public Duration awaitInstalled(int machines) {
    Duration took =
        await(
            "the control plane Available, the Cluster's conditions as Cluster API computes them, "
                + machines
                + " Machines Running with a Node",
            () -> isInstalled(machines));
    assertReleaseByDigest();
    secrets.remember(hub, namespace);
    assertThat(secrets.namesIn(namespace))
        .as("the installed cluster's kubeconfig, remembered for the secret-leak check")
        .anyMatch(name -> name.contains("/" + clusterName + "-kubeconfig "));
    LOG.info(
        "{}/{}: {} Machines Running, cluster Available after {} ms (Cluster API's ClusterCache"
            + " connected {} s after the kubeconfig Secret was written)",
        namespace,
        clusterName,
        machines,
        took.toMillis(),
        clusterCacheConnectDelaySeconds());
    return took;
  }

  /**
   * The control plane handed assisted-service its release by digest: every installation of the
   * suite and of the demo goes through here (docs/release-images.md).
   */
  private void assertReleaseByDigest() {
    // Named after the control plane (SharedNames).
    String controlPlane = controlPlane().getMetadata().getName();
    GenericKubernetesResource install =
        get(ApiVersions.HIVE_EXTENSION, "AgentClusterInstall", controlPlane);
    String imageSet =
        install == null ? null : Fields.string(install, "spec", "imageSetRef", "name");
    GenericKubernetesResource set = imageSet == null ? null : clusterImageSet(imageSet);
    assertThat(set == null ? null : Fields.string(set, "spec", "releaseImage"))
        .as(
            "the release image of ClusterImageSet %s (AgentClusterInstall %s/%s)",
            imageSet, namespace, controlPlane)
        .matches(".+@sha256:[0-9a-f]{64}");
  }

  /** Asks the control plane for OpenShift {@code version}, as a patch of its spec. */
  public void setDistributionVersion(String version) {
    setSpec(
        ApiVersions.CONTROL_PLANE,
        "OpenshiftAssistedControlPlane",
        controlPlane().getMetadata().getName(),
        "distributionVersion",
        version);
  }

  /**
   * Asks for OpenShift {@code version} and waits until the installed cluster runs it and the
   * control plane reports it ({@code status.distributionVersion}, {@code UpgradeCompleted}).
   */
  public Duration upgradeTo(String version) {
    setDistributionVersion(version);
    return await(
        "the installed cluster to run " + version + " and the control plane to report it",
        () -> {
          GenericKubernetesResource cp = controlPlane();
          return version.equals(Fields.string(cp, "status", "distributionVersion"))
              && conditionTrue(cp, "UpgradeCompleted");
        });
  }

  /** The (cluster-scoped) ClusterImageSet {@code name}, or null. */
  public GenericKubernetesResource clusterImageSet(String name) {
    return hub.genericKubernetesResources(ApiVersions.HIVE, "ClusterImageSet").withName(name).get();
  }

  /** The control plane and each config of the namespace. */
  public List<GenericKubernetesResource> controlPlaneAndConfigs() {
    List<GenericKubernetesResource> objects =
        new ArrayList<>(list(ApiVersions.BOOTSTRAP, "OpenshiftAssistedConfig"));
    objects.add(controlPlane());
    return objects;
  }

  /** {@code kind name} of each object with a {@code TakenOver} Event → its message. */
  public Map<String, String> takenOver() {
    Map<String, String> events = new TreeMap<>();
    for (Event event : hub.v1().events().inNamespace(namespace).list().getItems()) {
      if ("TakenOver".equals(event.getReason())) {
        events.put(
            event.getInvolvedObject().getKind() + " " + event.getInvolvedObject().getName(),
            event.getMessage());
      }
    }
    return events;
  }

  /**
   * Whether our control plane has taken over the Go provider's: {@code Available} and {@code
   * MachinesUpToDate}, not paused, none of the Go provider's conditions left.
   */
  public boolean controlPlaneTakenOverFromTheGoProvider() {
    GenericKubernetesResource cp = controlPlane();
    return conditionTrue(cp, "Available")
        && conditionTrue(cp, "MachinesUpToDate")
        && !conditionTrue(cp, "Paused")
        && conditions(cp).stream()
            .noneMatch(c -> GoProvider.CONTROL_PLANE_CONDITIONS.contains(c.get("type")));
  }

  /** {@code apiVersion kind name} → UID of every object in the namespace (but Events). */
  public Map<String, String> uids() {
    Map<String, String> uids = new TreeMap<>();
    ApiObjects.objects(hub, true, namespace)
        .forEach((key, object) -> uids.put(key, object.getMetadata().getUid()));
    return uids;
  }

  /**
   * Name of each host a Machine uses → its provisioning state, image, power and when it was last
   * provisioned: what a host provisioned again would change.
   */
  public Map<String, String> provisionedHosts() {
    Map<String, String> hosts = new TreeMap<>();
    for (GenericKubernetesResource host : list(ApiVersions.METAL3, "BareMetalHost")) {
      if (Fields.get(host, "spec", "consumerRef") == null) {
        continue;
      }
      hosts.put(
          name(host),
          String.join(
              " ",
              Fields.string(host, "status", "provisioning", "state"),
              Fields.string(host, "status", "provisioning", "image", "url"),
              String.valueOf(Fields.get(host, "status", "poweredOn")),
              Fields.string(host, "status", "operationHistory", "provision", "start")));
    }
    return hosts;
  }

  /** What {@link #awaitInstalled} waits for, looked at once. */
  public boolean isInstalled(int machines) {
    GenericKubernetesResource cluster = cluster();
    List<GenericKubernetesResource> all = machines();
    return conditionTrue(controlPlane(), "Available")
        && conditionTrue(cluster, "InfrastructureReady")
        && conditionTrue(cluster, "ControlPlaneInitialized")
        && conditionTrue(cluster, "ControlPlaneAvailable")
        && conditionTrue(cluster, "WorkersAvailable")
        && conditionTrue(cluster, "RemoteConnectionProbe")
        && conditionTrue(cluster, "Available")
        && all.size() == machines
        && runningWithNode(all) == machines;
  }

  /**
   * Seconds from the creation of {@code <cluster>-kubeconfig} to the Cluster's {@code
   * RemoteConnectionProbe=True}: how long Cluster API took to connect once it could.
   */
  long clusterCacheConnectDelaySeconds() {
    var kubeconfig =
        hub.secrets().inNamespace(namespace).withName(clusterName + "-kubeconfig").get();
    String probe =
        conditions(cluster()).stream()
            .filter(c -> "RemoteConnectionProbe".equals(c.get("type")))
            .map(c -> (String) c.get("lastTransitionTime"))
            .findFirst()
            .orElse(null);
    if (kubeconfig == null || probe == null) {
      return -1;
    }
    return Duration.between(
            Instant.parse(kubeconfig.getMetadata().getCreationTimestamp()), Instant.parse(probe))
        .toSeconds();
  }

  /** Each Machine's provider ID is CAPM3's and equals the provider ID of its Node. */
  void assertMachinesMatchTheirNodes() {
    for (GenericKubernetesResource machine : machines()) {
      String providerId = string(machine, "spec", "providerID");
      String nodeName = string(machine, "status", "nodeRef", "name");
      assertThat(providerId).startsWith("metal3://" + namespace + "/host-");
      Node node = workload().nodes().withName(nodeName).get();
      assertThat(node).as("Node " + nodeName + " of Machine " + name(machine)).isNotNull();
      assertThat(node.getSpec().getProviderID()).isEqualTo(providerId);
    }
  }

  /**
   * What a user of the Go provider's examples gets from {@code nodeRegistration.name:
   * $METADATA_NAME} and the label {@code metal3.io/uuid=$METADATA_UUID}: each Machine's Node is
   * named after its BareMetalHost and carries the host's UID in that label, by which CAPM3 found
   * the Node and gave it the provider ID {@code metal3://<namespace>/<host>/<Metal3Machine>}.
   */
  public void assertNodesAsTheGoProviderNamesThem() {
    assertNodesCarryTheirHosts(true);
  }

  /**
   * As {@link #assertNodesAsTheGoProviderNamesThem}, whatever each Node is named: the host's UID in
   * the label {@code metal3.io/uuid}, and the provider ID CAPM3 gave it by that label.
   */
  public void assertNodesCarryTheirHosts() {
    assertNodesCarryTheirHosts(false);
  }

  private void assertNodesCarryTheirHosts(boolean namedAfterTheirHosts) {
    for (GenericKubernetesResource machine : machines()) {
      String metal3Machine = string(machine, "spec", "infrastructureRef", "name");
      String host = hostOf(machine);
      Node node = workload().nodes().withName(string(machine, "status", "nodeRef", "name")).get();
      assertThat(node).as("the Node of Machine " + name(machine)).isNotNull();
      if (namedAfterTheirHosts) {
        assertThat(node.getMetadata().getName()).isEqualTo(host);
      }
      assertThat(node.getMetadata().getLabels())
          .containsEntry(
              "metal3.io/uuid",
              get(ApiVersions.METAL3, "BareMetalHost", host).getMetadata().getUid());
      assertThat(node.getSpec().getProviderID())
          .isEqualTo("metal3://" + namespace + "/" + host + "/" + metal3Machine);
    }
  }

  /** The name of the BareMetalHost that CAPM3 gave the Machine's Metal3Machine. */
  String hostOf(GenericKubernetesResource machine) {
    String hostRef =
        Fields.annotation(
            get(
                ApiVersions.METAL3_INFRASTRUCTURE,
                "Metal3Machine",
                string(machine, "spec", "infrastructureRef", "name")),
            ExternalKinds.BAREMETALHOST_ANNOTATION);
    return hostRef.substring(hostRef.indexOf('/') + 1);
  }

  public static String name(HasMetadata object) {
    return object.getMetadata().getName();
  }

  // ---- why ----

  /**
   * First the short lines that tell most (CI shows only the head of a failure): the installer
   * state, every Agent and BareMetalHost, the installed cluster's Nodes, any real manager (Cluster
   * API, CAPM3, a baremetal-operator) that is no longer running; then the conditions of the
   * Cluster, the control plane, each Machine, MachineSet and MachineDeployment.
   */
  public String dump() {
    StringBuilder out = new StringBuilder("namespace " + namespace + ":\n");
    for (GenericKubernetesResource aci : list(ApiVersions.HIVE_EXTENSION, "AgentClusterInstall")) {
      line(
          out,
          aci,
          "state",
          string(aci, "status", "debugInfo", "state"),
          "RequirementsMet",
          condition(aci, "RequirementsMet"));
    }
    List<GenericKubernetesResource> agents = list(ApiVersions.AGENT_INSTALL, "Agent");
    Map<String, List<String>> unsynced =
        serviceLinesAbout(
            agents.stream()
                .filter(agent -> condition(agent, "SpecSynced") == null)
                .map(ClusterScenario::name)
                .toList());
    for (GenericKubernetesResource agent : agents) {
      line(
          out,
          agent,
          "hostname",
          string(agent, "spec", "hostname"),
          "role",
          string(agent, "spec", "role"),
          "approved",
          string(agent, "spec", "approved"),
          "created",
          agent.getMetadata().getCreationTimestamp(),
          "state",
          string(agent, "status", "debugInfo", "state"),
          "stage",
          string(agent, "status", "progress", "currentStage"),
          "SpecSynced",
          condition(agent, "SpecSynced"));
      unsynced
          .getOrDefault(name(agent), List.of())
          .forEach(l -> out.append("    ").append(l).append('\n'));
    }
    for (GenericKubernetesResource host : list(ApiVersions.METAL3, "BareMetalHost")) {
      line(
          out,
          host,
          "state",
          string(host, "status", "provisioning", "state"),
          "operationalStatus",
          string(host, "status", "operationalStatus"),
          "error",
          string(host, "status", "errorMessage"),
          "online",
          string(host, "spec", "online"),
          "poweredOn",
          string(host, "status", "poweredOn"),
          "detached",
          Fields.annotation(host, "baremetalhost.metal3.io/detached"),
          "consumer",
          string(host, "spec", "consumerRef", "name"),
          "image",
          string(host, "spec", "image", "url"));
    }
    out.append("installed cluster's Nodes: ").append(workloadNodes()).append('\n');
    out.append("upstream managers exited: ")
        .append(
            world.upstreamManagers().stream()
                .filter(m -> !m.isAlive())
                .map(m -> m.name() + " (log " + m.log() + ")")
                .toList())
        .append('\n');
    dumpConditions(out, cluster());
    dumpConditions(out, controlPlane());
    machines().forEach(m -> dumpConditions(out, m));
    list(ApiVersions.CAPI, "MachineSet").forEach(m -> dumpConditions(out, m));
    list(ApiVersions.CAPI, "MachineDeployment").forEach(m -> dumpConditions(out, m));
    list(ApiVersions.METAL3_INFRASTRUCTURE, "Metal3Machine").forEach(m -> dumpConditions(out, m));
    return out.toString();
  }

  private Object workloadNodes() {
    try {
      return workload().nodes().list().getItems().stream().map(ClusterScenario::name).toList();
    } catch (RuntimeException e) {
      return "(installed cluster unavailable: " + e.getMessage() + ")";
    }
  }

  /** A condition in short, {@code status/reason}; null when absent. */
  private static String condition(GenericKubernetesResource object, String type) {
    return Fields.findCondition(object, type)
        .map(c -> c.get("status") + "/" + c.get("reason"))
        .orElse(null);
  }

  private static void dumpConditions(StringBuilder out, GenericKubernetesResource object) {
    if (object == null) {
      return;
    }
    line(out, object, "phase", string(object, "status", "phase"));
    for (Map<String, Object> c : conditions(object)) {
      out.append("    ")
          .append(c.get("type"))
          .append('=')
          .append(c.get("status"))
          .append(' ')
          .append(c.get("reason"))
          .append(": ")
          .append(c.get("message"))
          .append('\n');
    }
  }

  /**
   * The last lines of assisted-service's log about each of these Agents, which it never reported
   * on: whether its Agent controller reached them at all, and what it did. One pass over the log.
   */
  private Map<String, List<String>> serviceLinesAbout(List<String> agents) {
    Map<String, Deque<String>> about = new LinkedHashMap<>();
    agents.forEach(agent -> about.put(agent, new ArrayDeque<>()));
    if (agents.isEmpty()) {
      return Map.of();
    }
    try (Stream<String> lines =
        Files.lines(world.assistedService().log(), StandardCharsets.UTF_8)) {
      lines.forEach(
          l ->
              about.forEach(
                  (agent, last) -> {
                    if (l.contains(agent)) {
                      last.addLast(l);
                      if (last.size() > 3) {
                        last.removeFirst();
                      }
                    }
                  }));
    } catch (IOException | RuntimeException e) {
      return Map.of(agents.get(0), List.of("(assisted-service's log unread: " + e + ")"));
    }
    Map<String, List<String>> briefs = new LinkedHashMap<>();
    about.forEach(
        (agent, last) -> briefs.put(agent, last.stream().map(ClusterScenario::brief).toList()));
    return briefs;
  }

  /** One line of assisted-service's log, without where in its code it was written, cut short. */
  static String brief(String serviceLine) {
    String l = serviceLine.replaceAll(" func=\\S+| file=\\S+", "");
    return l.length() > 400 ? l.substring(0, 400) + "…" : l;
  }

  private static void line(StringBuilder out, HasMetadata object, String... fields) {
    out.append("  ").append(object.getKind()).append(' ').append(name(object));
    if (object.getMetadata().getDeletionTimestamp() != null) {
      out.append(" (deleting, finalizers ")
          .append(object.getMetadata().getFinalizers())
          .append(')');
    }
    for (int i = 0; i + 1 < fields.length; i += 2) {
      out.append(' ').append(fields[i]).append('=').append(fields[i + 1]);
    }
    out.append('\n');
  }

  private Resource<GenericKubernetesResource> resource(
      String apiVersion, String kind, String name) {
    return hub.genericKubernetesResources(apiVersion, kind).inNamespace(namespace).withName(name);
  }
}
