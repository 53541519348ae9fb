/**
 * What the control plane reports: its conditions ({@link
 * io.openshiftagent.controlplane.names.ControlPlaneConditions}), the pure functions that decide
 * them ({@link io.openshiftagent.controlplane.report.Availability}, {@link
 * io.openshiftagent.controlplane.machines.MachineStatus}), and the one status writer ({@link
 * io.openshiftagent.controlplane.report.ControlPlaneStatus}).
 */
package io.openshiftagent.controlplane.report;
