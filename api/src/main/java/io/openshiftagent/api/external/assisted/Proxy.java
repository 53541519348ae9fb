package io.openshiftagent.api.external.assisted;

import com.fasterxml.jackson.annotation.JsonInclude;
import io.openshiftagent.api.external.UnknownFields;

/** Proxy settings of an InfraEnv (discovery) or AgentClusterInstall (installed cluster). */
@JsonInclude(JsonInclude.Include.NON_NULL)
public class Proxy extends UnknownFields {
  public String httpProxy;
  public String httpsProxy;

  /** Comma-separated domains and CIDRs. */
  public String noProxy;
}
