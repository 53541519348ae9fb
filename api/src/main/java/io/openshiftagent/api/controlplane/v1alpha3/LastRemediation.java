package io.openshiftagent.api.controlplane.v1alpha3;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import io.fabric8.crdv2.generator.v1.SchemaCustomizer;
import io.fabric8.generator.annotation.Max;
import io.fabric8.generator.annotation.Min;
import io.fabric8.generator.annotation.Required;
import io.fabric8.generator.annotation.Size;
import io.openshiftagent.api.common.StringFormats;
import java.util.Objects;

/** The remediation in progress, or the latest one (Cluster API's LastRemediationStatus). */
@JsonInclude(JsonInclude.Include.NON_NULL)
@JsonIgnoreProperties(ignoreUnknown = true)
@SchemaCustomizer(value = StringFormats.class, input = "time=date-time")
public class LastRemediation {
  @JsonPropertyDescription("The Machine remediated.")
  @Required
  @Size(min = 1, max = 253)
  public String machine;

  @JsonPropertyDescription("When it was remediated (RFC 3339, UTC).")
  @Required
  public String time;

  @JsonPropertyDescription(
      "How many times in a row a replacement of that Machine was remediated again.")
  @Required
  @Min(0)
  @Max(Integer.MAX_VALUE)
  public Integer retryCount;

  public LastRemediation() {}

  public LastRemediation(String machine, String time, int retryCount) {
    this.machine = machine;
    this.time = time;
    this.retryCount = retryCount;
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof LastRemediation other
        && Objects.equals(machine, other.machine)
        && Objects.equals(time, other.time)
        && Objects.equals(retryCount, other.retryCount);
  }

  @Override
  public int hashCode() {
    return Objects.hash(machine, time, retryCount);
  }
}
