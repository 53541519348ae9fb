package io.openshiftagent.api.controlplane.v1alpha3;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import io.fabric8.generator.annotation.Required;
import io.fabric8.generator.annotation.Size;
import io.fabric8.generator.annotation.ValidationRule;
import io.fabric8.kubernetes.model.annotation.SpecReplicas;
import io.openshiftagent.api.bootstrap.v1alpha2.OpenshiftAssistedConfigSpec;

/** The desired OpenShift control plane. */
@JsonInclude(JsonInclude.Include.NON_NULL)
@JsonIgnoreProperties(ignoreUnknown = true)
@ValidationRule(
    value =
        "!has(self.version) || !isSemver(self.distributionVersion) || semver(self.distributionVersion).major() != 4"
            + " || (isSemver(self.version, true) && semver(self.version, true).major() == 1"
            + " && semver(self.version, true).minor() == semver(self.distributionVersion).minor() + 13)",
    message =
        "spec.version must be the Kubernetes version of spec.distributionVersion: OpenShift 4.N runs"
            + " Kubernetes 1.(N+13), for example 4.20 runs v1.33")
@ValidationRule(
    value =
        "!has(self.rollout) || !has(self.rollout.strategy) || self.rollout.strategy.type != 'RollingUpdate'"
            + " || (has(self.replicas) && self.replicas >= 3)",
    message =
        "spec.rollout.strategy.type RollingUpdate needs spec.replicas of 3 or more: a single-node cluster"
            + " cannot be replaced host by host (maxSurge 0 would delete its only node, maxSurge 1 would add a"
            + " second control-plane node, which single-node OpenShift does not support); use OnDelete")
@ValidationRule(
    value = "!has(self.remediation) || (has(self.replicas) && self.replicas >= 3)",
    message =
        "spec.remediation needs spec.replicas of 3 or more: remediating the only Machine of a single-node"
            + " cluster would delete its only etcd member")
@ValidationRule(
    value =
        "!has(self.config) || !has(self.config.loadBalancer) || self.config.loadBalancer.type != 'UserManaged'"
            + " || (has(self.replicas) && self.replicas >= 3)",
    message =
        "spec.config.loadBalancer.type UserManaged needs spec.replicas of 3 or more: single-node OpenShift"
            + " has no load balancer")
public class OpenshiftAssistedControlPlaneSpec {
  /** An OpenShift version the provider supports; the template checks it too. */
  static final String DISTRIBUTION_VERSION_RULE =
      "isSemver(self) && (semver(self).major() > 4 || (semver(self).major() == 4 && semver(self).minor() >= 14))";

  static final String DISTRIBUTION_VERSION_MESSAGE =
      "spec.distributionVersion must be an OpenShift version 4.14 or later in the form X.Y.Z, optionally"
          + " with a pre-release such as -ec.1 or -okd-scos.1";

  /** Version numbers the providers can hold (semver allows 64 bits). */
  static final String DISTRIBUTION_VERSION_NUMBERS_RULE =
      "!isSemver(self) || (semver(self).major() <= 2147483647 && semver(self).minor() <= 2147483647"
          + " && semver(self).patch() <= 2147483647)";

  static final String DISTRIBUTION_VERSION_NUMBERS_MESSAGE =
      "spec.distributionVersion: X, Y and Z may be at most 2147483647";

  /** The OpenShift release the cluster runs; the earliest supported is 4.14. */
  @JsonPropertyDescription(
      "OpenShift (or OKD) version of the cluster, for example 4.20.0 or 4.19.0-okd-scos.ec.6. At least 4.14;"
          + " raising it upgrades the cluster; lowering it is refused once a release was resolved for"
          + " it (status.releaseImage).")
  @Required
  @Size(min = 1, max = 64)
  @ValidationRule(value = DISTRIBUTION_VERSION_RULE, message = DISTRIBUTION_VERSION_MESSAGE)
  // Found by BadInputReconcileTest: 4.14.4294967296 was admitted and the provider could not read
  // it.
  @ValidationRule(
      value = DISTRIBUTION_VERSION_NUMBERS_RULE,
      message = DISTRIBUTION_VERSION_NUMBERS_MESSAGE)
  public String distributionVersion;

  @JsonPropertyDescription(
      "Kubernetes version matching distributionVersion (set by ClusterClass from the topology version)."
          + " Informational: distributionVersion decides what is installed.")
  @Size(max = 64)
  public String version;

  @JsonPropertyDescription(
      "Number of control-plane Machines: 1 (single-node OpenShift) or 3, 4 or 5 (highly available).")
  @SpecReplicas
  @ValidationRule(
      value = "self == 1 || (self >= 3 && self <= 5)",
      message = "spec.replicas must be 1 (single-node OpenShift) or 3, 4 or 5 (highly available)")
  public Integer replicas;

  @JsonPropertyDescription("How control-plane Machines are made.")
  @Required
  public ControlPlaneMachineTemplate machineTemplate;

  @JsonPropertyDescription("Bootstrap configuration of each control-plane Machine.")
  public OpenshiftAssistedConfigSpec openshiftAssistedConfigSpec;

  @JsonPropertyDescription("Cluster-wide OpenShift settings.")
  @Required
  public ClusterConfig config;

  @JsonPropertyDescription(
      "How control-plane Machines that no longer match the spec are replaced (OnDelete when unset).")
  public RolloutSpec rollout;

  @JsonPropertyDescription(
      "Limits on replacing control-plane Machines a MachineHealthCheck marks unhealthy (highly"
          + " available control planes only).")
  public RemediationSpec remediation;

  /**
   * Desired control-plane Machines; one when unset, as Cluster API's own control planes default.
   */
  public int desiredReplicas() {
    return replicas == null ? 1 : replicas;
  }
}
