package io.openshiftagent.api.controlplane.v1alpha3;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import io.fabric8.generator.annotation.Size;

/** Cluster-wide proxy of the installed cluster. */
@JsonInclude(JsonInclude.Include.NON_NULL)
@JsonIgnoreProperties(ignoreUnknown = true)
public class ClusterProxy {
  @Size(max = 2048)
  @JsonPropertyDescription("URL of the HTTP proxy.")
  public String httpProxy;

  @Size(max = 2048)
  @JsonPropertyDescription("URL of the HTTPS proxy.")
  public String httpsProxy;

  @Size(max = 4096)
  @JsonPropertyDescription("Comma-separated destinations that bypass the proxy.")
  public String noProxy;
}
