package io.openshiftagent.simulator.e2e;

import static io.openshiftagent.simulator.Fields.get;
import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.ObjectMeta;
import io.fabric8.kubernetes.api.model.OwnerReference;
import io.fabric8.kubernetes.api.model.OwnerReferenceBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.utils.Serialization;
import io.openshiftagent.api.controlplane.v1alpha3.OpenshiftAssistedControlPlane;
import io.openshiftagent.controlplane.names.Names;
import io.openshiftagent.provider.contract.GoProvider;
import io.openshiftagent.simulator.ApiVersions;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;

/**
 * Writes, over a paused cluster our providers installed, the state in which the Go provider pair
 * left a single-node cluster it installed in this world: the objects {@link
 * GoProviderSingleNodeTest} captured under {@code src/test/resources/go-provider-state/sno} ({@link
 * CapturedObjects} reads them and finds each one's counterpart here). Each captured object that a
 * provider pair makes or marks and that has a counterpart (the control plane, its Machine,
 * Metal3Machine and config, the host, the config's InfraEnv, Agent and data Secret, the
 * ClusterDeployment, AgentClusterInstall and their Secrets) gets on its counterpart:
 *
 * <ul>
 *   <li>the captured finalizers;
 *   <li>the captured labels and annotations: a key both have keeps this cluster's value (it names
 *       this world's objects and registry), a key only the capture has gets the captured value with
 *       the captured names mapped to this cluster's, a key only ours has goes (but the marks the
 *       pause puts on the host, {@link #PAUSE_MARKS});
 *   <li>the captured owner references, each to this cluster's counterpart of the captured owner,
 *       with the captured {@code controller} and {@code blockOwnerDeletion};
 *   <li>for the control plane and the config, whose status the providers write: the captured
 *       status, its conditions as captured ({@code observedGeneration} this object's generation),
 *       its other fields as this cluster has them (versions, replicas, the data Secret's name),
 *       fields only ours writes dropped. The config's {@code v1beta1Conditions} are dropped by the
 *       API server, as on the switch: our CRD does not have them;
 *   <li>the InfraEnv's spec without our agent labels ({@link #OURS_ALONE_IN_SPEC}).
 * </ul>
 *
 * <p>The Go provider's ClusterImageSet, named after the control plane alone, is the one the
 * AgentClusterInstall names since it was made ({@link GoProviderClusterInstall}: assisted-service's
 * admission webhook, registered with the world's hub, refuses a changed {@code imageSetRef}); it
 * gets the captured labels and annotations. Ours, {@code <namespace>.<control plane>}, was never
 * made.
 *
 * <p>What stays as ours made it: the other spec fields (from the same kind of manifest; the Agents'
 * are those of installed hosts, which assisted-service no longer takes; the differences the capture
 * shows are listed in docs/from-the-go-provider.md) and the statuses other controllers write
 * (Cluster API, CAPM3, the baremetal-operator, assisted-service), which they keep writing.
 */
final class CapturedGoProviderState {
  /** Whose status a provider pair writes: the captured one is written. */
  private static final List<String> STATUS_OF =
      List.of("OpenshiftAssistedControlPlane", "OpenshiftAssistedConfig");

  /**
   * What pausing the Cluster puts on the host (CAPM3 pauses it; the baremetal-operator keeps its
   * status in an annotation meanwhile): the capture is of a running cluster, the switch is paused.
   */
  private static final List<String> PAUSE_MARKS =
      List.of("baremetalhost.metal3.io/paused", "baremetalhost.metal3.io/status");

  /**
   * Spec fields our providers write that the Go pair does not, by kind: each goes, once the capture
   * shows it absent. The InfraEnv's agent labels are how our Agent controller finds its Agents.
   */
  private static final Map<String, String> OURS_ALONE_IN_SPEC = Map.of("InfraEnv", "agentLabels");

  private final ClusterScenario cluster;
  private final KubernetesClient hub;
  private final String controlPlane;

  /** The ClusterImageSet our providers had made, deleted: the Go provider's replaces it. */
  private String ourClusterImageSet;

  CapturedGoProviderState(ClusterScenario cluster) {
    this.cluster = cluster;
    this.hub = cluster.hub();
    this.controlPlane = ClusterScenario.name(cluster.controlPlane());
  }

  /** The Go provider's ClusterImageSet of this cluster. */
  String clusterImageSet() {
    return GoProvider.clusterImageSet(controlPlane);
  }

  /** The name of the ClusterImageSet our providers had made for the cluster. */
  String ourClusterImageSet() {
    return ourClusterImageSet;
  }

  /**
   * Writes the whole state; the cluster must be paused and our providers have seen it.
   *
   * @return what was written, {@code Kind name} of each object
   */
  List<String> write() {
    CapturedObjects captured = CapturedObjects.mappedOnto(cluster);
    List<String> written = new ArrayList<>();
    captured
        .pairs()
        .forEach(
            (go, ours) -> {
              rewrite(
                  ours,
                  live -> {
                    metadata(captured, go, live);
                    spec(go, live);
                  });
              if (STATUS_OF.contains(go.getKind())) {
                rewriteStatus(ours, live -> status(go, live));
              }
              written.add(go.getKind() + " " + ClusterScenario.name(ours));
            });
    clusterImageSetAndInstall(captured.clusterImageSet());
    return written;
  }

  private static void metadata(
      CapturedObjects captured, GenericKubernetesResource go, GenericKubernetesResource live) {
    ObjectMeta meta = live.getMetadata();
    ObjectMeta goMeta = go.getMetadata();
    meta.setFinalizers(goMeta.getFinalizers() == null ? null : List.copyOf(goMeta.getFinalizers()));
    meta.setLabels(merged(captured, goMeta.getLabels(), meta.getLabels()));
    meta.setAnnotations(merged(captured, goMeta.getAnnotations(), meta.getAnnotations()));
    List<OwnerReference> owners = new ArrayList<>();
    if (goMeta.getOwnerReferences() != null) {
      for (OwnerReference owner : goMeta.getOwnerReferences()) {
        GenericKubernetesResource counterpart =
            captured.counterpart(owner.getKind(), owner.getName());
        owners.add(
            new OwnerReferenceBuilder(owner)
                .withName(ClusterScenario.name(counterpart))
                .withUid(counterpart.getMetadata().getUid())
                .build());
      }
    }
    meta.setOwnerReferences(owners);
  }

  /**
   * The captured keys, this cluster's value where it has one and the captured one mapped if not;
   * and the marks of the pause.
   */
  private static Map<String, String> merged(
      CapturedObjects captured, Map<String, String> go, Map<String, String> ours) {
    Map<String, String> merged = new LinkedHashMap<>();
    if (ours != null) {
      PAUSE_MARKS.stream().filter(ours::containsKey).forEach(key -> merged.put(key, ours.get(key)));
    }
    if (go == null) {
      return merged.isEmpty() ? null : merged;
    }
    go.forEach(
        (key, value) ->
            merged.put(
                key,
                ours != null && ours.containsKey(key)
                    ? ours.get(key)
                    : captured.value(key, value)));
    return merged;
  }

  /** Without the spec field only ours writes ({@link #OURS_ALONE_IN_SPEC}). */
  @SuppressWarnings("unchecked")
  private static void spec(GenericKubernetesResource go, GenericKubernetesResource live) {
    String field = OURS_ALONE_IN_SPEC.get(go.getKind());
    if (field == null) {
      return;
    }
    assertThat((Map<String, Object>) get(go, "spec"))
        .as("the captured " + go.getKind() + "'s spec")
        .doesNotContainKey(field);
    Map<String, Object> spec = new LinkedHashMap<>((Map<String, Object>) get(live, "spec"));
    spec.remove(field);
    live.setAdditionalProperty("spec", spec);
  }

  /**
   * The captured status: its conditions as captured, its other fields as {@code live} has them (the
   * captured ones where it has none); {@code observedGeneration} {@code live}'s generation.
   */
  @SuppressWarnings("unchecked")
  private static Map<String, Object> status(
      GenericKubernetesResource go, GenericKubernetesResource live) {
    Map<String, Object> ours = (Map<String, Object>) get(live, "status");
    Map<String, Object> status = new LinkedHashMap<>();
    Long generation = live.getMetadata().getGeneration();
    ((Map<String, Object>) get(go, "status"))
        .forEach(
            (field, value) -> {
              if (field.equals("observedGeneration")) {
                status.put(field, generation);
              } else if (field.equals("conditions")) {
                List<Map<String, Object>> conditions = new ArrayList<>();
                for (Map<String, Object> condition : (List<Map<String, Object>>) value) {
                  Map<String, Object> copy = new LinkedHashMap<>(condition);
                  if (copy.containsKey("observedGeneration")) {
                    copy.put("observedGeneration", generation);
                  }
                  conditions.add(copy);
                }
                status.put(field, conditions);
              } else {
                status.put(
                    field, ours != null && ours.containsKey(field) ? ours.get(field) : value);
              }
            });
    return status;
  }

  /**
   * The Go provider's ClusterImageSet, which the AgentClusterInstall names since it was made
   * ({@link GoProviderClusterInstall}), with the labels and annotations captured beside those our
   * control plane put there (its set from then on); the name ours would have had is never made.
   */
  private void clusterImageSetAndInstall(GenericKubernetesResource captured) {
    ourClusterImageSet =
        Names.clusterImageSet(
            Serialization.jsonMapper()
                .convertValue(
                    cluster.get(
                        ApiVersions.CONTROL_PLANE, "OpenshiftAssistedControlPlane", controlPlane),
                    OpenshiftAssistedControlPlane.class));
    ObjectMeta capturedMeta = captured.getMetadata();
    rewrite(
        hub.genericKubernetesResources(ApiVersions.HIVE, "ClusterImageSet")
            .withName(clusterImageSet())
            .get(),
        set -> {
          Map<String, String> labels = new LinkedHashMap<>(set.getMetadata().getLabels());
          if (capturedMeta.getLabels() != null) {
            labels.putAll(capturedMeta.getLabels());
          }
          set.getMetadata().setLabels(labels);
          if (capturedMeta.getAnnotations() != null) {
            Map<String, String> annotations = new LinkedHashMap<>(capturedMeta.getAnnotations());
            if (set.getMetadata().getAnnotations() != null) {
              set.getMetadata().getAnnotations().forEach(annotations::putIfAbsent);
            }
            set.getMetadata().setAnnotations(annotations);
          }
        });
  }

  // ---- writing ----

  /** Reads {@code object} again, edits and replaces it, again on a conflict with another writer. */
  private void rewrite(GenericKubernetesResource object, Consumer<GenericKubernetesResource> edit) {
    for (int attempt = 0; ; attempt++) {
      GenericKubernetesResource live = hub.resource(object).get();
      edit.accept(live);
      try {
        hub.resource(live).update();
        return;
      } catch (KubernetesClientException e) {
        if (e.getCode() != 409 || attempt > 20) {
          throw e;
        }
      }
    }
  }

  /** As {@link #rewrite}, for the status: {@code status} becomes what {@code edit} makes. */
  private void rewriteStatus(
      GenericKubernetesResource object,
      java.util.function.Function<GenericKubernetesResource, Map<String, Object>> edit) {
    for (int attempt = 0; ; attempt++) {
      GenericKubernetesResource live = hub.resource(object).get();
      live.setAdditionalProperty("status", edit.apply(live));
      try {
        hub.resource(live).subresource("status").update();
        return;
      } catch (KubernetesClientException e) {
        if (e.getCode() != 409 || attempt > 20) {
          throw e;
        }
      }
    }
  }
}
