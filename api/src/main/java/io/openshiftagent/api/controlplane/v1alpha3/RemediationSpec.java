package io.openshiftagent.api.controlplane.v1alpha3;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import io.fabric8.generator.annotation.Max;
import io.fabric8.generator.annotation.Min;

/**
 * How unhealthy control-plane Machines are replaced: Cluster API's KubeadmControlPlane remediation
 * settings, with the same meaning. A Machine a MachineHealthCheck marks ({@code OwnerRemediated})
 * is remediated whether or not this is set; these settings only bound the retries.
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
@JsonIgnoreProperties(ignoreUnknown = true)
public class RemediationSpec {
  /** Without minHealthyPeriodSeconds, a failure within an hour of a remediation is a retry. */
  public static final int DEFAULT_MIN_HEALTHY_PERIOD_SECONDS = 3600;

  @JsonPropertyDescription(
      "How many times the replacement of a remediated Machine (and its replacement, and so on) may"
          + " itself be remediated within minHealthyPeriodSeconds. Unset: no limit.")
  @Min(0)
  @Max(Integer.MAX_VALUE)
  public Integer maxRetry;

  @JsonPropertyDescription(
      "How long to wait after a remediation before remediating its replacement (a retry). Unset: 0.")
  @Min(0)
  @Max(Integer.MAX_VALUE)
  public Integer retryPeriodSeconds;

  @JsonPropertyDescription(
      "How long a replacement must stay healthy for a later failure to count as unrelated (not a"
          + " retry). Unset: 3600.")
  @Min(0)
  @Max(Integer.MAX_VALUE)
  public Integer minHealthyPeriodSeconds;

  public int effectiveMinHealthyPeriodSeconds() {
    return minHealthyPeriodSeconds == null
        ? DEFAULT_MIN_HEALTHY_PERIOD_SECONDS
        : minHealthyPeriodSeconds;
  }

  public int effectiveRetryPeriodSeconds() {
    return retryPeriodSeconds == null ? 0 : retryPeriodSeconds;
  }
}
