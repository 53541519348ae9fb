/**
 * Test only: a local world in which the real Cluster API core manager, the real Metal3 (CAPM3, the
 * baremetal-operator) and our providers run against real API servers, while small actors play the
 * hosts, assisted-service and the installed OpenShift cluster through the same APIs the real
 * systems use. Never shipped.
 */
package io.openshiftagent.simulator;
