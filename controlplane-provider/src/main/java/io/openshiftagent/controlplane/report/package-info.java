/**
 * The report step: the status a reconcile writes, built from what the phases returned ({@link
 * io.openshiftagent.controlplane.report.ControlPlaneReport}, {@link
 * io.openshiftagent.controlplane.report.Availability}), and the one status writer ({@link
 * io.openshiftagent.controlplane.report.StatusWriter}, which holds back a change of {@link
 * io.openshiftagent.controlplane.report.StatusDetails} only). Below the reconciler, above the
 * phases whose facts it reads.
 */
package io.openshiftagent.controlplane.report;
