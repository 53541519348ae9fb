package io.openshiftagent.api.external.metal3;

import com.fasterxml.jackson.annotation.JsonInclude;
import io.fabric8.kubernetes.api.model.Condition;
import io.fabric8.kubernetes.api.model.SecretReference;
import io.openshiftagent.api.external.UnknownFields;
import java.util.List;

/**
 * The Metal3Machine status (v1beta2): the provisioned flag of the Cluster API contract and the
 * conditions. v1beta2 has no {@code ready} field: {@code initialization.provisioned} replaces it.
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public class Metal3MachineStatus extends UnknownFields {
  public Initialization initialization;

  /**
   * The Secret with the metadata CAPM3 rendered from the Metal3DataTemplate (key {@code metaData},
   * a YAML map), which the baremetal-operator puts on the host's config drive; unset without one.
   */
  public SecretReference metaData;

  /** metav1 conditions (v1beta2). */
  public List<Condition> conditions;

  /** Cluster API contract flags. */
  @JsonInclude(JsonInclude.Include.NON_NULL)
  public static class Initialization extends UnknownFields {
    /** True once the host is provisioned with the image. */
    public Boolean provisioned;
  }
}
