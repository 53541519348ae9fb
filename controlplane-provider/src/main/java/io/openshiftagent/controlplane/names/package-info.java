/**
 * The bottom floor of the control-plane provider: the names and labels of what it makes and the
 * keys it reads ({@link io.openshiftagent.controlplane.names.Names}), and the conditions it reports
 * ({@link io.openshiftagent.controlplane.names.ControlPlaneConditions}, {@link
 * io.openshiftagent.controlplane.names.ConditionUpdate}). It depends on no other package of the
 * provider.
 */
package io.openshiftagent.controlplane.names;
