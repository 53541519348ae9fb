package io.openshiftagent.api.external.metal3;

import com.fasterxml.jackson.annotation.JsonInclude;
import io.fabric8.kubernetes.api.model.Condition;
import io.openshiftagent.api.external.UnknownFields;
import java.util.List;

/**
 * The Metal3Machine status (v1beta2): the provisioned flag of the Cluster API contract and the
 * conditions. v1beta2 has no {@code ready} field: {@code initialization.provisioned} replaces it.
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public class Metal3MachineStatus extends UnknownFields {
  public Initialization initialization;

  /** metav1 conditions (v1beta2). */
  public List<Condition> conditions;

  /** Cluster API contract flags. */
  @JsonInclude(JsonInclude.Include.NON_NULL)
  public static class Initialization extends UnknownFields {
    /** True once the host is provisioned with the image. */
    public Boolean provisioned;
  }
}
