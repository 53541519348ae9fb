package io.openshiftagent.api.external.hive;

import com.fasterxml.jackson.annotation.JsonInclude;
import io.fabric8.kubernetes.api.model.LabelSelector;
import io.fabric8.kubernetes.api.model.LocalObjectReference;
import io.openshiftagent.api.external.UnknownFields;

/** The ClusterDeployment spec: identity, platform, pull secret and install reference. */
@JsonInclude(JsonInclude.Include.NON_NULL)
public class ClusterDeploymentSpec extends UnknownFields {
  public String clusterName;

  public String baseDomain;

  public Platform platform;

  public LocalObjectReference pullSecretRef;

  /** The object that installs the cluster (for us, an AgentClusterInstall). */
  public ClusterInstallLocalReference clusterInstallRef;

  /** True once the cluster is installed (Go writes it even when false). */
  public Boolean installed;

  public ClusterMetadata clusterMetadata;

  /** The platform; we only use agentBareMetal. */
  @JsonInclude(JsonInclude.Include.NON_NULL)
  public static class Platform extends UnknownFields {
    public AgentBareMetal agentBareMetal;
  }

  /** The agent-based bare metal platform. */
  @JsonInclude(JsonInclude.Include.NON_NULL)
  public static class AgentBareMetal extends UnknownFields {
    /** Selects the Agents (and BareMetalHosts) of the cluster. */
    public LabelSelector agentSelector;
  }

  /** A reference to the install object by group, version, kind and name. */
  @JsonInclude(JsonInclude.Include.NON_NULL)
  public static class ClusterInstallLocalReference extends UnknownFields {
    public String group;
    public String version;
    public String kind;
    public String name;

    public ClusterInstallLocalReference() {}

    public ClusterInstallLocalReference(String group, String version, String kind, String name) {
      this.group = group;
      this.version = version;
      this.kind = kind;
      this.name = name;
    }
  }
}
