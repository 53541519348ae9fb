package io.openshiftagent.api.bootstrap.v1alpha2;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonInclude;
import io.fabric8.crd.generator.annotation.AdditionalPrinterColumn;
import io.fabric8.crd.generator.annotation.Labels;
import io.fabric8.generator.annotation.Required;
import io.fabric8.kubernetes.api.model.Namespaced;
import io.fabric8.kubernetes.client.CustomResource;
import io.fabric8.kubernetes.model.annotation.Categories;
import io.fabric8.kubernetes.model.annotation.Group;
import io.fabric8.kubernetes.model.annotation.ShortNames;
import io.fabric8.kubernetes.model.annotation.Version;
import io.openshiftagent.api.common.Clusterctl;
import io.openshiftagent.api.common.ObjectMetaTemplate;

/** A template Cluster API clones into one OpenshiftAssistedConfig per worker Machine. */
@Group(BootstrapGroup.GROUP)
@Version(BootstrapGroup.VERSION)
@ShortNames({"oact"})
@Categories({"cluster-api"})
@Labels({BootstrapGroup.CONTRACT_LABEL, Clusterctl.MOVE_HIERARCHY_LABEL})
@AdditionalPrinterColumn(
    name = "Boot Mode",
    jsonPath = ".spec.template.spec.bootMode",
    type = AdditionalPrinterColumn.Type.STRING)
@AdditionalPrinterColumn(
    name = "Age",
    jsonPath = ".metadata.creationTimestamp",
    type = AdditionalPrinterColumn.Type.DATE)
public class OpenshiftAssistedConfigTemplate
    extends CustomResource<OpenshiftAssistedConfigTemplate.Spec, Void> implements Namespaced {

  /** The template. */
  @JsonInclude(JsonInclude.Include.NON_NULL)
  @JsonIgnoreProperties(ignoreUnknown = true)
  public static class Spec {
    @Required public Resource template;
  }

  /** What each cloned config gets. */
  @JsonInclude(JsonInclude.Include.NON_NULL)
  @JsonIgnoreProperties(ignoreUnknown = true)
  public static class Resource {
    public ObjectMetaTemplate metadata;
    @Required public OpenshiftAssistedConfigSpec spec;
  }
}
