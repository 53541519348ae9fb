/**
 * Test-only support: one real kube-apiserver + etcd per test JVM (fabric8 kube-api-test, binaries
 * built by {@code hack/build-kube-binaries.sh}), with our CRDs and the upstream CRDs of Cluster
 * API, Metal3, assisted-service and Hive installed.
 */
package io.openshiftagent.testsupport;
