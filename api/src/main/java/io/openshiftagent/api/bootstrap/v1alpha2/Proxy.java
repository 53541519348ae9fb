package io.openshiftagent.api.bootstrap.v1alpha2;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonInclude;
import io.fabric8.generator.annotation.Size;

/** The proxy the discovery agent uses (assisted-service InfraEnv proxy). */
@JsonInclude(JsonInclude.Include.NON_NULL)
@JsonIgnoreProperties(ignoreUnknown = true)
public class Proxy {
  @Size(max = 2048)
  public String httpProxy;

  @Size(max = 2048)
  public String httpsProxy;

  @Size(max = 4096)
  public String noProxy;
}
