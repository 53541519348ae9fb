package io.openshiftagent.controlplane.machines;

import io.fabric8.kubernetes.client.utils.Serialization;
import io.openshiftagent.api.common.MachineTaint;
import io.openshiftagent.api.controlplane.v1alpha3.ControlPlaneMachineTemplate;
import io.openshiftagent.api.external.OwnedFieldsPatch;
import io.openshiftagent.api.external.capi.MachineSpec;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.Function;

/**
 * The Machine spec fields the control plane keeps in step in place ({@link PropagatedFields}): the
 * readiness gates, taints and minReadySeconds of {@code machineTemplate.spec}. In the two lists,
 * the items others added stay where they are; ours are those the Machine's record names.
 */
final class PropagatedSpec {
  private PropagatedSpec() {}

  /** The Machine spec fields the template sets, as Cluster API's Machine holds them. */
  static MachineSpec desired(ControlPlaneMachineTemplate template) {
    MachineSpec spec = new MachineSpec();
    ControlPlaneMachineTemplate.MachineSpecTemplate t = template.spec;
    if (t == null) {
      return spec;
    }
    if (t.readinessGates != null) {
      spec.readinessGates =
          t.readinessGates.stream()
              .map(
                  g -> {
                    MachineSpec.ReadinessGate gate = new MachineSpec.ReadinessGate();
                    gate.conditionType = g.conditionType;
                    gate.polarity = g.polarity;
                    return gate;
                  })
              .toList();
    }
    if (t.taints != null) {
      spec.taints = t.taints.stream().map(PropagatedSpec::taintMap).toList();
    }
    spec.minReadySeconds = t.minReadySeconds;
    return spec;
  }

  @SuppressWarnings("unchecked")
  private static Map<String, Object> taintMap(MachineTaint taint) {
    return Serialization.jsonMapper().convertValue(taint, Map.class);
  }

  private static String taintKey(Map<String, Object> taint) {
    return taint.get("key") + ":" + taint.get("effect");
  }

  /** What the record of a Machine made with {@code spec} says of its lists. */
  static Map<String, Set<String>> recordOf(MachineSpec spec) {
    Map<String, Set<String>> record = new LinkedHashMap<>();
    record.put("readinessGates", keys(spec.readinessGates, g -> g.conditionType));
    record.put("taints", keys(spec.taints, PropagatedSpec::taintKey));
    return record;
  }

  /**
   * Adds to {@code patch} the spec fields of {@code current} that differ from {@code desired};
   * returns whether a list changed.
   *
   * @param recorded what the Machine's record says we set
   */
  static boolean patch(
      OwnedFieldsPatch patch,
      MachineSpec current,
      MachineSpec desired,
      Map<String, Set<String>> recorded) {
    MachineSpec spec = current == null ? new MachineSpec() : current;
    int minReady = Objects.requireNonNullElse(desired.minReadySeconds, 0);
    if (minReady != Objects.requireNonNullElse(spec.minReadySeconds, 0)) {
      patch.set(minReady, "spec", "minReadySeconds");
    }
    boolean listChanged = false;
    List<Object> gates =
        merged(
            spec.readinessGates,
            desired.readinessGates,
            g -> g.conditionType,
            recorded.getOrDefault("readinessGates", Set.of()));
    if (gates != null) {
      patch.set(gates, "spec", "readinessGates");
      listChanged = true;
    }
    List<Object> taints =
        merged(
            spec.taints,
            desired.taints,
            PropagatedSpec::taintKey,
            recorded.getOrDefault("taints", Set.of()));
    if (taints != null) {
      patch.set(taints, "spec", "taints");
      listChanged = true;
    }
    return listChanged;
  }

  /**
   * The list to write: the current items that are not ours, in place, then ours from the spec; or
   * null when that is the current list.
   */
  private static <T> List<Object> merged(
      List<T> current, List<T> desired, Function<T, String> key, Set<String> recorded) {
    List<T> have = current == null ? List.of() : current;
    List<T> want = desired == null ? List.of() : desired;
    Set<String> wanted = new TreeSet<>(want.stream().map(key).toList());
    List<Object> result = new ArrayList<>();
    for (T item : have) {
      String k = key.apply(item);
      if (!recorded.contains(k) && !wanted.contains(k)) {
        result.add(item);
      }
    }
    result.addAll(want);
    List<Object> asJson = Serialization.jsonMapper().convertValue(result, List.class);
    List<Object> haveJson = Serialization.jsonMapper().convertValue(have, List.class);
    return sameItems(asJson, haveJson) ? null : asJson;
  }

  private static boolean sameItems(List<Object> a, List<Object> b) {
    return a.size() == b.size() && new ArrayList<>(a).containsAll(b) && b.containsAll(a);
  }

  private static <T> Set<String> keys(List<T> items, Function<T, String> key) {
    return items == null ? new TreeSet<>() : new TreeSet<>(items.stream().map(key).toList());
  }
}
