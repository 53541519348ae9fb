/**
 * Test only: a local world in which the real Cluster API core manager and our providers run against
 * real API servers, while small actors play Metal3, the hosts, assisted-service and the installed
 * OpenShift cluster through the same APIs the real systems use. Never shipped.
 */
package io.openshiftagent.simulator;
