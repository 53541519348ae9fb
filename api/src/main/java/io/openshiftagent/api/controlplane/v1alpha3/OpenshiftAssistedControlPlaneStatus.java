package io.openshiftagent.api.controlplane.v1alpha3;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import io.fabric8.crdv2.generator.v1.SchemaCustomizer;
import io.fabric8.generator.annotation.Max;
import io.fabric8.generator.annotation.Min;
import io.fabric8.generator.annotation.Size;
import io.fabric8.kubernetes.api.model.Condition;
import io.fabric8.kubernetes.model.annotation.LabelSelector;
import io.fabric8.kubernetes.model.annotation.StatusReplicas;
import io.openshiftagent.api.common.ConditionsListMap;
import io.openshiftagent.api.common.ListMapKeys;
import io.openshiftagent.api.common.StatusVersion;
import java.util.List;

/** Status per the Cluster API v1beta2 control-plane contract. */
@JsonInclude(JsonInclude.Include.NON_NULL)
@JsonIgnoreProperties(ignoreUnknown = true)
@SchemaCustomizer(ConditionsListMap.class)
@SchemaCustomizer(value = ListMapKeys.class, input = "versions=version")
public class OpenshiftAssistedControlPlaneStatus {
  @JsonPropertyDescription(
      "Conditions: Available, Initialized, KubeconfigAvailable, MachinesReady, MachinesUpToDate, ScalingUp, ScalingDown, RollingOut, Remediating, EtcdClusterHealthy, Paused, Deleting and the upgrade conditions.")
  @Size(max = 32)
  public List<Condition> conditions;

  public Initialization initialization;

  @JsonPropertyDescription(
      "Label selector of the control-plane Machines, for the scale subresource.")
  @LabelSelector
  @Size(min = 1, max = 4096)
  public String selector;

  /** Control-plane Machines that exist. */
  @Min(0)
  @Max(Integer.MAX_VALUE)
  @StatusReplicas
  public Integer replicas;

  @JsonPropertyDescription("Control-plane Machines whose Ready condition is True.")
  @Min(0)
  @Max(Integer.MAX_VALUE)
  public Integer readyReplicas;

  @JsonPropertyDescription("Control-plane Machines whose Available condition is True.")
  @Min(0)
  @Max(Integer.MAX_VALUE)
  public Integer availableReplicas;

  @JsonPropertyDescription("Control-plane Machines that match the current spec.")
  @Min(0)
  @Max(Integer.MAX_VALUE)
  public Integer upToDateReplicas;

  @JsonPropertyDescription(
      "Kubernetes versions the control-plane Machines' kubelets run, oldest first, with how many run"
          + " each (Cluster API v1.14).")
  @Size(min = 1, max = 100)
  public List<StatusVersion> versions;

  @JsonPropertyDescription(
      "Kubernetes version the control-plane nodes run (the lowest, during an upgrade). Deprecated by"
          + " Cluster API in favour of versions.")
  @Size(min = 1, max = 256)
  public String version;

  @JsonPropertyDescription("OpenShift version the cluster runs.")
  @Size(min = 1, max = 256)
  public String distributionVersion;

  @Min(1)
  public Long observedGeneration;

  @JsonPropertyDescription("The remediation in progress, or the latest one.")
  public LastRemediation lastRemediation;

  @JsonPropertyDescription(
      "The release image handed to assisted-service (ClusterImageSet) and to the Cluster Version"
          + " Operator (upgrades), resolved to a digest. Kept until the requested image changes or"
          + " the annotation controlplane.cluster.x-k8s.io/resolve-release-image gets a new value.")
  public ReleaseImage releaseImage;

  /**
   * A release image as resolved: what was asked for, the digest written, and where it came from.
   */
  @JsonInclude(JsonInclude.Include.NON_NULL)
  @JsonIgnoreProperties(ignoreUnknown = true)
  public static class ReleaseImage {
    @JsonPropertyDescription(
        "The release image the spec asks for, by tag (e.g."
            + " quay.io/openshift-release-dev/ocp-release:4.20.0-x86_64), or the digest the user"
            + " pinned through the repository override annotation.")
    @Size(min = 1, max = 1024)
    public String requested;

    @JsonPropertyDescription(
        "What the ClusterImageSet and upgrade requests name: <repository>@sha256:<digest> of the"
            + " source repository (mirrors apply to it), or the tag when the annotation"
            + " controlplane.cluster.x-k8s.io/release-image-reference is tag.")
    @Size(min = 1, max = 1024)
    public String image;

    @JsonPropertyDescription(
        "The registry or mirror whose answer gave the digest, as asked (e.g."
            + " mirror.example:5000/ocp/release:4.20.0-x86_64); empty when nothing was asked.")
    @Size(max = 1024)
    public String resolvedFrom;

    @JsonPropertyDescription("When the digest was looked up (RFC 3339).")
    @Size(max = 64)
    public String resolvedAt;

    @JsonPropertyDescription(
        "The value of the annotation controlplane.cluster.x-k8s.io/resolve-release-image this"
            + " resolution answers: setting the annotation to another value looks the tag up again.")
    @Size(max = 256)
    public String resolveRequest;
  }

  /** Initialization flags read by Cluster API core. */
  @JsonInclude(JsonInclude.Include.NON_NULL)
  @JsonIgnoreProperties(ignoreUnknown = true)
  public static class Initialization {
    /**
     * True once the workload cluster's API server accepts requests (the kubeconfig Secret exists).
     */
    public Boolean controlPlaneInitialized;
  }
}
