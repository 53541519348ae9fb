/**
 * The Machines phase ({@link io.openshiftagent.controlplane.machines.ControlPlaneMachines}): the
 * plan of one reconcile ({@link io.openshiftagent.controlplane.machines.MachineSteps}) from pure
 * decisions ({@link io.openshiftagent.controlplane.machines.Remediation}, {@link
 * io.openshiftagent.controlplane.machines.Rollout}, {@link
 * io.openshiftagent.controlplane.machines.MachineScaling}), applied with etcd checked first, and
 * what it found ({@link io.openshiftagent.controlplane.machines.MachinesReport}).
 */
package io.openshiftagent.controlplane.machines;
