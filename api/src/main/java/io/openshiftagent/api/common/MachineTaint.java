package io.openshiftagent.api.common;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import io.fabric8.generator.annotation.Pattern;
import io.fabric8.generator.annotation.Required;
import io.fabric8.generator.annotation.Size;
import io.fabric8.generator.annotation.ValidationRule;
import java.util.Objects;

/**
 * Cluster API's MachineTaint (v1.13): a taint Cluster API keeps on the Machine's Node. The key
 * rules are those of Cluster API's Machine webhook, so that a taint admitted here is not refused on
 * the Machines it is copied to.
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
@JsonIgnoreProperties(ignoreUnknown = true)
@ValidationRule(
    value =
        "!(self.key in ['node.cluster.x-k8s.io/uninitialized', 'node.cluster.x-k8s.io/outdated-revision',"
            + " 'node-role.kubernetes.io/master'])"
            + " && (!self.key.startsWith('node.kubernetes.io/') || self.key == 'node.kubernetes.io/out-of-service')"
            + " && !self.key.startsWith('node.cloudprovider.kubernetes.io/')",
    message =
        "the taint key is reserved: node.cluster.x-k8s.io/uninitialized and"
            + " node.cluster.x-k8s.io/outdated-revision belong to Cluster API, node.kubernetes.io/* (except"
            + " node.kubernetes.io/out-of-service) to the node lifecycle, node.cloudprovider.kubernetes.io/* to"
            + " cloud providers, and node-role.kubernetes.io/master is deprecated")
public class MachineTaint {
  @JsonPropertyDescription(
      "The taint key: a qualified name (up to 63 characters) with an optional DNS subdomain prefix.")
  @Required
  @Size(min = 1, max = 317)
  @Pattern(
      "^([a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*\\/)?([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]$")
  public String key;

  @JsonPropertyDescription("The taint value, a label value.")
  @Size(min = 1, max = 63)
  @Pattern("^(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?$")
  public String value;

  @JsonPropertyDescription("NoSchedule, PreferNoSchedule or NoExecute.")
  @Required
  public Effect effect;

  @JsonPropertyDescription(
      "Always: kept on the Node; OnInitialization: set when the Node joins, then left alone.")
  @Required
  public Propagation propagation;

  /** A taint's effect. */
  public enum Effect {
    NoSchedule,
    PreferNoSchedule,
    NoExecute
  }

  /** When Cluster API puts the taint on the Node. */
  public enum Propagation {
    Always,
    OnInitialization
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof MachineTaint other
        && Objects.equals(key, other.key)
        && Objects.equals(value, other.value)
        && effect == other.effect
        && propagation == other.propagation;
  }

  @Override
  public int hashCode() {
    return Objects.hash(key, value, effect, propagation);
  }
}
