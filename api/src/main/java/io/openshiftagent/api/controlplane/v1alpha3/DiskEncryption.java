package io.openshiftagent.api.controlplane.v1alpha3;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import io.fabric8.generator.annotation.Default;
import io.fabric8.generator.annotation.Size;
import io.fabric8.generator.annotation.ValidationRule;

/** Disk encryption of the installed nodes (AgentClusterInstall diskEncryption). */
@JsonInclude(JsonInclude.Include.NON_NULL)
@JsonIgnoreProperties(ignoreUnknown = true)
public class DiskEncryption {
  /** Which nodes: none, all, masters, arbiters, workers, or a comma-separated combination. */
  @Default("none")
  @Size(max = 64)
  @ValidationRule(
      value =
          "self.matches('^(none|all|(masters|arbiters|workers)(,(masters|arbiters|workers))*)$')",
      message =
          "spec.config.diskEncryption.enableOn must be none, all, or a comma-separated list of masters,"
              + " arbiters, workers")
  public String enableOn;

  /** tpmv2 or tang. */
  @ValidationRule(
      value = "self in ['tpmv2', 'tang']",
      message = "spec.config.diskEncryption.mode must be tpmv2 or tang")
  @Size(max = 8)
  public String mode;

  @JsonPropertyDescription("JSON list of Tang servers when mode is tang.")
  @Size(max = 65536)
  public String tangServers;
}
