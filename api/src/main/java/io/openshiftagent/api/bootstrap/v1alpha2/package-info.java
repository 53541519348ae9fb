/**
 * bootstrap.cluster.x-k8s.io/v1alpha2: OpenshiftAssistedConfig and OpenshiftAssistedConfigTemplate,
 * the Cluster API bootstrap configuration that turns a Machine into an assisted-service InfraEnv
 * and an approved Agent.
 */
package io.openshiftagent.api.bootstrap.v1alpha2;
