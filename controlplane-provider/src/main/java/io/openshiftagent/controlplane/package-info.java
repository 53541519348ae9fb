/**
 * The control-plane provider's top floor: the process ({@link
 * io.openshiftagent.controlplane.ControlPlaneProvider}) and the reconciler ({@link
 * io.openshiftagent.controlplane.OpenshiftAssistedControlPlaneReconciler}), which observes, runs
 * the phases ({@code release}, {@code cluster}, {@code machines}, {@code upgrade}), reports ({@code
 * report}) and keeps what it remembers between reconciles ({@link
 * io.openshiftagent.controlplane.Memory}). Nothing below depends on it.
 */
package io.openshiftagent.controlplane;
