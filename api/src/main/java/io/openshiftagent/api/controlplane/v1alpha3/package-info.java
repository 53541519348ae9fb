/**
 * controlplane.cluster.x-k8s.io/v1alpha3: OpenshiftAssistedControlPlane and its ClusterClass
 * template, the Cluster API control plane that installs OpenShift through the assisted installer.
 */
package io.openshiftagent.api.controlplane.v1alpha3;
