package io.openshiftagent.controlplane.cluster;

import io.fabric8.kubernetes.client.utils.Serialization;
import io.openshiftagent.api.external.OwnedFieldsPatch;
import io.openshiftagent.api.external.hive.ClusterDeploymentSpec;
import io.openshiftagent.api.external.hive.ClusterDeploymentSpec.ClusterInstallLocalReference;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * How an existing ClusterDeployment differs from what the spec asks: its cluster name, base domain,
 * pull secret and install reference. Before the installation starts the differences are patched
 * (assisted-service follows them); after it, Hive does not let them change (its admission freezes
 * the ClusterDeployment's spec), so they are only reported.
 *
 * @param patch the owned fields that differ, as a patch
 * @param differences each difference, as the user wrote the field: {@code spec.config.baseDomain is
 *     b.example.com, the ClusterDeployment has a.example.com}
 */
public record ClusterDeploymentChanges(OwnedFieldsPatch patch, List<String> differences) {

  /** The ClusterDeployment fields the spec decides. */
  public record Desired(
      String clusterName,
      String baseDomain,
      String pullSecretName,
      ClusterInstallLocalReference installRef) {}

  public static ClusterDeploymentChanges of(ClusterDeploymentSpec current, Desired desired) {
    ClusterDeploymentSpec spec = current == null ? new ClusterDeploymentSpec() : current;
    OwnedFieldsPatch patch = new OwnedFieldsPatch();
    List<String> differences = new ArrayList<>();
    if (!Objects.equals(spec.clusterName, desired.clusterName())) {
      patch.set(desired.clusterName(), "spec", "clusterName");
      differences.add(
          difference("spec.config.clusterName", desired.clusterName(), spec.clusterName));
    }
    if (!Objects.equals(spec.baseDomain, desired.baseDomain())) {
      patch.set(desired.baseDomain(), "spec", "baseDomain");
      differences.add(difference("spec.config.baseDomain", desired.baseDomain(), spec.baseDomain));
    }
    String pullSecret = spec.pullSecretRef == null ? null : spec.pullSecretRef.getName();
    if (!Objects.equals(pullSecret, desired.pullSecretName())) {
      patch.set(Map.of("name", desired.pullSecretName()), "spec", "pullSecretRef");
      differences.add(
          difference("spec.config.pullSecretRef.name", desired.pullSecretName(), pullSecret));
    }
    if (!sameInstallRef(spec.clusterInstallRef, desired.installRef())) {
      // Ours alone: the user never writes it, so it is not a difference to report.
      patch.set(
          Serialization.jsonMapper().convertValue(desired.installRef(), Map.class),
          "spec",
          "clusterInstallRef");
    }
    return new ClusterDeploymentChanges(patch, List.copyOf(differences));
  }

  private static String difference(String field, String wanted, String kept) {
    return field + " is " + wanted + ", the ClusterDeployment has " + kept;
  }

  private static boolean sameInstallRef(
      ClusterInstallLocalReference a, ClusterInstallLocalReference b) {
    return a != null
        && Objects.equals(a.group, b.group)
        && Objects.equals(a.version, b.version)
        && Objects.equals(a.kind, b.kind)
        && Objects.equals(a.name, b.name);
  }
}
