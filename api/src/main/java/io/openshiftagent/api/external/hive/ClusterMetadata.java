package io.openshiftagent.api.external.hive;

import com.fasterxml.jackson.annotation.JsonInclude;
import io.fabric8.kubernetes.api.model.LocalObjectReference;
import io.openshiftagent.api.external.UnknownFields;

/**
 * Hive's ClusterMetadata, on a ClusterDeployment and an AgentClusterInstall once the cluster is
 * installed: the cluster IDs and the Secrets with the admin kubeconfig and password.
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public class ClusterMetadata extends UnknownFields {
  public String clusterID;
  public String infraID;

  /** Secret with key kubeconfig. */
  public LocalObjectReference adminKubeconfigSecretRef;

  /** Secret with keys username and password. */
  public LocalObjectReference adminPasswordSecretRef;
}
