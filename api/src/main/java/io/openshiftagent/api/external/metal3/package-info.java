/**
 * Metal3: CAPM3's Metal3Machine and Metal3MachineTemplate (infrastructure.cluster.x-k8s.io/v1beta2,
 * the storage version of CAPM3 v1.13) and baremetal-operator's BareMetalHost (metal3.io/v1alpha1).
 */
package io.openshiftagent.api.external.metal3;
