package io.openshiftagent.api.external.capi;

import io.fabric8.kubernetes.api.model.Namespaced;
import io.fabric8.kubernetes.client.CustomResource;
import io.fabric8.kubernetes.model.annotation.Group;
import io.fabric8.kubernetes.model.annotation.Version;
import io.openshiftagent.api.external.ExternalKinds;

/**
 * A Cluster API Machine: the control plane provider creates control plane Machines; both providers
 * read a Machine to find its bootstrap config, infrastructure machine and node.
 */
@Group(ExternalKinds.CAPI_GROUP)
@Version(ExternalKinds.CAPI_VERSION)
public class Machine extends CustomResource<MachineSpec, MachineStatus> implements Namespaced {}
