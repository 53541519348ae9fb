package io.openshiftagent.api.controlplane.v1alpha3;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import io.fabric8.generator.annotation.Required;
import io.fabric8.generator.annotation.ValidationRule;

/** Who runs the load balancer in front of the installed cluster's API and ingress. */
@JsonInclude(JsonInclude.Include.NON_NULL)
@JsonIgnoreProperties(ignoreUnknown = true)
public class LoadBalancer {
  public static final String CLUSTER_MANAGED = "ClusterManaged";
  public static final String USER_MANAGED = "UserManaged";

  @JsonPropertyDescription(
      "ClusterManaged: the cluster runs keepalived and haproxy for its VIPs (OpenShift's default)."
          + " UserManaged: the user's load balancer answers at apiVIPs and ingressVIPs (OpenShift 4.16 or"
          + " later, three or more control-plane nodes).")
  @Required
  @ValidationRule(
      value = "self in ['ClusterManaged', 'UserManaged']",
      message = "spec.config.loadBalancer.type must be ClusterManaged or UserManaged")
  public String type;

  public LoadBalancer() {}

  public LoadBalancer(String type) {
    this.type = type;
  }
}
