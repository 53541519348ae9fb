/**
 * What every reconciler of both providers uses to read, write and report: object metadata, owner
 * references, Cluster API pause, the Cluster's control plane, which watch events matter, the one
 * way to write ({@link io.openshiftagent.provider.reconcile.Writes}), refusals and Events.
 */
package io.openshiftagent.provider.reconcile;
