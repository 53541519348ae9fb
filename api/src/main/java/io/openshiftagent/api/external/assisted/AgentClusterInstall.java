package io.openshiftagent.api.external.assisted;

import io.fabric8.kubernetes.api.model.Namespaced;
import io.fabric8.kubernetes.client.CustomResource;
import io.fabric8.kubernetes.model.annotation.Group;
import io.fabric8.kubernetes.model.annotation.Version;
import io.openshiftagent.api.external.ExternalKinds;

/**
 * The install configuration of the OpenShift cluster: the control plane provider creates it from
 * its OpenshiftAssistedControlPlane and follows the installation through its status.
 */
@Group(ExternalKinds.HIVE_EXTENSION_GROUP)
@Version(ExternalKinds.HIVE_EXTENSION_VERSION)
public class AgentClusterInstall
    extends CustomResource<AgentClusterInstallSpec, AgentClusterInstallStatus>
    implements Namespaced {}
