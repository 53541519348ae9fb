package io.openshiftagent.simulator.benchmark.scale;

import static io.openshiftagent.simulator.ApiVersions.CAPI;
import static io.openshiftagent.simulator.ApiVersions.METAL3;
import static io.openshiftagent.simulator.ApiVersions.METAL3_INFRASTRUCTURE;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.dsl.base.PatchContext;
import io.fabric8.kubernetes.client.dsl.base.PatchType;
import io.openshiftagent.api.external.ExternalKinds;
import io.openshiftagent.api.external.OwnedFieldsPatch;
import io.openshiftagent.simulator.Fields;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Stands in for CAPM3: a Metal3Cluster is provisioned (its endpoint as given) once a Cluster owns
 * it; a Metal3Machine whose Machine has bootstrap data claims an available BareMetalHost of its
 * namespace (consumer reference, image, user data, online, cluster label; the host's annotation and
 * user data on the Metal3Machine), and once the host's Node registers with the host's UID as its
 * {@code metal3.io/uuid} label, sets the provider ID on the Node and the Metal3Machine and reports
 * it provisioned. The Nodes are watched on the installed clusters' API server, as CAPM3 looks them
 * up there.
 */
final class Capm3StandIn extends StandIn {
  static final String NAME = "capm3";
  private static final String HOSTS_BY_CONSUMER = "hosts-by-consumer";
  private static final String HOSTS_BY_UID = "hosts-by-uid";
  private static final String NODES_BY_UUID = "nodes-by-uuid";
  private static final String METAL3_MACHINES_BY_MACHINE = "metal3machines-by-machine";

  private final KubernetesClient workloads;

  Capm3StandIn(KubernetesClient hub, KubernetesClient workloads, Pace pace) {
    super(hub, pace);
    this.workloads = workloads;
  }

  @Override
  void register() {
    watch(METAL3_INFRASTRUCTURE, "Metal3Cluster", this::metal3Cluster);
    watch(METAL3_INFRASTRUCTURE, "Metal3Machine", this::metal3Machine);
    index(
        METAL3_INFRASTRUCTURE,
        "Metal3Machine",
        METAL3_MACHINES_BY_MACHINE,
        m3m ->
            m3m.getMetadata().getOwnerReferences().stream()
                .filter(r -> "Machine".equals(r.getKind()))
                .map(r -> namespace(m3m) + "/" + r.getName())
                .toList());
    watch(CAPI, "Machine", this::machine);
    watch(METAL3, "BareMetalHost", this::host);
    index(
        METAL3,
        "BareMetalHost",
        HOSTS_BY_CONSUMER,
        h -> {
          String consumer = Fields.string(h, "spec", "consumerRef", "name");
          return consumer == null ? List.of() : List.of(namespace(h) + "/" + consumer);
        });
    index(METAL3, "BareMetalHost", HOSTS_BY_UID, h -> List.of(h.getMetadata().getUid()));
    watch(workloads, "v1", "Node", this::node);
    index(
        workloads,
        "v1",
        "Node",
        NODES_BY_UUID,
        n -> {
          String uuid = Fields.label(n, ExternalKinds.METAL3_UUID_LABEL);
          return uuid == null ? List.of() : List.of(uuid);
        });
  }

  private void metal3Cluster(GenericKubernetesResource m3c) {
    if (m3c.getMetadata().getDeletionTimestamp() != null
        || m3c.getMetadata().getOwnerReferences().stream()
            .noneMatch(r -> "Cluster".equals(r.getKind()))) {
      return;
    }
    holdFinalizer(m3c, "metal3cluster.infrastructure.cluster.x-k8s.io");
    if (Fields.isTrue(m3c, "status", "initialization", "provisioned")) {
      return;
    }
    patchStatus(
        m3c,
        new OwnedFieldsPatch()
            .set(Map.of("provisioned", true), "status", "initialization")
            .set(Fields.now(), "status", "lastUpdated")
            .set(
                withConditions(m3c, List.of(Fields.condition("Ready", true, "Ready", ""))),
                "status",
                "conditions"));
  }

  private void metal3Machine(GenericKubernetesResource m3m) {
    if (m3m.getMetadata().getDeletionTimestamp() != null) {
      return;
    }
    String machineName =
        m3m.getMetadata().getOwnerReferences().stream()
            .filter(r -> "Machine".equals(r.getKind()))
            .map(r -> r.getName())
            .findFirst()
            .orElse(null);
    GenericKubernetesResource machine =
        machineName == null ? null : cached(CAPI, "Machine", namespace(m3m), machineName);
    if (machine == null) {
      return;
    }
    holdFinalizer(m3m, "metal3machine.infrastructure.cluster.x-k8s.io");
    String dataSecret = Fields.string(machine, "spec", "bootstrap", "dataSecretName");
    if (dataSecret == null) {
      return; // CAPM3 waits for the bootstrap data
    }
    String hostRef = Fields.annotation(m3m, ExternalKinds.BAREMETALHOST_ANNOTATION);
    if (hostRef == null) {
      claim(m3m, machine, dataSecret);
      return;
    }
    GenericKubernetesResource host =
        cached(
            METAL3, "BareMetalHost", namespace(m3m), hostRef.substring(hostRef.indexOf('/') + 1));
    if (host == null
        || !"provisioned".equals(Fields.string(host, "status", "provisioning", "state"))
        || Fields.string(m3m, "spec", "providerID") != null) {
      return;
    }
    GenericKubernetesResource node =
        indexed(workloads, "v1", "Node", NODES_BY_UUID, host.getMetadata().getUid()).stream()
            .findFirst()
            .orElse(null);
    if (node == null) {
      return; // the real one looks again every 30 s; here the Node's event brings it back
    }
    String providerId = "metal3://" + namespace(host) + "/" + name(host) + "/" + name(m3m);
    workloads
        .nodes()
        .withName(name(node))
        .patch(
            PatchContext.of(PatchType.JSON_MERGE),
            "{\"spec\":{\"providerID\":\"" + providerId + "\"}}");
    patch(m3m, new OwnedFieldsPatch().set(providerId, "spec", "providerID"));
    patchStatus(
        m3m,
        new OwnedFieldsPatch()
            .set(Map.of("provisioned", true), "status", "initialization")
            .set(
                List.of(
                    Map.of("type", "InternalIP", "address", "192.168.222.30"),
                    Map.of("type", "Hostname", "address", name(node)),
                    Map.of("type", "InternalDNS", "address", name(node))),
                "status",
                "addresses")
            .set(Fields.now(), "status", "lastUpdated")
            .set(
                withConditions(
                    m3m,
                    List.of(
                        Fields.condition("AssociateBMH", true, "AssociateBMH", ""),
                        Fields.condition("Ready", true, "Ready", ""))),
                "status",
                "conditions"));
  }

  /** Picks an available host of the namespace and hands it the Metal3Machine's image and data. */
  private void claim(
      GenericKubernetesResource m3m, GenericKubernetesResource machine, String data) {
    String ns = namespace(m3m);
    GenericKubernetesResource host =
        indexed(METAL3, "BareMetalHost", HOSTS_BY_CONSUMER, ns + "/" + name(m3m)).stream()
            .findFirst()
            .orElseGet(
                () ->
                    cachedIn(METAL3, "BareMetalHost", ns).stream()
                        .filter(h -> Fields.get(h, "spec", "consumerRef") == null)
                        .filter(
                            h ->
                                "available"
                                    .equals(Fields.string(h, "status", "provisioning", "state")))
                        .findFirst()
                        .orElse(null));
    if (host == null) {
      return; // a host's event brings it back
    }
    if (Fields.get(host, "spec", "consumerRef") == null) {
      Map<String, Object> image = new LinkedHashMap<>();
      image.put("url", Fields.string(m3m, "spec", "image", "url"));
      image.put("checksum", Fields.string(m3m, "spec", "image", "checksum"));
      image.put("checksumType", Fields.string(m3m, "spec", "image", "checksumType"));
      image.put("format", Fields.string(m3m, "spec", "image", "diskFormat"));
      patch(
          host,
          new OwnedFieldsPatch()
              .requireResourceVersion(host.getMetadata().getResourceVersion())
              .set(
                  Map.of(
                      "apiVersion",
                      m3m.getApiVersion(),
                      "kind",
                      "Metal3Machine",
                      "name",
                      name(m3m),
                      "namespace",
                      ns),
                  "spec",
                  "consumerRef")
              .set(image, "spec", "image")
              .set(true, "spec", "online")
              .set(Map.of("name", data, "namespace", ns), "spec", "userData")
              .set(
                  Fields.string(m3m, "spec", "automatedCleaningMode"),
                  "spec",
                  "automatedCleaningMode")
              .set(
                  Fields.string(machine, "spec", "clusterName"),
                  "metadata",
                  "labels",
                  ExternalKinds.CLUSTER_NAME_LABEL));
    }
    patch(
        m3m,
        new OwnedFieldsPatch()
            .set(
                ns + "/" + name(host),
                "metadata",
                "annotations",
                ExternalKinds.BAREMETALHOST_ANNOTATION));
    patchStatus(
        m3m,
        new OwnedFieldsPatch()
            .set(Map.of("name", data, "namespace", ns), "status", "userData")
            .set(Fields.now(), "status", "lastUpdated")
            .set(
                withConditions(
                    m3m,
                    List.of(
                        Fields.condition("AssociateBMH", true, "AssociateBMH", ""),
                        Fields.condition(
                            "Ready", false, "NotReady", "waiting for the host to be provisioned"))),
                "status",
                "conditions"));
  }

  private void machine(GenericKubernetesResource machine) {
    requeue(
        indexed(
            METAL3_INFRASTRUCTURE,
            "Metal3Machine",
            METAL3_MACHINES_BY_MACHINE,
            namespace(machine) + "/" + name(machine)));
  }

  private void host(GenericKubernetesResource host) {
    String consumer = Fields.string(host, "spec", "consumerRef", "name");
    if (consumer != null) {
      requeue(METAL3_INFRASTRUCTURE, "Metal3Machine", namespace(host), consumer);
    } else if ("available".equals(Fields.string(host, "status", "provisioning", "state"))) {
      // Metal3Machines waiting for a host in its namespace.
      requeue(
          cachedIn(METAL3_INFRASTRUCTURE, "Metal3Machine", namespace(host)).stream()
              .filter(m -> Fields.annotation(m, ExternalKinds.BAREMETALHOST_ANNOTATION) == null)
              .toList());
    }
  }

  private void node(GenericKubernetesResource node) {
    String uuid = Fields.label(node, ExternalKinds.METAL3_UUID_LABEL);
    if (uuid == null) {
      return;
    }
    for (GenericKubernetesResource host : indexed(METAL3, "BareMetalHost", HOSTS_BY_UID, uuid)) {
      String consumer = Fields.string(host, "spec", "consumerRef", "name");
      if (consumer != null) {
        requeue(METAL3_INFRASTRUCTURE, "Metal3Machine", namespace(host), consumer);
      }
    }
  }
}
