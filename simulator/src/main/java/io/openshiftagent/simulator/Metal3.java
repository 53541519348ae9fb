package io.openshiftagent.simulator;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.OwnerReference;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.dsl.base.PatchContext;
import io.fabric8.kubernetes.client.dsl.base.PatchType;
import io.openshiftagent.api.external.ExternalKinds;
import io.openshiftagent.api.external.OwnedFieldsPatch;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Plays Metal3: CAPM3 (Metal3Cluster; Metal3Machine: choosing a BareMetalHost, handing it the image
 * and user data, reporting the provider ID, releasing the host on deletion) and the
 * baremetal-operator (inspecting, provisioning and deprovisioning BareMetalHosts). LiveISO and disk
 * images are both "provisioned" alike: the host's boot is {@link Hosts}' part.
 */
final class Metal3 extends Actor {
  static final String AVAILABLE = "available";
  static final String PROVISIONING = "provisioning";
  static final String PROVISIONED = "provisioned";
  static final String DEPROVISIONING = "deprovisioning";

  /** CAPM3's finalizers: deletion waits until the host is released. */
  static final String MACHINE_FINALIZER = "metal3machine.infrastructure.cluster.x-k8s.io";

  static final String CLUSTER_FINALIZER = "metal3cluster.infrastructure.cluster.x-k8s.io";

  /** The baremetal-operator leaves a host with this annotation alone. */
  static final String DETACHED_ANNOTATION = "baremetalhost.metal3.io/detached";

  private final SimulatedDurations durations;

  /**
   * The host each Metal3Machine claimed (namespace/name to host name): a watch event may still show
   * the host free, or the Metal3Machine without its annotation.
   */
  private final Map<String, String> claims = new ConcurrentHashMap<>();

  /** Hosts with a state change scheduled (inspection, provisioning, deprovisioning). */
  private final Set<String> busy = ConcurrentHashMap.newKeySet();

  Metal3(KubernetesClient client, SimulatedDurations durations) {
    super(client);
    this.durations = durations;
  }

  @Override
  void start() {
    labelContractVersions(client);
    watch(ApiVersions.METAL3_INFRASTRUCTURE, "Metal3Cluster", this::reconcileCluster);
    watch(
        ApiVersions.METAL3_INFRASTRUCTURE,
        "Metal3Machine",
        m -> reconcileMachine(namespace(m), name(m)));
    watch(ApiVersions.METAL3, "BareMetalHost", this::reconcileHost);
    watch(client, ApiVersions.CAPI, "Machine", this::machineChanged, this::machineGone);
  }

  /**
   * What CAPM3's release manifests carry and the upstream CRD files lack: the labels that tell
   * Cluster API which version of each kind implements which contract.
   */
  static void labelContractVersions(KubernetesClient client) {
    client.apiextensions().v1().customResourceDefinitions().list().getItems().stream()
        .filter(crd -> ExternalKinds.INFRASTRUCTURE_GROUP.equals(crd.getSpec().getGroup()))
        .forEach(
            crd ->
                client
                    .apiextensions()
                    .v1()
                    .customResourceDefinitions()
                    .withName(crd.getMetadata().getName())
                    .patch(
                        PatchContext.of(PatchType.JSON_MERGE),
                        new OwnedFieldsPatch()
                            .set("v1beta1", "metadata", "labels", "cluster.x-k8s.io/v1beta1")
                            .set("v1beta2", "metadata", "labels", "cluster.x-k8s.io/v1beta2")
                            .toJson()));
  }

  // ---- CAPM3: Metal3Cluster ----

  /**
   * CAPM3: the endpoint is the user's; the infrastructure is "provisioned" after a while. A deleted
   * Metal3Cluster is released once its Cluster has no Machines left.
   */
  private void reconcileCluster(GenericKubernetesResource event) {
    GenericKubernetesResource cluster = current(event);
    if (cluster == null) {
      return;
    }
    if (isDeleting(cluster)) {
      if (machinesOf(cluster).isEmpty()) {
        releaseFinalizer(cluster, CLUSTER_FINALIZER);
      }
      return;
    }
    holdFinalizer(cluster, CLUSTER_FINALIZER);
    if (Fields.isTrue(cluster, "status", "initialization", "provisioned")) {
      return;
    }
    after(
        durations.infrastructure(),
        () ->
            mergePatchStatus(
                resource(
                    ApiVersions.METAL3_INFRASTRUCTURE,
                    "Metal3Cluster",
                    namespace(cluster),
                    name(cluster)),
                new OwnedFieldsPatch()
                    .set(true, "status", "initialization", "provisioned")
                    .set(
                        List.of(Fields.condition("Ready", true, "Ready", "")),
                        "status",
                        "conditions")));
  }

  /** The Machines of the Metal3Cluster's owner Cluster (CAPM3's "descendants"). */
  private List<GenericKubernetesResource> machinesOf(GenericKubernetesResource metal3Cluster) {
    Optional<String> cluster = owner(metal3Cluster, "Cluster").map(OwnerReference::getName);
    return cluster.isEmpty()
        ? List.of()
        : client
            .genericKubernetesResources(ApiVersions.CAPI, "Machine")
            .inNamespace(namespace(metal3Cluster))
            .withLabel(ExternalKinds.CLUSTER_NAME_LABEL, cluster.get())
            .list()
            .getItems();
  }

  private void machineGone(GenericKubernetesResource machine) {
    client
        .genericKubernetesResources(ApiVersions.METAL3_INFRASTRUCTURE, "Metal3Cluster")
        .inNamespace(namespace(machine))
        .list()
        .getItems()
        .stream()
        .filter(Actor::isDeleting)
        .forEach(this::reconcileCluster);
  }

  // ---- CAPM3: Metal3Machine ----

  private void machineChanged(GenericKubernetesResource machine) {
    String infra = Fields.string(machine, "spec", "infrastructureRef", "name");
    if ("Metal3Machine".equals(Fields.string(machine, "spec", "infrastructureRef", "kind"))
        && Fields.string(machine, "spec", "bootstrap", "dataSecretName") != null) {
      reconcileMachine(namespace(machine), infra);
    }
  }

  /**
   * CAPM3: once the Machine's bootstrap data exists, claim a free host and give it the image and
   * the user data; once the host is provisioned, report the provider ID and readiness. On deletion,
   * release the host.
   */
  private void reconcileMachine(String namespace, String name) {
    // Read the current state, as a controller reading its cache does: an older event may carry the
    // image the bootstrap provider has replaced since.
    GenericKubernetesResource m3m =
        resource(ApiVersions.METAL3_INFRASTRUCTURE, "Metal3Machine", namespace, name).get();
    if (m3m == null) {
      return;
    }
    if (isDeleting(m3m)) {
      releaseHost(m3m);
      return;
    }
    GenericKubernetesResource machine =
        owner(m3m, "Machine")
            .map(o -> cached(ApiVersions.CAPI, "Machine", namespace, o.getName()))
            .orElse(null);
    if (machine == null) {
      return;
    }
    holdFinalizer(m3m, MACHINE_FINALIZER);
    String dataSecret = Fields.string(machine, "spec", "bootstrap", "dataSecretName");
    if (dataSecret == null) {
      return;
    }
    String hostName = claimedHost(m3m);
    if (hostName == null) {
      claimHost(m3m, dataSecret);
      return;
    }
    GenericKubernetesResource host =
        cached(ApiVersions.METAL3, "BareMetalHost", namespace, hostName);
    if (host != null
        && PROVISIONED.equals(state(host))
        && !Fields.isTrue(m3m, "status", "initialization", "provisioned")) {
      var target = resource(ApiVersions.METAL3_INFRASTRUCTURE, "Metal3Machine", namespace, name);
      mergePatch(
          target,
          new OwnedFieldsPatch().set(providerId(namespace, hostName, name), "spec", "providerID"));
      mergePatchStatus(
          target,
          new OwnedFieldsPatch()
              .set(true, "status", "initialization", "provisioned")
              .set(List.of(Fields.condition("Ready", true, "Ready", "")), "status", "conditions"));
    }
  }

  private String claimedHost(GenericKubernetesResource m3m) {
    String hostRef = Fields.annotation(m3m, ExternalKinds.BAREMETALHOST_ANNOTATION);
    if (hostRef != null) {
      claims.putIfAbsent(key(m3m), hostRef.substring(hostRef.indexOf('/') + 1));
    }
    return claims.get(key(m3m));
  }

  /** CAPM3's provider ID: {@code metal3://<namespace>/<host>/<metal3machine>}. */
  static String providerId(String namespace, String host, String metal3Machine) {
    return "metal3://" + namespace + "/" + host + "/" + metal3Machine;
  }

  /**
   * CAPM3 chooses a host that is available (or ready), not consumed, without error and matching the
   * host selector; it records itself as the consumer and hands over the image, the user data (the
   * Machine's bootstrap data Secret, by reference) and power.
   */
  private void claimHost(GenericKubernetesResource m3m, String dataSecret) {
    Map<String, String> selector = Fields.stringMap(m3m, "spec", "hostSelector", "matchLabels");
    GenericKubernetesResource host =
        cachedIn(ApiVersions.METAL3, "BareMetalHost", namespace(m3m)).stream()
            .filter(h -> AVAILABLE.equals(state(h)) || "ready".equals(state(h)))
            .filter(h -> Fields.get(h, "spec", "consumerRef") == null)
            .filter(h -> !claimedInNamespace(h))
            .filter(h -> !isDeleting(h))
            .filter(h -> isBlank(Fields.string(h, "status", "errorMessage")))
            .filter(h -> labels(h).entrySet().containsAll(selector.entrySet()))
            .findFirst()
            .orElse(null);
    if (host == null) {
      log.info("no free BareMetalHost for Metal3Machine {}/{}", namespace(m3m), name(m3m));
      return;
    }
    claims.put(key(m3m), name(host));
    Map<String, Object> image = new LinkedHashMap<>();
    image.put("url", Fields.string(m3m, "spec", "image", "url"));
    image.put("checksum", Fields.string(m3m, "spec", "image", "checksum"));
    image.put("checksumType", Fields.string(m3m, "spec", "image", "checksumType"));
    image.put("format", Fields.string(m3m, "spec", "image", "diskFormat"));
    Map<String, String> userData = Map.of("name", dataSecret, "namespace", namespace(m3m));
    var target =
        resource(ApiVersions.METAL3_INFRASTRUCTURE, "Metal3Machine", namespace(m3m), name(m3m));
    mergePatchStatus(target, new OwnedFieldsPatch().set(userData, "status", "userData"));
    mergePatch(
        resource(ApiVersions.METAL3, "BareMetalHost", namespace(host), name(host)),
        new OwnedFieldsPatch()
            .requireResourceVersion(host.getMetadata().getResourceVersion())
            .set(
                Map.of(
                    "apiVersion",
                    ApiVersions.METAL3_INFRASTRUCTURE,
                    "kind",
                    "Metal3Machine",
                    "name",
                    name(m3m),
                    "namespace",
                    namespace(m3m)),
                "spec",
                "consumerRef")
            .set(image, "spec", "image")
            .set(true, "spec", "online")
            .set(userData, "spec", "userData")
            // As CAPM3's setHostLabel: the claimed host carries its cluster's name.
            .set(
                Fields.label(m3m, ExternalKinds.CLUSTER_NAME_LABEL),
                "metadata",
                "labels",
                ExternalKinds.CLUSTER_NAME_LABEL));
    mergePatch(
        target,
        new OwnedFieldsPatch()
            .set(
                namespace(host) + "/" + name(host),
                "metadata",
                "annotations",
                ExternalKinds.BAREMETALHOST_ANNOTATION));
  }

  /**
   * CAPM3's deletion: take the image, user data and power from the host; wait until the
   * baremetal-operator has deprovisioned it; then give up the host (no consumer) and release the
   * Metal3Machine's finalizer.
   */
  private void releaseHost(GenericKubernetesResource m3m) {
    String hostName = claimedHost(m3m);
    GenericKubernetesResource host =
        hostName == null
            ? null
            : resource(ApiVersions.METAL3, "BareMetalHost", namespace(m3m), hostName).get();
    if (host != null && name(m3m).equals(Fields.string(host, "spec", "consumerRef", "name"))) {
      var target = resource(ApiVersions.METAL3, "BareMetalHost", namespace(host), name(host));
      if (Fields.get(host, "spec", "image") != null
          || Fields.get(host, "spec", "userData") != null
          || Fields.isTrue(host, "spec", "online")) {
        mergePatch(
            target,
            new OwnedFieldsPatch()
                .set(null, "spec", "image")
                .set(null, "spec", "userData")
                .set(false, "spec", "online"));
        return; // the host's deprovisioning brings us back
      }
      if (!AVAILABLE.equals(state(host)) && !"ready".equals(state(host))) {
        return;
      }
      mergePatch(
          target,
          new OwnedFieldsPatch()
              .requireResourceVersion(host.getMetadata().getResourceVersion())
              .set(null, "spec", "consumerRef")
              .set(null, "metadata", "labels", ExternalKinds.CLUSTER_NAME_LABEL));
      log.info(
          "BareMetalHost {}/{} released by Metal3Machine {}",
          namespace(host),
          name(host),
          name(m3m));
    }
    claims.remove(key(m3m));
    releaseFinalizer(m3m, MACHINE_FINALIZER);
  }

  // ---- the baremetal-operator ----

  /**
   * The baremetal-operator: a new host is inspected and becomes available; a host with a consumer
   * and an image is provisioned; a provisioned host whose image was taken away is deprovisioned and
   * becomes available again. A detached host is left alone. Then CAPM3 looks at the host's consumer
   * (or, for a free host, at the Metal3Machines still waiting for one).
   */
  private void reconcileHost(GenericKubernetesResource event) {
    GenericKubernetesResource host = current(event);
    if (host == null) {
      return;
    }
    if (Fields.annotation(host, DETACHED_ANNOTATION) == null) {
      operate(host);
    }
    String consumer = Fields.string(host, "spec", "consumerRef", "name");
    if (consumer != null) {
      reconcileMachine(namespace(host), consumer);
      return;
    }
    // A freed or new host may be what a waiting Metal3Machine needs.
    cachedIn(ApiVersions.METAL3_INFRASTRUCTURE, "Metal3Machine", namespace(host)).stream()
        .filter(m -> !claims.containsKey(key(m)))
        .forEach(m -> reconcileMachine(namespace(m), name(m)));
  }

  private void operate(GenericKubernetesResource host) {
    String state = state(host);
    Object image = Fields.get(host, "spec", "image");
    boolean online = Fields.isTrue(host, "spec", "online");
    if (state == null || state.isEmpty() || "registering".equals(state)) {
      schedule(host, provisioning(host, AVAILABLE, null), false);
    } else if (AVAILABLE.equals(state)
        && image != null
        && Fields.string(host, "spec", "consumerRef", "name") != null) {
      writeProvisioning(host, provisioning(host, PROVISIONING, image));
      schedule(host, provisioning(host, PROVISIONED, image), online);
    } else if (PROVISIONED.equals(state) && image == null) {
      writeProvisioning(host, provisioning(host, DEPROVISIONING, null));
      schedule(host, provisioning(host, AVAILABLE, null), online);
    }
  }

  /** {@code status.provisioning}; a null image is removed (the merge patch names it). */
  private static Map<String, Object> provisioning(
      GenericKubernetesResource host, String state, Object image) {
    Map<String, Object> provisioning = new LinkedHashMap<>();
    provisioning.put("ID", host.getMetadata().getUid());
    provisioning.put("state", state);
    provisioning.put("image", image);
    provisioning.put("bootMode", "UEFI");
    return provisioning;
  }

  private void writeProvisioning(GenericKubernetesResource host, Map<String, Object> provisioning) {
    mergePatchStatus(
        resource(ApiVersions.METAL3, "BareMetalHost", namespace(host), name(host)),
        new OwnedFieldsPatch().set(provisioning, "status", "provisioning"));
  }

  /** Writes the host's status once the simulated duration has passed. */
  private void schedule(
      GenericKubernetesResource host, Map<String, Object> provisioning, boolean poweredOn) {
    String key = key(host);
    if (!busy.add(key)) {
      return;
    }
    after(
        durations.hostProvisioning(),
        () -> {
          busy.remove(key);
          mergePatchStatus(
              resource(ApiVersions.METAL3, "BareMetalHost", namespace(host), name(host)),
              new OwnedFieldsPatch()
                  .set("OK", "status", "operationalStatus")
                  .set(0, "status", "errorCount")
                  .set("", "status", "errorMessage")
                  .set(poweredOn, "status", "poweredOn")
                  .set(provisioning, "status", "provisioning"));
        });
  }

  static String state(GenericKubernetesResource host) {
    return Fields.string(host, "status", "provisioning", "state");
  }

  // ---- helpers ----

  private boolean claimedInNamespace(GenericKubernetesResource host) {
    return claims.entrySet().stream()
        .anyMatch(
            c -> c.getValue().equals(name(host)) && c.getKey().startsWith(namespace(host) + "/"));
  }

  private static Optional<OwnerReference> owner(GenericKubernetesResource object, String kind) {
    List<OwnerReference> owners = object.getMetadata().getOwnerReferences();
    return owners == null
        ? Optional.empty()
        : owners.stream().filter(o -> kind.equals(o.getKind())).findFirst();
  }

  private static boolean isBlank(String text) {
    return text == null || text.isBlank();
  }

  static Map<String, String> labels(GenericKubernetesResource object) {
    return object.getMetadata().getLabels() == null ? Map.of() : object.getMetadata().getLabels();
  }
}
