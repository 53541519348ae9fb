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
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Plays Metal3: CAPM3 (Metal3Cluster, Metal3Machine: choosing a BareMetalHost, handing it the
 * image, reporting the provider ID) and the baremetal-operator (provisioning the BareMetalHost).
 * LiveISO and disk images are both "provisioned" alike: the host's boot is {@link Hosts}' part.
 */
final class Metal3 extends Actor {
  static final String INFRA_API = ExternalKinds.INFRASTRUCTURE_GROUP + "/v1beta2";
  static final String BMH_API = ExternalKinds.METAL3_GROUP + "/" + ExternalKinds.METAL3_VERSION;
  static final String CAPI_API = ExternalKinds.CAPI_GROUP + "/" + ExternalKinds.CAPI_VERSION;
  static final String PROVISIONED = "provisioned";

  private final SimulatedDurations durations;

  /**
   * The host each Metal3Machine claimed (namespace/name to host name): a watch event may still show
   * the host free, or the Metal3Machine without its annotation.
   */
  private final Map<String, String> claims = new ConcurrentHashMap<>();

  private final Set<String> provisioning = ConcurrentHashMap.newKeySet();

  Metal3(KubernetesClient client, SimulatedDurations durations) {
    super(client);
    this.durations = durations;
  }

  @Override
  void start() {
    labelContractVersions();
    watch(INFRA_API, "Metal3Cluster", this::provisionCluster);
    watch(INFRA_API, "Metal3Machine", m -> reconcileMachine(namespace(m), name(m)));
    watch(BMH_API, "BareMetalHost", this::reconcileHost);
    watch(CAPI_API, "Machine", this::machineChanged);
  }

  /**
   * What CAPM3's release manifests carry and the upstream CRD files lack: the labels that tell
   * Cluster API which version of each kind implements which contract.
   */
  private void labelContractVersions() {
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

  /** CAPM3: the endpoint is the user's; the infrastructure is "provisioned" after a while. */
  private void provisionCluster(GenericKubernetesResource cluster) {
    if (Fields.isTrue(cluster, "status", "initialization", "provisioned")) {
      return;
    }
    after(
        durations.infrastructure(),
        () ->
            mergePatchStatus(
                resource(INFRA_API, "Metal3Cluster", namespace(cluster), name(cluster)),
                new OwnedFieldsPatch()
                    .set(true, "status", "initialization", "provisioned")
                    .set(
                        List.of(Fields.condition("Ready", true, "Ready", "")),
                        "status",
                        "conditions")));
  }

  private void machineChanged(GenericKubernetesResource machine) {
    String infra = Fields.string(machine, "spec", "infrastructureRef", "name");
    if ("Metal3Machine".equals(Fields.string(machine, "spec", "infrastructureRef", "kind"))
        && Fields.string(machine, "spec", "bootstrap", "dataSecretName") != null) {
      reconcileMachine(namespace(machine), infra);
    }
  }

  /**
   * CAPM3: once the Machine's bootstrap data exists, claim a free host and give it the image and
   * the user data; once the host is provisioned, report the provider ID and readiness.
   */
  private void reconcileMachine(String namespace, String name) {
    // Read the current state, as a controller reading its cache does: an older event may carry the
    // image the bootstrap provider has replaced since.
    GenericKubernetesResource m3m = resource(INFRA_API, "Metal3Machine", namespace, name).get();
    if (m3m == null || m3m.getMetadata().getDeletionTimestamp() != null) {
      return;
    }
    GenericKubernetesResource machine = ownerMachine(m3m);
    String dataSecret =
        machine == null ? null : Fields.string(machine, "spec", "bootstrap", "dataSecretName");
    if (dataSecret == null) {
      return;
    }
    String hostRef = Fields.annotation(m3m, ExternalKinds.BAREMETALHOST_ANNOTATION);
    if (hostRef != null) {
      claims.putIfAbsent(key(m3m), hostRef.substring(hostRef.indexOf('/') + 1));
    }
    String hostName = claims.get(key(m3m));
    if (hostName == null) {
      claimHost(m3m, dataSecret);
      return;
    }
    GenericKubernetesResource host = cached(BMH_API, "BareMetalHost", namespace(m3m), hostName);
    if (host != null
        && PROVISIONED.equals(Fields.string(host, "status", "provisioning", "state"))
        && !Fields.isTrue(m3m, "status", "initialization", "provisioned")) {
      var target = resource(INFRA_API, "Metal3Machine", namespace(m3m), name(m3m));
      mergePatch(
          target,
          new OwnedFieldsPatch()
              .set(providerId(namespace(m3m), hostName, name(m3m)), "spec", "providerID"));
      mergePatchStatus(
          target,
          new OwnedFieldsPatch()
              .set(true, "status", "initialization", "provisioned")
              .set(List.of(Fields.condition("Ready", true, "Ready", "")), "status", "conditions"));
    }
  }

  /** CAPM3's provider ID: {@code metal3://<namespace>/<host>/<metal3machine>}. */
  static String providerId(String namespace, String host, String metal3Machine) {
    return "metal3://" + namespace + "/" + host + "/" + metal3Machine;
  }

  private void claimHost(GenericKubernetesResource m3m, String dataSecret) {
    Map<String, String> selector = Fields.stringMap(m3m, "spec", "hostSelector", "matchLabels");
    GenericKubernetesResource host =
        cachedIn(BMH_API, "BareMetalHost", namespace(m3m)).stream()
            .filter(h -> Fields.get(h, "spec", "consumerRef") == null)
            .filter(h -> !claimedInNamespace(h))
            .filter(h -> h.getMetadata().getDeletionTimestamp() == null)
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
    mergePatch(
        resource(BMH_API, "BareMetalHost", namespace(host), name(host)),
        new OwnedFieldsPatch()
            .requireResourceVersion(host.getMetadata().getResourceVersion())
            .set(
                Map.of(
                    "apiVersion",
                    INFRA_API,
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
            .set(Map.of("name", dataSecret, "namespace", namespace(m3m)), "spec", "userData"));
    mergePatch(
        resource(INFRA_API, "Metal3Machine", namespace(m3m), name(m3m)),
        new OwnedFieldsPatch()
            .set(
                namespace(host) + "/" + name(host),
                "metadata",
                "annotations",
                ExternalKinds.BAREMETALHOST_ANNOTATION));
  }

  /** The baremetal-operator: a host with a consumer and an image gets provisioned. */
  private void reconcileHost(GenericKubernetesResource event) {
    GenericKubernetesResource host =
        cached(BMH_API, "BareMetalHost", namespace(event), name(event));
    if (host == null) {
      return;
    }
    String key = key(host);
    String consumer = Fields.string(host, "spec", "consumerRef", "name");
    if (consumer == null) {
      // A freed or new host may be what a waiting Metal3Machine needs.
      cachedIn(INFRA_API, "Metal3Machine", namespace(host)).stream()
          .filter(m -> !claims.containsKey(key(m)))
          .forEach(m -> reconcileMachine(namespace(m), name(m)));
      return;
    }
    String state = Fields.string(host, "status", "provisioning", "state");
    if (PROVISIONED.equals(state)) {
      provisioning.remove(key);
      reconcileMachine(namespace(host), consumer);
      return;
    }
    if (Fields.get(host, "spec", "image", "url") == null || !provisioning.add(key)) {
      return;
    }
    after(
        durations.hostProvisioning(),
        () -> {
          Map<String, Object> provisioned = new LinkedHashMap<>();
          provisioned.put("ID", host.getMetadata().getUid());
          provisioned.put("state", PROVISIONED);
          provisioned.put("image", Fields.get(host, "spec", "image"));
          provisioned.put("bootMode", "UEFI");
          mergePatchStatus(
              resource(BMH_API, "BareMetalHost", namespace(host), name(host)),
              new OwnedFieldsPatch()
                  .set("OK", "status", "operationalStatus")
                  .set(0, "status", "errorCount")
                  .set("", "status", "errorMessage")
                  .set(true, "status", "poweredOn")
                  .set(provisioned, "status", "provisioning"));
        });
  }

  private boolean claimedInNamespace(GenericKubernetesResource host) {
    return claims.entrySet().stream()
        .anyMatch(
            c -> c.getValue().equals(name(host)) && c.getKey().startsWith(namespace(host) + "/"));
  }

  private GenericKubernetesResource ownerMachine(GenericKubernetesResource m3m) {
    List<OwnerReference> owners = m3m.getMetadata().getOwnerReferences();
    return owners == null
        ? null
        : owners.stream()
            .filter(o -> "Machine".equals(o.getKind()))
            .findFirst()
            .map(o -> cached(CAPI_API, "Machine", namespace(m3m), o.getName()))
            .orElse(null);
  }

  static String key(GenericKubernetesResource object) {
    return namespace(object) + "/" + name(object);
  }

  static String namespace(GenericKubernetesResource object) {
    return object.getMetadata().getNamespace();
  }

  static String name(GenericKubernetesResource object) {
    return object.getMetadata().getName();
  }

  static Map<String, String> labels(GenericKubernetesResource object) {
    return object.getMetadata().getLabels() == null ? Map.of() : object.getMetadata().getLabels();
  }
}
