package io.openshiftagent.controlplane.machines;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.json.JsonMapper;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.openshiftagent.api.bootstrap.v1alpha2.OpenshiftAssistedConfig;
import io.openshiftagent.api.bootstrap.v1alpha2.OpenshiftAssistedConfigSpec;
import io.openshiftagent.api.common.ContractVersionedObjectReference;
import io.openshiftagent.api.controlplane.v1alpha3.OpenshiftAssistedControlPlane;
import io.openshiftagent.api.external.capi.Machine;
import io.openshiftagent.controlplane.scope.ControlPlaneScope;
import io.openshiftagent.provider.contract.ObjectNames;
import io.openshiftagent.provider.reconcile.Metadata;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;

/**
 * Whether a control-plane Machine still matches the spec: its OpenshiftAssistedConfig was made from
 * the current {@code spec.openshiftAssistedConfigSpec}, its infrastructure machine was cloned from
 * the current infrastructure template, and it was not made before {@code spec.rollout.after}. The
 * decision is pure ({@link #reasonNotUpToDate}); {@link #reasons} applies it to what the scope
 * holds.
 */
public final class UpToDate {
  /** Annotation on our OpenshiftAssistedConfigs: the hash of the spec they were made from. */
  public static final String CONFIG_HASH_ANNOTATION =
      "controlplane.cluster.x-k8s.io/openshift-assisted-config-hash";

  /** Cluster API's annotations on a clone: the template it was cloned from. */
  public static final String CLONED_FROM_NAME = "cluster.x-k8s.io/cloned-from-name";

  public static final String CLONED_FROM_GROUP_KIND = "cluster.x-k8s.io/cloned-from-groupkind";

  private static final ObjectMapper CANONICAL =
      JsonMapper.builder()
          .enable(SerializationFeature.ORDER_MAP_ENTRIES_BY_KEYS)
          .enable(com.fasterxml.jackson.databind.MapperFeature.SORT_PROPERTIES_ALPHABETICALLY)
          .build();

  private UpToDate() {}

  /** The hash recorded on a config made from {@code spec} (null spec: the empty spec). */
  public static String configHash(OpenshiftAssistedConfigSpec spec) {
    try {
      Object tree =
          CANONICAL.convertValue(
              spec == null ? new OpenshiftAssistedConfigSpec() : spec, Map.class);
      return ObjectNames.sha256(CANONICAL.writeValueAsString(tree)).substring(0, 16);
    } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
      throw new IllegalStateException(e);
    }
  }

  /**
   * Why the Machine is not up to date, or empty when it is.
   *
   * @param config the Machine's OpenshiftAssistedConfig (null when missing)
   * @param infraMachine the Machine's infrastructure machine (null when missing)
   */
  public static Optional<String> reasonNotUpToDate(
      HasMetadata config,
      HasMetadata infraMachine,
      String desiredConfigHash,
      ContractVersionedObjectReference desiredTemplate) {
    if (config != null && !desiredConfigHash.equals(configHashOf(config))) {
      return Optional.of(
          "its OpenshiftAssistedConfig differs from spec.openshiftAssistedConfigSpec");
    }
    if (infraMachine != null && desiredTemplate != null) {
      String name = Metadata.annotation(infraMachine, CLONED_FROM_NAME);
      String groupKind = Metadata.annotation(infraMachine, CLONED_FROM_GROUP_KIND);
      if (!desiredTemplate.name.equals(name)
          || !(desiredTemplate.kind + "." + desiredTemplate.apiGroup).equals(groupKind)) {
        return Optional.of(
            "its infrastructure machine was cloned from "
                + groupKind
                + "/"
                + name
                + ", not from "
                + desiredTemplate);
      }
    }
    return Optional.empty();
  }

  /**
   * The hash of the spec a config was made from: recorded by us; for a config without it (the Go
   * provider's, taken over) the hash of the spec it has, which is that spec as the API server
   * defaults it.
   */
  private static String configHashOf(HasMetadata config) {
    String recorded = Metadata.annotation(config, CONFIG_HASH_ANNOTATION);
    if (recorded != null || !(config instanceof OpenshiftAssistedConfig made)) {
      return recorded;
    }
    return configHash(made.getSpec());
  }

  /** Why each Machine does not match the spec (including spec.rollout.after), by name. */
  static Map<String, String> reasons(ControlPlaneScope scope) {
    OpenshiftAssistedControlPlane cp = scope.cp();
    String desiredHash = configHash(cp.getSpec().openshiftAssistedConfigSpec);
    ContractVersionedObjectReference template = scope.infrastructureTemplateRef();
    Map<String, String> notUpToDate = new LinkedHashMap<>();
    for (Machine machine : scope.machines()) {
      reasonNotUpToDate(
              scope.configs().get(ControlPlaneMachines.configName(machine)),
              infrastructureMachine(scope, machine),
              desiredHash,
              template)
          .or(() -> Rollout.rolloutAfter(cp.getSpec().rollout, machine, scope.now()))
          .ifPresent(r -> notUpToDate.put(Metadata.name(machine), r));
    }
    return notUpToDate;
  }

  /** What UpToDate reads of the Machine's infrastructure machine: its name and annotations. */
  private static HasMetadata infrastructureMachine(ControlPlaneScope scope, Machine machine) {
    ContractVersionedObjectReference ref =
        machine.getSpec() == null ? null : machine.getSpec().infrastructureRef;
    if (ref == null) {
      return null;
    }
    Map<String, String> annotations = scope.infrastructureMachineAnnotations(ref);
    if (annotations == null) {
      return null;
    }
    GenericKubernetesResource metadataOnly = new GenericKubernetesResource();
    metadataOnly.setMetadata(
        new ObjectMetaBuilder().withName(ref.name).withAnnotations(annotations).build());
    return metadataOnly;
  }
}
