package io.openshiftagent.api.external.metal3;

import io.fabric8.kubernetes.api.model.Namespaced;
import io.fabric8.kubernetes.client.CustomResource;
import io.fabric8.kubernetes.model.annotation.Group;
import io.fabric8.kubernetes.model.annotation.Version;
import io.openshiftagent.api.external.ExternalKinds;

/**
 * CAPM3's infrastructure machine: we set its image (the discovery live ISO, or a disk image with
 * the discovery ignition as user data) and read which BareMetalHost it claimed.
 */
@Group(ExternalKinds.INFRASTRUCTURE_GROUP)
@Version(ExternalKinds.METAL3_INFRASTRUCTURE_VERSION)
public class Metal3Machine extends CustomResource<Metal3MachineSpec, Metal3MachineStatus>
    implements Namespaced {}
