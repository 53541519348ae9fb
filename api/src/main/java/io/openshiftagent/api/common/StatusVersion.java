package io.openshiftagent.api.common;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import io.fabric8.generator.annotation.Max;
import io.fabric8.generator.annotation.Min;
import io.fabric8.generator.annotation.Required;
import io.fabric8.generator.annotation.Size;
import java.util.Objects;

/** Cluster API's StatusVersion (v1.14): how many replicas run a Kubernetes version. */
@JsonInclude(JsonInclude.Include.NON_NULL)
@JsonIgnoreProperties(ignoreUnknown = true)
public class StatusVersion {
  @JsonPropertyDescription("A Kubernetes version, as the kubelets report it.")
  @Required
  @Size(min = 1, max = 256)
  public String version;

  @JsonPropertyDescription("How many control-plane Machines run it.")
  @Min(1)
  @Max(Integer.MAX_VALUE)
  public Integer replicas;

  public StatusVersion() {}

  public StatusVersion(String version, int replicas) {
    this.version = version;
    this.replicas = replicas;
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof StatusVersion other
        && Objects.equals(version, other.version)
        && Objects.equals(replicas, other.replicas);
  }

  @Override
  public int hashCode() {
    return Objects.hash(version, replicas);
  }

  @Override
  public String toString() {
    return version + "×" + replicas;
  }
}
