package io.openshiftagent.api.external.assisted;

import io.fabric8.kubernetes.api.model.Namespaced;
import io.fabric8.kubernetes.client.CustomResource;
import io.fabric8.kubernetes.model.annotation.Group;
import io.fabric8.kubernetes.model.annotation.Version;
import io.openshiftagent.api.external.ExternalKinds;

/**
 * The discovery environment of a host: the bootstrap provider creates one per Machine from its
 * OpenshiftAssistedConfig and reads the ISO URL or discovery ignition URL from its status.
 */
@Group(ExternalKinds.AGENT_INSTALL_GROUP)
@Version(ExternalKinds.AGENT_INSTALL_VERSION)
public class InfraEnv extends CustomResource<InfraEnvSpec, InfraEnvStatus> implements Namespaced {}
