package io.openshiftagent.controlplane.machines;

import static io.openshiftagent.controlplane.Fixtures.machine;
import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.client.utils.Serialization;
import io.openshiftagent.api.bootstrap.v1alpha2.OpenshiftAssistedConfig;
import io.openshiftagent.api.common.MachineTaint;
import io.openshiftagent.api.common.ObjectMetaTemplate;
import io.openshiftagent.api.controlplane.v1alpha3.ControlPlaneMachineTemplate;
import io.openshiftagent.api.controlplane.v1alpha3.OpenshiftAssistedControlPlane;
import io.openshiftagent.api.external.ExternalKinds;
import io.openshiftagent.api.external.capi.Machine;
import io.openshiftagent.api.external.capi.MachineSpec;
import io.openshiftagent.controlplane.Fixtures;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * In-place propagation as merge patches: what the spec sets is set, what left the spec is removed,
 * what others set is left alone.
 */
@SuppressWarnings("unchecked")
class PropagatedFieldsTest {
  private static OpenshiftAssistedControlPlane controlPlane(
      Map<String, String> labels, Map<String, String> annotations) {
    OpenshiftAssistedControlPlane cp = Fixtures.controlPlane("ns", "cp", 3);
    cp.getSpec().machineTemplate.metadata = new ObjectMetaTemplate();
    cp.getSpec().machineTemplate.metadata.labels = labels;
    cp.getSpec().machineTemplate.metadata.annotations = annotations;
    return cp;
  }

  /** A Machine as it was made from {@code cp}, then changed by others as given. */
  private static Machine madeFrom(OpenshiftAssistedControlPlane cp) {
    Machine m = machine("m0", "2026-01-01T00:00:00Z", null);
    PropagatedFields.Metadata metadata = PropagatedFields.forMachines(cp);
    MachineSpec spec = PropagatedSpec.desired(cp.getSpec().machineTemplate);
    Map<String, String> labels = new HashMap<>(metadata.labels());
    labels.put("cluster.x-k8s.io/control-plane", "");
    Map<String, String> annotations = new HashMap<>(metadata.annotations());
    annotations.put(PropagatedFields.PROPAGATED, PropagatedFields.record(metadata, spec));
    annotations.put(PropagatedFields.PRE_TERMINATE_HOOK, MachineFactory.HOOK_OWNER);
    m.getMetadata().setLabels(labels);
    m.getMetadata().setAnnotations(annotations);
    m.getMetadata().setResourceVersion("42");
    m.setSpec(spec);
    return m;
  }

  @SuppressWarnings("unchecked")
  private static Map<String, Object> json(io.openshiftagent.api.external.OwnedFieldsPatch patch) {
    return Serialization.unmarshal(patch.toJson(), Map.class);
  }

  @Test
  void aMachineMadeFromTheSpecIsInStep() {
    OpenshiftAssistedControlPlane cp = controlPlane(Map.of("team", "infra"), Map.of("a", "1"));
    assertThat(PropagatedFields.machinePatch(madeFrom(cp), cp).isEmpty()).isTrue();
  }

  @Test
  void changedAddedAndRemovedTemplateMetadataReachTheMachineAndOthersKeysStay() {
    OpenshiftAssistedControlPlane before =
        controlPlane(Map.of("team", "infra", "old", "x"), Map.of("note", "a"));
    Machine machine = madeFrom(before);
    machine.getMetadata().getLabels().put("set-by-someone-else", "yes");
    machine.getMetadata().getAnnotations().put("their-annotation", "v");
    OpenshiftAssistedControlPlane after =
        controlPlane(Map.of("team", "platform", "new", "y"), Map.of());

    Map<String, Object> patch = json(PropagatedFields.machinePatch(machine, after));

    Map<String, Object> metadata = (Map<String, Object>) patch.get("metadata");
    Map<String, Object> labels = (Map<String, Object>) metadata.get("labels");
    assertThat(labels).containsEntry("team", "platform").containsEntry("new", "y");
    assertThat(labels).containsKey("old");
    assertThat(labels.get("old")).isNull();
    assertThat(labels).doesNotContainKeys("set-by-someone-else", "cluster.x-k8s.io/control-plane");
    Map<String, Object> annotations = (Map<String, Object>) metadata.get("annotations");
    assertThat(annotations).containsKey("note");
    assertThat(annotations.get("note")).isNull();
    assertThat(annotations)
        .doesNotContainKeys("their-annotation", PropagatedFields.PRE_TERMINATE_HOOK);
    assertThat((String) annotations.get(PropagatedFields.PROPAGATED))
        .isEqualTo(
            "{\"labels\":[\"new\",\"team\"],\"annotations\":[],\"readinessGates\":[],\"taints\":[]}");
    assertThat(patch).doesNotContainKey("spec");
    assertThat(metadata)
        .as("no list changed: no resourceVersion precondition")
        .doesNotContainKey("resourceVersion");
  }

  @Test
  void readinessGatesTaintsAndMinReadySecondsChangeInPlaceKeepingOthersItems() {
    OpenshiftAssistedControlPlane before = controlPlane(null, null);
    before.getSpec().machineTemplate.spec.readinessGates = List.of(gate("ours"));
    before.getSpec().machineTemplate.spec.taints =
        List.of(taint("example.com/a", MachineTaint.Effect.NoSchedule));
    Machine machine = madeFrom(before);
    List<MachineSpec.ReadinessGate> gates = new ArrayList<>(machine.getSpec().readinessGates);
    MachineSpec.ReadinessGate theirs = new MachineSpec.ReadinessGate();
    theirs.conditionType = "theirs";
    gates.add(theirs);
    machine.getSpec().readinessGates = gates;
    List<Map<String, Object>> taints = new ArrayList<>(machine.getSpec().taints);
    taints.add(
        new LinkedHashMap<>(
            Map.of("key", "their/taint", "effect", "NoExecute", "propagation", "Always")));
    machine.getSpec().taints = taints;

    OpenshiftAssistedControlPlane after = controlPlane(null, null);
    after.getSpec().machineTemplate.spec.readinessGates = List.of(gate("ours-now"));
    after.getSpec().machineTemplate.spec.taints = List.of();
    after.getSpec().machineTemplate.spec.minReadySeconds = 30;

    Map<String, Object> patch = json(PropagatedFields.machinePatch(machine, after));
    Map<String, Object> spec = (Map<String, Object>) patch.get("spec");
    assertThat((List<Map<String, Object>>) spec.get("readinessGates"))
        .extracting(g -> g.get("conditionType"))
        .containsExactly("theirs", "ours-now");
    assertThat((List<Map<String, Object>>) spec.get("taints"))
        .extracting(t -> t.get("key"))
        .containsExactly("their/taint");
    assertThat(spec).containsEntry("minReadySeconds", 30);
    assertThat((Map<String, Object>) patch.get("metadata"))
        .as("a list is rewritten only on the version it was read from")
        .containsEntry("resourceVersion", "42");
  }

  @Test
  void aMachineMadeBeforeRecordsGetsTheHookAndTheSpecButLosesNothing() {
    OpenshiftAssistedControlPlane cp = controlPlane(Map.of("team", "infra"), null);
    Machine legacy = machine("m0", "2026-01-01T00:00:00Z", null);
    legacy.getMetadata().setLabels(new HashMap<>(Map.of("team", "infra", "extra", "1")));
    legacy.setSpec(new MachineSpec());
    Map<String, Object> patch = json(PropagatedFields.machinePatch(legacy, cp));
    Map<String, Object> metadata = (Map<String, Object>) patch.get("metadata");
    assertThat((Map<String, Object>) metadata.get("annotations"))
        .containsEntry(PropagatedFields.PRE_TERMINATE_HOOK, MachineFactory.HOOK_OWNER)
        .containsKey(PropagatedFields.PROPAGATED);
    assertThat(metadata).doesNotContainKey("labels");
  }

  @Test
  void configsGetTheControlPlanesOwnLabelsAndAnnotationsAsTheGoProviderGivesThem() {
    OpenshiftAssistedControlPlane cp =
        controlPlane(Map.of("team", "infra"), Map.of("shared", "template"));
    cp.getMetadata()
        .setLabels(
            Map.of(
                "team",
                "ignored: the template wins",
                "site",
                "edge",
                "cluster.x-k8s.io/cluster-name",
                "c"));
    cp.getMetadata()
        .setAnnotations(
            Map.of(
                "shared",
                "ignored",
                "openshiftassistedconfig.cluster.x-k8s.io/discovery-ignition-override",
                "{}",
                "cluster.x-k8s.io/conversion-data",
                "{...}",
                "kubectl.kubernetes.io/last-applied-configuration",
                "{...}",
                "cluster.x-k8s.io/paused",
                "",
                RemediationData.IN_PROGRESS,
                "{}"));
    PropagatedFields.Metadata configs = PropagatedFields.forConfigs(cp);
    assertThat(configs.labels())
        .containsOnly(Map.entry("team", "infra"), Map.entry("site", "edge"));
    assertThat(configs.annotations())
        .containsOnly(
            Map.entry("shared", "template"),
            Map.entry(
                "openshiftassistedconfig.cluster.x-k8s.io/discovery-ignition-override", "{}"));

    OpenshiftAssistedConfig config = new OpenshiftAssistedConfig();
    config.setMetadata(
        new io.fabric8.kubernetes.api.model.ObjectMetaBuilder()
            .withName("m0")
            .withLabels(Map.of("other", "x"))
            .build());
    Map<String, Object> patch = json(PropagatedFields.metadataPatch(config, configs));
    assertThat((Map<String, Object>) ((Map<String, Object>) patch.get("metadata")).get("labels"))
        .containsOnly(Map.entry("team", "infra"), Map.entry("site", "edge"));
  }

  private static final String OVERRIDE =
      "openshiftassistedconfig.cluster.x-k8s.io/discovery-ignition-override";

  /**
   * What the template and the control plane carry (labels or annotations), and what a config and a
   * Machine get.
   */
  record Row(
      boolean labels,
      String name,
      Map<String, String> template,
      Map<String, String> controlPlane,
      Map<String, String> config,
      Map<String, String> machine) {
    @Override
    public String toString() {
      return name;
    }
  }

  private static Row onlyOnTheControlPlaneAndNotCopied(String key) {
    return new Row(
        false,
        key + " describes the control plane",
        Map.of(),
        Map.of(key, "v"),
        Map.of(),
        Map.of());
  }

  static Stream<Row> configsAndMachines() {
    return Stream.of(
        new Row(
            false,
            "an ignition override set on the control plane",
            Map.of(),
            Map.of(OVERRIDE, "{}"),
            Map.of(OVERRIDE, "{}"),
            Map.of()),
        new Row(
            false,
            "the template's value wins, as in the Go provider",
            Map.of("k", "template"),
            Map.of("k", "control plane"),
            Map.of("k", "template"),
            Map.of("k", "template")),
        new Row(
            false,
            "Argo CD's other annotations are the user's",
            Map.of(),
            Map.of("argocd.argoproj.io/sync-options", "Prune=false"),
            Map.of("argocd.argoproj.io/sync-options", "Prune=false"),
            Map.of()),
        onlyOnTheControlPlaneAndNotCopied("cluster.x-k8s.io/conversion-data"),
        onlyOnTheControlPlaneAndNotCopied("kubectl.kubernetes.io/last-applied-configuration"),
        onlyOnTheControlPlaneAndNotCopied("argocd.argoproj.io/tracking-id"),
        onlyOnTheControlPlaneAndNotCopied(UpToDate.CLONED_FROM_NAME),
        onlyOnTheControlPlaneAndNotCopied(UpToDate.CLONED_FROM_GROUP_KIND),
        onlyOnTheControlPlaneAndNotCopied("cluster.x-k8s.io/paused"),
        onlyOnTheControlPlaneAndNotCopied(RemediationData.IN_PROGRESS),
        new Row(
            false,
            "our config hash is taken from neither: a copy would be a rollout",
            Map.of(UpToDate.CONFIG_HASH_ANNOTATION, "t"),
            Map.of(UpToDate.CONFIG_HASH_ANNOTATION, "c"),
            Map.of(),
            Map.of()),
        new Row(
            false,
            "our record and hook are taken from neither",
            Map.of(
                PropagatedFields.PROPAGATED, "{}", PropagatedFields.PRE_TERMINATE_HOOK, "someone"),
            Map.of(PropagatedFields.PROPAGATED, "{}", RemediationData.FOR, "{}"),
            Map.of(),
            Map.of()),
        new Row(
            true,
            "a label set on the control plane",
            Map.of(),
            Map.of("site", "edge"),
            Map.of("site", "edge"),
            Map.of()),
        new Row(
            true,
            "the template's value wins, as in the Go provider",
            Map.of("team", "infra"),
            Map.of("team", "platform"),
            Map.of("team", "infra"),
            Map.of("team", "infra")),
        new Row(
            true,
            "Cluster API's labels come from neither (the factory sets them last)",
            Map.of(ExternalKinds.CONTROL_PLANE_LABEL, "x"),
            Map.of(
                ExternalKinds.CLUSTER_NAME_LABEL,
                "other",
                ExternalKinds.CONTROL_PLANE_NAME_LABEL,
                "other"),
            Map.of(),
            Map.of()),
        new Row(
            true,
            "Argo CD's instance label is copied: Argo CD ignores objects with an owner",
            Map.of(),
            Map.of("app.kubernetes.io/instance", "clusters"),
            Map.of("app.kubernetes.io/instance", "clusters"),
            Map.of()));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource
  void configsAndMachines(Row row) {
    OpenshiftAssistedControlPlane cp =
        row.labels()
            ? controlPlane(row.template(), Map.of())
            : controlPlane(Map.of(), row.template());
    if (row.labels()) {
      cp.getMetadata().setLabels(row.controlPlane());
    } else {
      cp.getMetadata().setAnnotations(row.controlPlane());
    }
    Function<PropagatedFields.Metadata, Map<String, String>> field =
        row.labels() ? PropagatedFields.Metadata::labels : PropagatedFields.Metadata::annotations;
    assertThat(field.apply(PropagatedFields.forConfigs(cp))).isEqualTo(row.config());
    assertThat(field.apply(PropagatedFields.forMachines(cp))).isEqualTo(row.machine());
  }

  @Test
  void theControlPlanesKeysChangeAndLeaveAConfigInPlaceAndItsHashAndOthersKeysStay() {
    OpenshiftAssistedControlPlane before = controlPlane(Map.of(), Map.of());
    before.getMetadata().setLabels(Map.of("site", "edge", "tier", "gold"));
    before.getMetadata().setAnnotations(Map.of(OVERRIDE, "{}", "note", "a"));
    PropagatedFields.Metadata made = PropagatedFields.forConfigs(before);
    Map<String, String> labels = new HashMap<>(made.labels());
    labels.put("theirs", "1");
    Map<String, String> annotations = new HashMap<>(made.annotations());
    annotations.put(PropagatedFields.PROPAGATED, PropagatedFields.record(made, null));
    annotations.put(UpToDate.CONFIG_HASH_ANNOTATION, "hash");
    annotations.put("their-note", "1");
    OpenshiftAssistedConfig config = new OpenshiftAssistedConfig();
    config.setMetadata(
        new io.fabric8.kubernetes.api.model.ObjectMetaBuilder()
            .withName("m0")
            .withLabels(labels)
            .withAnnotations(annotations)
            .build());
    assertThat(PropagatedFields.metadataPatch(config, made).isEmpty()).isTrue();

    OpenshiftAssistedControlPlane after = controlPlane(Map.of(), Map.of());
    after.getMetadata().setLabels(Map.of("tier", "silver"));
    after
        .getMetadata()
        .setAnnotations(Map.of("note", "a", UpToDate.CONFIG_HASH_ANNOTATION, "not ours"));
    Map<String, Object> metadata =
        (Map<String, Object>)
            json(PropagatedFields.metadataPatch(config, PropagatedFields.forConfigs(after)))
                .get("metadata");

    Map<String, Object> patchedLabels = (Map<String, Object>) metadata.get("labels");
    assertThat(patchedLabels).containsEntry("tier", "silver").containsKey("site");
    assertThat(patchedLabels.get("site")).isNull();
    assertThat(patchedLabels).doesNotContainKey("theirs");
    Map<String, Object> patchedAnnotations = (Map<String, Object>) metadata.get("annotations");
    assertThat(patchedAnnotations).containsKey(OVERRIDE);
    assertThat(patchedAnnotations.get(OVERRIDE)).isNull();
    assertThat(patchedAnnotations)
        .doesNotContainKeys("note", "their-note", UpToDate.CONFIG_HASH_ANNOTATION)
        .containsKey(PropagatedFields.PROPAGATED);
  }

  @Test
  void theInfrastructureMachineFollowsItsMachinesRecord() {
    OpenshiftAssistedControlPlane before = controlPlane(Map.of("gone", "1", "kept", "1"), null);
    Machine machine = madeFrom(before);
    OpenshiftAssistedControlPlane after = controlPlane(Map.of("kept", "2"), null);
    Map<String, Object> patch = json(PropagatedFields.infrastructurePatch(machine, after));
    Map<String, Object> labels =
        (Map<String, Object>) ((Map<String, Object>) patch.get("metadata")).get("labels");
    assertThat(labels).containsEntry("kept", "2").containsKey("gone");
    assertThat(labels.get("gone")).isNull();
  }

  private static ControlPlaneMachineTemplate.ReadinessGate gate(String type) {
    ControlPlaneMachineTemplate.ReadinessGate gate =
        new ControlPlaneMachineTemplate.ReadinessGate();
    gate.conditionType = type;
    return gate;
  }

  private static MachineTaint taint(String key, MachineTaint.Effect effect) {
    MachineTaint taint = new MachineTaint();
    taint.key = key;
    taint.effect = effect;
    taint.propagation = MachineTaint.Propagation.Always;
    return taint;
  }
}
