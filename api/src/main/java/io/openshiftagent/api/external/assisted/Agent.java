package io.openshiftagent.api.external.assisted;

import io.fabric8.kubernetes.api.model.Namespaced;
import io.fabric8.kubernetes.client.CustomResource;
import io.fabric8.kubernetes.model.annotation.Group;
import io.fabric8.kubernetes.model.annotation.Version;
import io.openshiftagent.api.external.ExternalKinds;

/**
 * A host that registered with assisted-service: the providers match it to its Machine, approve it,
 * bind it to the cluster and follow its installation.
 */
@Group(ExternalKinds.AGENT_INSTALL_GROUP)
@Version(ExternalKinds.AGENT_INSTALL_VERSION)
public class Agent extends CustomResource<AgentSpec, AgentStatus> implements Namespaced {}
