package io.openshiftagent.api.controlplane.v1alpha3;

import io.fabric8.crd.generator.annotation.AdditionalPrinterColumn;
import io.fabric8.crd.generator.annotation.Labels;
import io.fabric8.generator.annotation.ValidationRule;
import io.fabric8.kubernetes.api.model.Namespaced;
import io.fabric8.kubernetes.client.CustomResource;
import io.fabric8.kubernetes.model.annotation.Categories;
import io.fabric8.kubernetes.model.annotation.Group;
import io.fabric8.kubernetes.model.annotation.ShortNames;
import io.fabric8.kubernetes.model.annotation.Version;
import io.openshiftagent.api.common.Clusterctl;

/**
 * An OpenShift control plane installed by the assisted installer.
 *
 * <p>Once the cluster is installed (the control plane reports itself initialized), the fields that
 * went into the ClusterDeployment cannot change: Hive's admission freezes its spec, so the new
 * values could never reach the installed cluster. The rule sits on the whole object because only
 * there can it see the status.
 */
@Group(ControlPlaneGroup.GROUP)
@Version(ControlPlaneGroup.VERSION)
@ShortNames({"oacp", "oacps"})
@Categories({"cluster-api"})
@Labels({ControlPlaneGroup.CONTRACT_LABEL, Clusterctl.MOVE_HIERARCHY_LABEL})
@AdditionalPrinterColumn(
    name = "Cluster",
    jsonPath = ".metadata.labels['cluster\\.x-k8s\\.io/cluster-name']",
    type = AdditionalPrinterColumn.Type.STRING)
@AdditionalPrinterColumn(
    name = "Initialized",
    jsonPath = ".status.initialization.controlPlaneInitialized",
    type = AdditionalPrinterColumn.Type.BOOLEAN)
@AdditionalPrinterColumn(
    name = "Available",
    jsonPath = ".status.conditions[?(@.type==\"Available\")].status",
    type = AdditionalPrinterColumn.Type.STRING)
@AdditionalPrinterColumn(
    name = "Desired",
    jsonPath = ".spec.replicas",
    type = AdditionalPrinterColumn.Type.INTEGER,
    priority = 10)
@AdditionalPrinterColumn(
    name = "Replicas",
    jsonPath = ".status.replicas",
    type = AdditionalPrinterColumn.Type.INTEGER)
@AdditionalPrinterColumn(
    name = "Ready",
    jsonPath = ".status.readyReplicas",
    type = AdditionalPrinterColumn.Type.INTEGER)
@AdditionalPrinterColumn(
    name = "Up-To-Date",
    jsonPath = ".status.upToDateReplicas",
    type = AdditionalPrinterColumn.Type.INTEGER)
@AdditionalPrinterColumn(
    name = "Reason",
    jsonPath = ".status.conditions[?(@.type==\"Available\")].reason",
    type = AdditionalPrinterColumn.Type.STRING,
    priority = 10)
@AdditionalPrinterColumn(
    name = "Version",
    jsonPath = ".status.distributionVersion",
    type = AdditionalPrinterColumn.Type.STRING)
@AdditionalPrinterColumn(
    name = "Desired Version",
    jsonPath = ".spec.distributionVersion",
    type = AdditionalPrinterColumn.Type.STRING,
    priority = 10)
@AdditionalPrinterColumn(
    name = "Age",
    jsonPath = ".metadata.creationTimestamp",
    type = AdditionalPrinterColumn.Type.DATE)
@ValidationRule(
    value = OpenshiftAssistedControlPlane.CLUSTER_DEPLOYMENT_FROZEN_RULE,
    message =
        "spec.config.baseDomain, spec.config.clusterName and spec.config.pullSecretRef cannot change once"
            + " the cluster is installed (status.initialization.controlPlaneInitialized): Hive does not"
            + " let the ClusterDeployment change, so the installed cluster keeps the values it has",
    fieldPath = ".spec.config",
    reason = "FieldValueForbidden")
@ValidationRule(
    value = OpenshiftAssistedControlPlane.NO_DOWNGRADE_RULE,
    message =
        "spec.distributionVersion cannot be lowered once a release was resolved for this control"
            + " plane (status.releaseImage): OpenShift does not support downgrades",
    fieldPath = ".spec.distributionVersion",
    reason = "FieldValueForbidden")
public class OpenshiftAssistedControlPlane
    extends CustomResource<OpenshiftAssistedControlPlaneSpec, OpenshiftAssistedControlPlaneStatus>
    implements Namespaced {
  /**
   * A version no release was ever resolved for (a typo, a release not published yet) made nothing,
   * so it may be lowered; once one was, nothing goes below it.
   */
  static final String NO_DOWNGRADE_RULE =
      "!has(oldSelf.status) || !has(oldSelf.status.releaseImage)"
          + " || !isSemver(oldSelf.spec.distributionVersion)"
          + " || !isSemver(self.spec.distributionVersion)"
          + " || semver(self.spec.distributionVersion)"
          + ".compareTo(semver(oldSelf.spec.distributionVersion)) >= 0";

  static final String CLUSTER_DEPLOYMENT_FROZEN_RULE =
      "!has(oldSelf.status) || !has(oldSelf.status.initialization)"
          + " || !has(oldSelf.status.initialization.controlPlaneInitialized)"
          + " || !oldSelf.status.initialization.controlPlaneInitialized"
          + " || (self.spec.config.baseDomain == oldSelf.spec.config.baseDomain"
          + " && has(self.spec.config.clusterName) == has(oldSelf.spec.config.clusterName)"
          + " && (!has(self.spec.config.clusterName)"
          + " || self.spec.config.clusterName == oldSelf.spec.config.clusterName)"
          + " && has(self.spec.config.pullSecretRef) == has(oldSelf.spec.config.pullSecretRef)"
          + " && (!has(self.spec.config.pullSecretRef)"
          + " || self.spec.config.pullSecretRef == oldSelf.spec.config.pullSecretRef))";
}
