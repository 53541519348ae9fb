package io.openshiftagent.api.bootstrap.v1alpha2;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import io.fabric8.crdv2.generator.v1.SchemaCustomizer;
import io.fabric8.generator.annotation.Min;
import io.fabric8.generator.annotation.Size;
import io.fabric8.kubernetes.api.model.Condition;
import io.openshiftagent.api.common.ConditionsListMap;
import java.util.List;

/** Status per the Cluster API v1beta2 bootstrap contract. */
@JsonInclude(JsonInclude.Include.NON_NULL)
@JsonIgnoreProperties(ignoreUnknown = true)
@SchemaCustomizer(ConditionsListMap.class)
public class OpenshiftAssistedConfigStatus {
  @JsonPropertyDescription("Conditions: Ready, DataSecretAvailable, Paused.")
  @Size(max = 32)
  public List<Condition> conditions;

  public Initialization initialization;

  @JsonPropertyDescription("Name of the bootstrap data Secret.")
  @Size(min = 1, max = 253)
  public String dataSecretName;

  @Min(1)
  public Long observedGeneration;

  /** Initialization flags read by Cluster API core. */
  @JsonInclude(JsonInclude.Include.NON_NULL)
  @JsonIgnoreProperties(ignoreUnknown = true)
  public static class Initialization {
    @JsonPropertyDescription(
        "True once the bootstrap data Secret exists and the Machine may be provisioned.")
    public Boolean dataSecretCreated;
  }
}
