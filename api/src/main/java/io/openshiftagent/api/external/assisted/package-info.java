/**
 * assisted-service: InfraEnv, Agent and NMStateConfig (agent-install.openshift.io/v1beta1) and
 * AgentClusterInstall (extensions.hive.openshift.io/v1beta1). Their conditions are OpenShift or
 * Hive conditions; the extra fields (lastHeartbeatTime, lastProbeTime) are kept by fabric8's
 * Condition.
 */
package io.openshiftagent.api.external.assisted;
