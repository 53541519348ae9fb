/**
 * Cluster API's in-place update Runtime Extension: Machines whose Kubernetes version OpenShift
 * updates in place are not replaced ({@link io.openshiftagent.controlplane.inplace.InPlaceHooks}).
 * A phase's floor: reads through the scope, names below.
 */
package io.openshiftagent.controlplane.inplace;
