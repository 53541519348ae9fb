/**
 * The phases that describe the cluster to assisted-service ({@link
 * io.openshiftagent.controlplane.cluster.ClusterObjects}: ClusterImageSet, mirror manifests,
 * ClusterDeployment, AgentClusterInstall), publish its kubeconfig ({@link
 * io.openshiftagent.controlplane.cluster.Kubeconfig}) and notice an installation assisted-service
 * missed starting ({@link io.openshiftagent.controlplane.cluster.StalledInstallStart}). Each
 * returns what it found.
 */
package io.openshiftagent.controlplane.cluster;
