package io.openshiftagent.simulator.e2e;

import static io.openshiftagent.simulator.Fields.label;
import static io.openshiftagent.simulator.Fields.string;
import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.client.utils.Serialization;
import io.openshiftagent.api.external.ExternalKinds;
import io.openshiftagent.simulator.ApiVersions;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The objects the Go provider pair left in the namespace of the single-node cluster it installed
 * ({@code src/test/resources/go-provider-state/sno}, captured by {@link GoProviderSingleNodeTest}),
 * each paired with its counterpart in a cluster our providers installed: the control plane, its one
 * Machine and what that Machine's references name (config, Metal3Machine, host), the config's
 * InfraEnv, Agent and data Secret, the ClusterDeployment and AgentClusterInstall (named after the
 * control plane in both), the Secrets named after the Cluster and by the AgentClusterInstall.
 * Captured names map to this cluster's. Not paired: the placeholder pull secret (this cluster's
 * manifest names a pull secret, so it has no counterpart), and what the user created but the host
 * and what the baremetal-operator keeps for the host (neither provider pair makes or marks those).
 */
final class CapturedObjects {
  private static final String DIR = "/go-provider-state/sno/";

  private static final String INFRAENV_LABEL = "infraenvs.agent-install.openshift.io";

  private final ClusterScenario cluster;
  private final Map<String, GenericKubernetesResource> captured = new LinkedHashMap<>();

  /** Captured {@code Kind name} → this cluster's counterpart, every owner among them. */
  private final Map<String, GenericKubernetesResource> counterparts = new HashMap<>();

  /** The captured object → its counterpart, of those the Go pair makes or marks. */
  private final Map<GenericKubernetesResource, GenericKubernetesResource> pairs =
      new LinkedHashMap<>();

  /** Captured name → this cluster's, for label and annotation values. */
  private final Map<String, String> names = new HashMap<>();

  private final GenericKubernetesResource clusterImageSet;

  private CapturedObjects(ClusterScenario cluster) {
    this.cluster = cluster;
    read("namespace.yaml", cluster.namespace())
        .forEach(o -> captured.put(o.getKind() + " " + ClusterScenario.name(o), o));
    clusterImageSet = only(read("clusterimagesets.yaml", cluster.namespace()), "ClusterImageSet");
  }

  /** The captured objects, each paired with its counterpart in {@code cluster}. */
  static CapturedObjects mappedOnto(ClusterScenario cluster) {
    CapturedObjects objects = new CapturedObjects(cluster);
    objects.pair();
    return objects;
  }

  private void pair() {
    counterparts.put(key(only("Cluster")), cluster.cluster());
    GenericKubernetesResource goCp = only("OpenshiftAssistedControlPlane");
    pair(goCp, cluster.controlPlane());
    GenericKubernetesResource goMachine = only("Machine");
    assertThat(cluster.machines()).as("the Machines when the state is written").hasSize(1);
    GenericKubernetesResource machine = cluster.machines().get(0);
    pair(goMachine, machine);
    GenericKubernetesResource config =
        pair(goMachine, machine, ApiVersions.BOOTSTRAP, "spec", "bootstrap", "configRef", "name");
    GenericKubernetesResource infra =
        pair(
            goMachine,
            machine,
            ApiVersions.METAL3_INFRASTRUCTURE,
            "spec",
            "infrastructureRef",
            "name");
    pair(
        captured("BareMetalHost", hostName(only("Metal3Machine"))),
        cluster.get(ApiVersions.METAL3, "BareMetalHost", hostName(infra)));
    GenericKubernetesResource goInfraEnv = only("InfraEnv");
    GenericKubernetesResource infraEnv =
        cluster.get(ApiVersions.AGENT_INSTALL, "InfraEnv", ClusterScenario.name(config));
    pair(goInfraEnv, infraEnv);
    pair(
        only("Agent"),
        cluster.list(ApiVersions.AGENT_INSTALL, "Agent").stream()
            .filter(a -> ClusterScenario.name(infraEnv).equals(label(a, INFRAENV_LABEL)))
            .reduce(
                (a, b) -> {
                  throw new AssertionError(
                      "more than one Agent of InfraEnv " + ClusterScenario.name(infraEnv));
                })
            .orElseThrow());
    pairSecret(
        string(only("OpenshiftAssistedConfig"), "status", "dataSecretName"),
        string(config, "status", "dataSecretName"));
    pairSecret(
        ClusterScenario.name(only("Cluster")) + "-kubeconfig",
        cluster.clusterName() + "-kubeconfig");
    GenericKubernetesResource goInstall = only("AgentClusterInstall");
    GenericKubernetesResource install =
        cluster.get(
            ApiVersions.HIVE_EXTENSION,
            "AgentClusterInstall",
            ClusterScenario.name(cluster.controlPlane()));
    pair(
        only("ClusterDeployment"),
        cluster.get(ApiVersions.HIVE, "ClusterDeployment", ClusterScenario.name(install)));
    pair(goInstall, install);
    for (String secret : List.of("adminKubeconfigSecretRef", "adminPasswordSecretRef")) {
      pairSecret(
          string(goInstall, "spec", "clusterMetadata", secret, "name"),
          string(install, "spec", "clusterMetadata", secret, "name"));
    }
  }

  /** The captured objects the Go pair makes or marks → their counterparts, in pairing order. */
  Map<GenericKubernetesResource, GenericKubernetesResource> pairs() {
    return pairs;
  }

  /** This cluster's counterpart of the captured object {@code kind name}. */
  GenericKubernetesResource counterpart(String kind, String name) {
    GenericKubernetesResource ours = counterparts.get(kind + " " + name);
    if (ours == null) {
      throw new IllegalStateException("no counterpart of the captured " + kind + " " + name);
    }
    return ours;
  }

  /**
   * A captured label's or annotation's value, with a captured object's name mapped to this
   * cluster's counterpart's: the Cluster's in the cluster-name label, another's elsewhere (the
   * Cluster and its control plane have one name in the capture).
   */
  String value(String key, String value) {
    if (ExternalKinds.CLUSTER_NAME_LABEL.equals(key)) {
      return cluster.clusterName();
    }
    return names.getOrDefault(value, value);
  }

  /** The captured ClusterImageSet of the control plane. */
  GenericKubernetesResource clusterImageSet() {
    return clusterImageSet;
  }

  // ---- pairing ----

  private GenericKubernetesResource pair(
      GenericKubernetesResource go, GenericKubernetesResource ours) {
    if (ours == null) {
      throw new IllegalStateException("no counterpart of the captured " + key(go));
    }
    counterparts.put(key(go), ours);
    pairs.put(go, ours);
    names.putIfAbsent(ClusterScenario.name(go), ClusterScenario.name(ours));
    return ours;
  }

  /** Pairs the objects that {@code goRef}'s and {@code ref}'s field {@code path} names. */
  private GenericKubernetesResource pair(
      GenericKubernetesResource goRef,
      GenericKubernetesResource ref,
      String apiVersion,
      String... path) {
    GenericKubernetesResource ours = cluster.get(apiVersion, kindAt(ref, path), string(ref, path));
    return pair(captured(ours.getKind(), string(goRef, path)), ours);
  }

  private void pairSecret(String goName, String name) {
    pair(captured("Secret", goName), cluster.get("v1", "Secret", name));
  }

  private static String kindAt(GenericKubernetesResource ref, String... path) {
    String[] kind = path.clone();
    kind[kind.length - 1] = "kind";
    return string(ref, kind);
  }

  private static String hostName(GenericKubernetesResource metal3Machine) {
    String host = metal3Machine.getMetadata().getAnnotations().get("metal3.io/BareMetalHost");
    return host.substring(host.indexOf('/') + 1);
  }

  private GenericKubernetesResource captured(String kind, String name) {
    GenericKubernetesResource go = captured.get(kind + " " + name);
    if (go == null) {
      throw new IllegalStateException("nothing captured as " + kind + " " + name);
    }
    return go;
  }

  private GenericKubernetesResource only(String kind) {
    return only(captured.values().stream().toList(), kind);
  }

  private static GenericKubernetesResource only(
      List<GenericKubernetesResource> objects, String kind) {
    List<GenericKubernetesResource> ofKind =
        objects.stream().filter(o -> kind.equals(o.getKind())).toList();
    assertThat(ofKind).as("captured " + kind).hasSize(1);
    return ofKind.get(0);
  }

  private static String key(GenericKubernetesResource object) {
    return object.getKind() + " " + ClusterScenario.name(object);
  }

  /** The documents of a captured file, its {@code ${NAMESPACE}} this cluster's namespace. */
  static List<GenericKubernetesResource> read(String file, String namespace) {
    String text;
    try (InputStream in = CapturedObjects.class.getResourceAsStream(DIR + file)) {
      if (in == null) {
        throw new IllegalStateException("no test resource " + DIR + file);
      }
      text = new String(in.readAllBytes(), StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    List<GenericKubernetesResource> objects = new ArrayList<>();
    for (String document : text.replace("${NAMESPACE}", namespace).split("(?m)^---$")) {
      if (document.lines().anyMatch(line -> !line.isBlank() && !line.startsWith("#"))) {
        objects.add(Serialization.unmarshal(document, GenericKubernetesResource.class));
      }
    }
    return objects;
  }
}
