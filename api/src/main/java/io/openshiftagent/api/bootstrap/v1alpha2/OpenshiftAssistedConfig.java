package io.openshiftagent.api.bootstrap.v1alpha2;

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

/** The bootstrap configuration of one Machine. */
@Group(BootstrapGroup.GROUP)
@Version(BootstrapGroup.VERSION)
@ShortNames({"oac", "oacs"})
@Categories({"cluster-api"})
@Labels({BootstrapGroup.CONTRACT_LABEL, Clusterctl.MOVE_HIERARCHY_LABEL})
@AdditionalPrinterColumn(
    name = "Cluster",
    jsonPath = ".metadata.labels['cluster\\.x-k8s\\.io/cluster-name']",
    type = AdditionalPrinterColumn.Type.STRING)
@AdditionalPrinterColumn(
    name = "Boot Mode",
    jsonPath = ".spec.bootMode",
    type = AdditionalPrinterColumn.Type.STRING)
@AdditionalPrinterColumn(
    name = "Data Secret",
    jsonPath = ".status.initialization.dataSecretCreated",
    type = AdditionalPrinterColumn.Type.BOOLEAN)
@AdditionalPrinterColumn(
    name = "Ready",
    jsonPath = ".status.conditions[?(@.type==\"Ready\")].status",
    type = AdditionalPrinterColumn.Type.STRING)
@AdditionalPrinterColumn(
    name = "Reason",
    jsonPath = ".status.conditions[?(@.type==\"Ready\")].reason",
    type = AdditionalPrinterColumn.Type.STRING)
@AdditionalPrinterColumn(
    name = "Age",
    jsonPath = ".metadata.creationTimestamp",
    type = AdditionalPrinterColumn.Type.DATE)
public class OpenshiftAssistedConfig
    extends CustomResource<OpenshiftAssistedConfigSpec, OpenshiftAssistedConfigStatus>
    implements Namespaced {

  /**
   * The spec is fixed once created: a changed config means a new Machine (Cluster API convention).
   */
  @Override
  @ValidationRule(
      value = "self == oldSelf",
      message =
          "spec is immutable: create a new OpenshiftAssistedConfig (for example through a new"
              + " template) instead of editing this one")
  public OpenshiftAssistedConfigSpec getSpec() {
    return super.getSpec();
  }
}
