package io.openshiftagent.api.external.capi;

import io.fabric8.kubernetes.api.model.Namespaced;
import io.fabric8.kubernetes.client.CustomResource;
import io.fabric8.kubernetes.model.annotation.Group;
import io.fabric8.kubernetes.model.annotation.Version;
import io.openshiftagent.api.external.ExternalKinds;

/**
 * A Cluster API Cluster: we read its network, pause flag and references, and set its control plane
 * endpoint through our control plane's status.
 */
@Group(ExternalKinds.CAPI_GROUP)
@Version(ExternalKinds.CAPI_VERSION)
public class Cluster extends CustomResource<ClusterSpec, ClusterStatus> implements Namespaced {}
