/**
 * Observe: {@link io.openshiftagent.controlplane.scope.ControlPlaneScope}, the one place a
 * reconcile reads, from the caches and, when a phase asks, the hub's API server ({@link
 * io.openshiftagent.controlplane.scope.HubReads}) and the installed cluster ({@link
 * io.openshiftagent.controlplane.scope.InstalledCluster}). Below everything that decides, above the
 * names.
 */
package io.openshiftagent.controlplane.scope;
