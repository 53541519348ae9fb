package io.openshiftagent.controlplane.machines;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.fabric8.kubernetes.client.utils.Serialization;
import io.openshiftagent.api.bootstrap.v1alpha2.BootstrapGroup;
import io.openshiftagent.api.bootstrap.v1alpha2.OpenshiftAssistedConfig;
import io.openshiftagent.api.bootstrap.v1alpha2.OpenshiftAssistedConfigSpec;
import io.openshiftagent.api.common.ContractVersionedObjectReference;
import io.openshiftagent.api.controlplane.v1alpha3.ControlPlaneMachineTemplate;
import io.openshiftagent.api.controlplane.v1alpha3.OpenshiftAssistedControlPlane;
import io.openshiftagent.api.external.capi.Machine;
import io.openshiftagent.api.external.capi.MachineSpec;
import io.openshiftagent.controlplane.names.Names;
import io.openshiftagent.controlplane.scope.ControlPlaneScope;
import io.openshiftagent.controlplane.scope.InfrastructureTemplates;
import io.openshiftagent.provider.contract.Kinds;
import io.openshiftagent.provider.contract.ObjectNames;
import io.openshiftagent.provider.reconcile.OwnerReferences;
import java.security.SecureRandom;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The three objects of a control-plane Machine, all under one name: the OpenshiftAssistedConfig
 * (from spec.openshiftAssistedConfigSpec, with its hash), the clone of the infrastructure template
 * (with Cluster API's cloned-from annotations) and the Machine referencing both.
 */
final class MachineFactory {
  /** The value of our pre-terminate hook annotation: who holds it. */
  static final String HOOK_OWNER = "openshift-agent-controlplane-provider";

  private static final SecureRandom RANDOM = new SecureRandom();
  private static final String ALPHABET = "bcdfghjklmnpqrstvwxz2456789";

  private MachineFactory() {}

  /**
   * {@code count} new Machines: each named (from {@code names} first, then a fresh name) and in the
   * failure domain with the fewest Machines, counting those planned before it.
   */
  static List<Machine> plan(
      ControlPlaneScope scope, GenericKubernetesResource template, int count, List<String> names) {
    List<Machine> machines = new ArrayList<>(scope.machines());
    List<Machine> planned = new ArrayList<>();
    for (int i = 0; i < count; i++) {
      String name = i < names.size() ? names.get(i) : newName(scope.cp());
      Optional<String> failureDomain =
          MachineSelection.failureDomainForNewMachine(
              scope.cluster().getStatus() == null
                  ? null
                  : scope.cluster().getStatus().failureDomains,
              machines);
      Machine machine = machine(scope, name, template, failureDomain.orElse(null));
      planned.add(machine);
      machines.add(machine);
    }
    return planned;
  }

  static GenericKubernetesResource infrastructureMachine(
      ControlPlaneScope scope, GenericKubernetesResource template, String name) {
    Map<String, Object> templateSpec =
        map(map(template.getAdditionalProperties().get("spec")).get("template"));
    Map<String, Object> templateMetadata = map(templateSpec.get("metadata"));
    PropagatedFields.Metadata propagated = PropagatedFields.forMachines(scope.cp());
    Map<String, String> labels = new LinkedHashMap<>(strings(templateMetadata.get("labels")));
    labels.putAll(propagated.labels());
    labels.putAll(Names.controlPlaneLabels(scope.cp(), scope.clusterName()));
    Map<String, String> annotations =
        new LinkedHashMap<>(strings(templateMetadata.get("annotations")));
    annotations.putAll(propagated.annotations());
    annotations.put(PropagatedFields.PROPAGATED, PropagatedFields.record(propagated, null));
    String group = OwnerReferences.groupOf(template.getApiVersion());
    annotations.put(UpToDate.CLONED_FROM_NAME, template.getMetadata().getName());
    annotations.put(UpToDate.CLONED_FROM_GROUP_KIND, template.getKind() + "." + group);
    GenericKubernetesResource clone = new GenericKubernetesResource();
    clone.setApiVersion(template.getApiVersion());
    clone.setKind(InfrastructureTemplates.machineKind(template.getKind()));
    clone.setMetadata(
        new ObjectMetaBuilder()
            .withName(name)
            .withNamespace(scope.namespace())
            .withLabels(labels)
            .withAnnotations(annotations)
            .withOwnerReferences(OwnerReferences.plain(scope.cp()))
            .build());
    clone.setAdditionalProperty("spec", templateSpec.getOrDefault("spec", Map.of()));
    return clone;
  }

  static OpenshiftAssistedConfig config(ControlPlaneScope scope, String name) {
    OpenshiftAssistedControlPlane cp = scope.cp();
    OpenshiftAssistedConfig config = new OpenshiftAssistedConfig();
    PropagatedFields.Metadata propagated = PropagatedFields.forConfigs(cp);
    Map<String, String> labels = new LinkedHashMap<>(propagated.labels());
    labels.putAll(Names.controlPlaneLabels(scope.cp(), scope.clusterName()));
    Map<String, String> annotations = new LinkedHashMap<>(propagated.annotations());
    annotations.put(PropagatedFields.PROPAGATED, PropagatedFields.record(propagated, null));
    annotations.put(
        UpToDate.CONFIG_HASH_ANNOTATION,
        UpToDate.configHash(cp.getSpec().openshiftAssistedConfigSpec));
    config.setMetadata(
        new ObjectMetaBuilder()
            .withName(name)
            .withNamespace(scope.namespace())
            .withLabels(labels)
            .withAnnotations(annotations)
            .withOwnerReferences(OwnerReferences.plain(cp))
            // The bootstrap provider's, set here rather than added by it a moment later.
            .withFinalizers(BootstrapGroup.CONFIG_FINALIZER)
            .build());
    config.setSpec(
        cp.getSpec().openshiftAssistedConfigSpec == null
            ? new OpenshiftAssistedConfigSpec()
            : Serialization.clone(cp.getSpec().openshiftAssistedConfigSpec));
    return config;
  }

  static Machine machine(
      ControlPlaneScope scope,
      String name,
      GenericKubernetesResource template,
      String failureDomain) {
    OpenshiftAssistedControlPlane cp = scope.cp();
    ControlPlaneMachineTemplate machineTemplate = cp.getSpec().machineTemplate;
    PropagatedFields.Metadata propagated = PropagatedFields.forMachines(cp);
    MachineSpec spec = PropagatedSpec.desired(machineTemplate);
    Map<String, String> labels = new LinkedHashMap<>(propagated.labels());
    labels.putAll(Names.controlPlaneLabels(scope.cp(), scope.clusterName()));
    Map<String, String> annotations = new LinkedHashMap<>(propagated.annotations());
    annotations.put(PropagatedFields.PROPAGATED, PropagatedFields.record(propagated, spec));
    annotations.put(PropagatedFields.PRE_TERMINATE_HOOK, HOOK_OWNER);
    Machine machine = new Machine();
    machine.setMetadata(
        new ObjectMetaBuilder()
            .withName(name)
            .withNamespace(scope.namespace())
            .withLabels(labels)
            .withAnnotations(annotations)
            .withOwnerReferences(OwnerReferences.controller(cp))
            .build());
    spec.clusterName = scope.clusterName();
    spec.bootstrap = new MachineSpec.Bootstrap();
    spec.bootstrap.configRef =
        new ContractVersionedObjectReference(
            BootstrapGroup.GROUP, Kinds.OPENSHIFT_ASSISTED_CONFIG, name);
    spec.infrastructureRef =
        new ContractVersionedObjectReference(
            OwnerReferences.groupOf(template.getApiVersion()),
            InfrastructureTemplates.machineKind(template.getKind()),
            name);
    spec.failureDomain = failureDomain;
    spec.deletion = machineTemplate.effectiveDeletion();
    machine.setSpec(spec);
    return machine;
  }

  /** The reference to the infrastructure machine of a Machine (or config) of that name. */
  static ContractVersionedObjectReference infrastructureMachineRef(
      OpenshiftAssistedControlPlane cp, String name) {
    ContractVersionedObjectReference template =
        cp.getSpec().machineTemplate.effectiveInfrastructureRef();
    return new ContractVersionedObjectReference(
        template.apiGroup, InfrastructureTemplates.machineKind(template.kind), name);
  }

  /** {@code count} fresh Machine names: the control plane's name and a random suffix. */
  static List<String> newNames(OpenshiftAssistedControlPlane cp, int count) {
    List<String> names = new ArrayList<>();
    for (int i = 0; i < count; i++) {
      names.add(newName(cp));
    }
    return names;
  }

  private static String newName(OpenshiftAssistedControlPlane cp) {
    return ObjectNames.fit(cp.getMetadata().getName(), 240) + "-" + randomSuffix();
  }

  private static String randomSuffix() {
    StringBuilder s = new StringBuilder();
    for (int i = 0; i < 5; i++) {
      s.append(ALPHABET.charAt(RANDOM.nextInt(ALPHABET.length())));
    }
    return s.toString();
  }

  @SuppressWarnings("unchecked")
  private static Map<String, Object> map(Object o) {
    return o instanceof Map<?, ?> m ? (Map<String, Object>) m : Map.of();
  }

  @SuppressWarnings("unchecked")
  private static Map<String, String> strings(Object o) {
    return o instanceof Map<?, ?> m ? (Map<String, String>) m : Map.of();
  }
}
