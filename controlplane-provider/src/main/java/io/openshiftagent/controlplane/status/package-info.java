/**
 * What the control plane reports: its conditions ({@link
 * io.openshiftagent.controlplane.status.ControlPlaneConditions}), the pure functions that decide
 * them ({@link io.openshiftagent.controlplane.status.Availability}, {@link
 * io.openshiftagent.controlplane.status.MachineStatus}), and the one status writer ({@link
 * io.openshiftagent.controlplane.status.ControlPlaneStatus}).
 */
package io.openshiftagent.controlplane.status;
