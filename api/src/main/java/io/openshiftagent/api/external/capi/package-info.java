/**
 * Cluster API core, cluster.x-k8s.io/v1beta2 (the storage version of CAPI v1.14): the Cluster,
 * Machine, MachineSet and MachineDeployment fields the providers read and patch.
 */
package io.openshiftagent.api.external.capi;
