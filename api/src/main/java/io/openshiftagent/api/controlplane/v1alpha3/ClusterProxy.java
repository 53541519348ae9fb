package io.openshiftagent.api.controlplane.v1alpha3;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import io.fabric8.generator.annotation.Size;
import io.fabric8.generator.annotation.ValidationRule;

/**
 * Cluster-wide proxy of the installed cluster. Both proxies are http:// URLs: assisted-service
 * refuses any other scheme, https:// included, although OpenShift's install-config takes one.
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
@JsonIgnoreProperties(ignoreUnknown = true)
public class ClusterProxy {
  static final String HTTP_URL = "isURL(self) && url(self).getScheme() == 'http'";

  @Size(max = 2048)
  @JsonPropertyDescription("URL of the HTTP proxy: http://host:port.")
  @ValidationRule(
      value = HTTP_URL,
      message =
          "spec.config.proxy.httpProxy must be an http:// URL such as http://proxy.example.com:3128:"
              + " assisted-service takes no other scheme")
  public String httpProxy;

  @Size(max = 2048)
  @JsonPropertyDescription(
      "URL of the proxy for HTTPS connections, itself reached over HTTP: http://host:port.")
  @ValidationRule(
      value = HTTP_URL,
      message =
          "spec.config.proxy.httpsProxy must be an http:// URL such as http://proxy.example.com:3128:"
              + " assisted-service takes no other scheme, https:// included")
  public String httpsProxy;

  @Size(max = 4096)
  @JsonPropertyDescription("Comma-separated destinations that bypass the proxy.")
  public String noProxy;
}
