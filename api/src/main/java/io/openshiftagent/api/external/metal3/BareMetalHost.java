package io.openshiftagent.api.external.metal3;

import io.fabric8.kubernetes.api.model.Namespaced;
import io.fabric8.kubernetes.client.CustomResource;
import io.fabric8.kubernetes.model.annotation.Group;
import io.fabric8.kubernetes.model.annotation.Version;
import io.openshiftagent.api.external.ExternalKinds;

/**
 * A baremetal-operator host: we read its provisioning state, power state and consumer, to follow a
 * Metal3Machine's host through discovery and installation.
 */
@Group(ExternalKinds.METAL3_GROUP)
@Version(ExternalKinds.METAL3_VERSION)
public class BareMetalHost extends CustomResource<BareMetalHostSpec, BareMetalHostStatus>
    implements Namespaced {}
