package io.openshiftagent.controlplane.release;

import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.Secret;
import io.openshiftagent.api.bootstrap.v1alpha2.OpenshiftAssistedConfigSpec;
import io.openshiftagent.api.bootstrap.v1alpha2.OpenshiftAssistedConfigTemplate;
import io.openshiftagent.api.common.LocalObjectReference;
import io.openshiftagent.api.controlplane.v1alpha3.OpenshiftAssistedControlPlane;
import io.openshiftagent.controlplane.scope.ControlPlaneScope;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Optional;
import java.util.function.Supplier;

/**
 * What the cluster's objects say of its release image, for {@link ReleaseImageResolution}: the pull
 * secret and mirrors are read only when a registry must be asked.
 *
 * @param requested the pull spec {@link ReleaseImage} gives
 * @param cpuArchitectures of the cluster's configs (control plane and workers)
 * @param pullSecret reads {@code spec.config.pullSecretRef}'s Secret (empty: none, or missing)
 * @param registryConfig reads {@code spec.config.imageRegistryRef}'s ConfigMap (same)
 */
public record ReleaseInputs(
    OpenshiftAssistedControlPlane cp,
    String requested,
    Collection<String> cpuArchitectures,
    Supplier<Optional<Secret>> pullSecret,
    Supplier<Optional<ConfigMap>> registryConfig) {

  /** What the scope holds: the release of {@code spec.distributionVersion} for its configs. */
  public static ReleaseInputs of(ControlPlaneScope scope) {
    OpenshiftAssistedControlPlane cp = scope.cp();
    List<String> architectures = architecturesOf(scope);
    return new ReleaseInputs(
        cp,
        ReleaseImage.of(
            cp, OpenShiftVersion.parse(cp.getSpec().distributionVersion), architectures),
        architectures,
        () ->
            named(cp.getSpec().config == null ? null : cp.getSpec().config.pullSecretRef)
                .flatMap(scope::secret),
        () ->
            named(cp.getSpec().config == null ? null : cp.getSpec().config.imageRegistryRef)
                .flatMap(scope::configMap));
  }

  private static Optional<String> named(LocalObjectReference ref) {
    return Optional.ofNullable(ref).map(r -> r.name);
  }

  /**
   * The {@code cpuArchitecture}s of every config of the cluster: the control plane's, and those of
   * the templates its MachineDeployments make workers from (unset: x86_64, the CRD's default).
   */
  static List<String> architecturesOf(ControlPlaneScope scope) {
    List<String> architectures = new ArrayList<>();
    architectures.add(architecture(scope.cp().getSpec().openshiftAssistedConfigSpec));
    for (OpenshiftAssistedConfigTemplate template : scope.workerConfigTemplates()) {
      var spec = template.getSpec();
      architectures.add(
          architecture(spec == null || spec.template == null ? null : spec.template.spec));
    }
    return architectures;
  }

  private static String architecture(OpenshiftAssistedConfigSpec spec) {
    return spec == null || spec.cpuArchitecture == null ? "x86_64" : spec.cpuArchitecture;
  }
}
