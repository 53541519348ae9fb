/**
 * Hive, hive.openshift.io/v1: the ClusterDeployment assisted-service installs through, and the
 * cluster-scoped ClusterImageSet naming the release image.
 */
package io.openshiftagent.api.external.hive;
