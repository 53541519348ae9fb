package io.openshiftagent.api.external.capi;

import io.fabric8.kubernetes.api.model.Namespaced;
import io.fabric8.kubernetes.client.CustomResource;
import io.fabric8.kubernetes.model.annotation.Group;
import io.fabric8.kubernetes.model.annotation.Version;
import io.openshiftagent.api.external.ExternalKinds;

/**
 * A Cluster API MachineDeployment: we read it to find the worker bootstrap template and replica
 * counts.
 */
@Group(ExternalKinds.CAPI_GROUP)
@Version(ExternalKinds.CAPI_VERSION)
public class MachineDeployment extends CustomResource<MachineReplicas.Spec, MachineReplicas.Status>
    implements Namespaced {}
