package io.openshiftagent.api.external.assisted;

import com.fasterxml.jackson.annotation.JsonInclude;
import io.fabric8.kubernetes.api.model.LabelSelector;
import io.fabric8.kubernetes.api.model.LocalObjectReference;
import io.openshiftagent.api.external.UnknownFields;
import java.util.List;
import java.util.Map;

/** The InfraEnv spec: what goes into the discovery image. */
@JsonInclude(JsonInclude.Include.NON_NULL)
public class InfraEnvSpec extends UnknownFields {
  /** The ClusterDeployment the discovered Agents are bound to (late binding when absent). */
  public ClusterReference clusterRef;

  /** Secret with key .dockerconfigjson (required by the CRD). */
  public LocalObjectReference pullSecretRef;

  public Proxy proxy;

  public List<String> additionalNTPSources;

  public String sshAuthorizedKey;

  /** Selects the NMStateConfigs whose static network configuration goes into the image. */
  public LabelSelector nmStateConfigLabelSelector;

  /** x86_64 (default), aarch64, arm64, ppc64le or s390x. */
  public String cpuArchitecture;

  /** PEM CA bundle trusted by the discovery environment and the installed cluster. */
  public String additionalTrustBundle;

  public String osImageVersion;

  /** JSON ignition merged into the discovery ignition. */
  public String ignitionConfigOverride;

  /** full-iso or minimal-iso. */
  public String imageType;

  public List<KernelArgument> kernelArguments;

  /** Labels assisted-service puts on the Agents discovered through this InfraEnv. */
  public Map<String, String> agentLabels;
}
