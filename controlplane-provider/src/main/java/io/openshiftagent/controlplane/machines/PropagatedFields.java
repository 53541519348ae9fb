package io.openshiftagent.controlplane.machines;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.openshiftagent.api.common.ObjectMetaTemplate;
import io.openshiftagent.api.controlplane.v1alpha3.OpenshiftAssistedControlPlane;
import io.openshiftagent.api.external.ExternalKinds;
import io.openshiftagent.api.external.OwnedFieldsPatch;
import io.openshiftagent.api.external.capi.Machine;
import io.openshiftagent.api.external.capi.MachineSpec;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/**
 * What the control plane keeps in step, in place, on its existing Machines, configs and
 * infrastructure machines, without a rollout (Cluster API's in-place propagation): the labels and
 * annotations of {@code machineTemplate.metadata} on all three; on the configs also the control
 * plane's own labels and annotations, as the Go provider gives them (the template wins); and on the
 * Machines the readiness gates, taints and minReadySeconds of {@code machineTemplate.spec} ({@link
 * PropagatedSpec}). Each object records, in one annotation, which keys and list items came from us:
 * those we remove when they leave the spec; anything else others set is never touched. Pure: each
 * function returns the merge patch of our fields, or empty when in step.
 */
final class PropagatedFields {
  /** The record of what we propagated to an object (JSON: category → sorted keys). */
  static final String PROPAGATED = "controlplane.cluster.x-k8s.io/propagated";

  /**
   * The pre-terminate hook we hold on each control-plane Machine: its host is removed only once
   * etcd can do without its member ({@link PreTerminateHook}).
   */
  static final String PRE_TERMINATE_HOOK =
      "pre-terminate.delete.hook.machine.cluster.x-k8s.io/openshift-agent-etcd";

  /**
   * Control-plane annotations that describe the control plane object itself, never given to its
   * configs (the Go provider copies every one but the first): Cluster API's conversion data (the
   * lossy fields of the control plane's other API versions; on a config it corrupts its
   * conversion), kubectl's copy of the whole control plane, Argo CD's tracking id (it names the
   * control plane; Argo CD finds the configs through their owner reference), Cluster API's
   * cloned-from pair (the template ClusterClass made the control plane from), pausing (it pauses
   * the control plane, whose reconciler then propagates nothing, so a copy could never be taken
   * back) and our remediation record.
   */
  static final Set<String> NOT_FOR_CONFIGS =
      Set.of(
          "cluster.x-k8s.io/conversion-data",
          "kubectl.kubernetes.io/last-applied-configuration",
          "argocd.argoproj.io/tracking-id",
          UpToDate.CLONED_FROM_NAME,
          UpToDate.CLONED_FROM_GROUP_KIND,
          ExternalKinds.PAUSED_ANNOTATION,
          RemediationData.IN_PROGRESS);

  /**
   * Our bookkeeping on the objects we make, taken neither from the template nor from the control
   * plane: a copy would overwrite it (a config's hash rewritten is a rollout).
   */
  private static final Set<String> BOOKKEEPING =
      Set.of(
          PROPAGATED,
          PRE_TERMINATE_HOOK,
          UpToDate.CONFIG_HASH_ANNOTATION,
          RemediationData.FOR,
          RemediationData.IN_PROGRESS);

  /** Labels we set on every object and never remove. */
  private static final Set<String> FIXED_LABELS =
      Set.of(
          ExternalKinds.CLUSTER_NAME_LABEL,
          ExternalKinds.CONTROL_PLANE_LABEL,
          ExternalKinds.CONTROL_PLANE_NAME_LABEL);

  private static final ObjectMapper JSON = new ObjectMapper();

  private PropagatedFields() {}

  /** The labels and annotations an object gets from the control plane. */
  record Metadata(Map<String, String> labels, Map<String, String> annotations) {}

  /** For Machines and infrastructure machines: {@code machineTemplate.metadata}. */
  static Metadata forMachines(OpenshiftAssistedControlPlane cp) {
    ObjectMetaTemplate template = cp.getSpec().machineTemplate.metadata;
    Map<String, String> annotations = copy(template == null ? null : template.annotations);
    BOOKKEEPING.forEach(annotations::remove);
    return new Metadata(withoutFixed(template == null ? null : template.labels), annotations);
  }

  /**
   * For configs: the template's metadata, then the control plane's own where the template has none,
   * as the Go provider does. Cluster API's labels, which the caller sets last, win over both.
   */
  static Metadata forConfigs(OpenshiftAssistedControlPlane cp) {
    Metadata machines = forMachines(cp);
    Map<String, String> labels = new LinkedHashMap<>(machines.labels());
    withoutFixed(cp.getMetadata().getLabels()).forEach(labels::putIfAbsent);
    Map<String, String> annotations = new LinkedHashMap<>(machines.annotations());
    copy(cp.getMetadata().getAnnotations()).entrySet().stream()
        .filter(e -> !NOT_FOR_CONFIGS.contains(e.getKey()) && !BOOKKEEPING.contains(e.getKey()))
        .forEach(e -> annotations.putIfAbsent(e.getKey(), e.getValue()));
    return new Metadata(labels, annotations);
  }

  /** The record an object made with {@code metadata} (and a Machine's lists) starts with. */
  static String record(Metadata metadata, MachineSpec machineSpec) {
    Map<String, Set<String>> record = new LinkedHashMap<>();
    record.put("labels", new TreeSet<>(metadata.labels().keySet()));
    record.put("annotations", new TreeSet<>(metadata.annotations().keySet()));
    if (machineSpec != null) {
      record.putAll(PropagatedSpec.recordOf(machineSpec));
    }
    try {
      return JSON.writeValueAsString(record);
    } catch (JsonProcessingException e) {
      throw new IllegalStateException(e);
    }
  }

  /** The merge patch of a config's or infrastructure machine's propagated metadata. */
  static OwnedFieldsPatch metadataPatch(HasMetadata current, Metadata desired) {
    OwnedFieldsPatch patch = new OwnedFieldsPatch();
    Map<String, Set<String>> recorded = recorded(current);
    metadata(patch, "labels", current.getMetadata().getLabels(), desired.labels(), recorded);
    metadata(
        patch, "annotations", annotationsWithoutRecord(current), desired.annotations(), recorded);
    if (!patch.isEmpty() || !recorded.containsKey("labels")) {
      patch.set(record(desired, null), "metadata", "annotations", PROPAGATED);
    }
    return patch;
  }

  /**
   * The merge patch of a Machine: its propagated metadata, the pre-terminate hook, and the
   * readiness gates, taints and minReadySeconds of the template. When a list changes, the patch is
   * bound to the Machine's resourceVersion, so that an item someone added meanwhile is not lost.
   */
  static OwnedFieldsPatch machinePatch(Machine current, OpenshiftAssistedControlPlane cp) {
    Metadata desired = forMachines(cp);
    MachineSpec desiredSpec = PropagatedSpec.desired(cp.getSpec().machineTemplate);
    Map<String, Set<String>> recorded = recorded(current);
    OwnedFieldsPatch patch = new OwnedFieldsPatch();
    metadata(patch, "labels", current.getMetadata().getLabels(), desired.labels(), recorded);
    metadata(
        patch, "annotations", annotationsWithoutRecord(current), desired.annotations(), recorded);
    if (!io.openshiftagent.provider.reconcile.Metadata.hasAnnotation(current, PRE_TERMINATE_HOOK)) {
      patch.set(MachineFactory.HOOK_OWNER, "metadata", "annotations", PRE_TERMINATE_HOOK);
    }
    boolean listChanged = PropagatedSpec.patch(patch, current.getSpec(), desiredSpec, recorded);
    String record = record(desired, desiredSpec);
    if (!patch.isEmpty()
        || !record.equals(
            io.openshiftagent.provider.reconcile.Metadata.annotation(current, PROPAGATED))) {
      patch.set(record, "metadata", "annotations", PROPAGATED);
    }
    if (listChanged) {
      patch.requireResourceVersion(current.getMetadata().getResourceVersion());
    }
    return patch;
  }

  /**
   * The metadata patch of a Machine's infrastructure machine, which we do not read: the same labels
   * and annotations as its Machine, with what the Machine's record says we set before.
   */
  static OwnedFieldsPatch infrastructurePatch(Machine machine, OpenshiftAssistedControlPlane cp) {
    Metadata desired = forMachines(cp);
    Map<String, Set<String>> recorded = recorded(machine);
    OwnedFieldsPatch patch = new OwnedFieldsPatch();
    desired.labels().forEach((k, v) -> patch.set(v, "metadata", "labels", k));
    desired.annotations().forEach((k, v) -> patch.set(v, "metadata", "annotations", k));
    recorded.getOrDefault("labels", Set.of()).stream()
        .filter(k -> !desired.labels().containsKey(k))
        .forEach(k -> patch.set(null, "metadata", "labels", k));
    recorded.getOrDefault("annotations", Set.of()).stream()
        .filter(k -> !desired.annotations().containsKey(k))
        .forEach(k -> patch.set(null, "metadata", "annotations", k));
    patch.set(record(desired, null), "metadata", "annotations", PROPAGATED);
    return patch;
  }

  /** Sets our keys that differ and removes the recorded ones that left the spec. */
  private static void metadata(
      OwnedFieldsPatch patch,
      String field,
      Map<String, String> current,
      Map<String, String> desired,
      Map<String, Set<String>> recorded) {
    Map<String, String> have = current == null ? Map.of() : current;
    desired.forEach(
        (k, v) -> {
          if (!v.equals(have.get(k))) {
            patch.set(v, "metadata", field, k);
          }
        });
    recorded.getOrDefault(field, Set.of()).stream()
        .filter(k -> !desired.containsKey(k) && have.containsKey(k))
        .forEach(k -> patch.set(null, "metadata", field, k));
  }

  /** What the object's record says we set; empty when it has none (made before records). */
  @SuppressWarnings("unchecked")
  static Map<String, Set<String>> recorded(HasMetadata object) {
    String value = io.openshiftagent.provider.reconcile.Metadata.annotation(object, PROPAGATED);
    if (value == null) {
      return Map.of();
    }
    try {
      Map<String, List<String>> raw = JSON.readValue(value, Map.class);
      Map<String, Set<String>> record = new LinkedHashMap<>();
      raw.forEach((k, v) -> record.put(k, new TreeSet<>(v)));
      return record;
    } catch (JsonProcessingException | ClassCastException e) {
      return Map.of();
    }
  }

  private static Map<String, String> annotationsWithoutRecord(HasMetadata object) {
    Map<String, String> annotations =
        new LinkedHashMap<>(copy(object.getMetadata().getAnnotations()));
    annotations.remove(PROPAGATED);
    return annotations;
  }

  private static Map<String, String> withoutFixed(Map<String, String> labels) {
    Map<String, String> result = new LinkedHashMap<>(copy(labels));
    FIXED_LABELS.forEach(result::remove);
    return result;
  }

  private static Map<String, String> copy(Map<String, String> map) {
    return map == null ? new LinkedHashMap<>() : new LinkedHashMap<>(map);
  }
}
