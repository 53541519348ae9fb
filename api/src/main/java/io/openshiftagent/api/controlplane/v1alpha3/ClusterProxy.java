package io.openshiftagent.api.controlplane.v1alpha3;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonInclude;
import io.fabric8.generator.annotation.Size;

/** Cluster-wide proxy of the installed cluster. */
@JsonInclude(JsonInclude.Include.NON_NULL)
@JsonIgnoreProperties(ignoreUnknown = true)
public class ClusterProxy {
  @Size(max = 2048)
  public String httpProxy;

  @Size(max = 2048)
  public String httpsProxy;

  @Size(max = 4096)
  public String noProxy;
}
