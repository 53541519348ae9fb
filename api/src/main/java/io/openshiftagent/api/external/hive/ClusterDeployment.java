package io.openshiftagent.api.external.hive;

import io.fabric8.kubernetes.api.model.Namespaced;
import io.fabric8.kubernetes.client.CustomResource;
import io.fabric8.kubernetes.model.annotation.Group;
import io.fabric8.kubernetes.model.annotation.Version;
import io.openshiftagent.api.external.ExternalKinds;

/**
 * The Hive cluster the control plane provider creates for assisted-service: name, base domain, pull
 * secret and the AgentClusterInstall that installs it.
 */
@Group(ExternalKinds.HIVE_GROUP)
@Version(ExternalKinds.HIVE_VERSION)
public class ClusterDeployment
    extends CustomResource<ClusterDeploymentSpec, ClusterDeploymentStatus> implements Namespaced {}
