/**
 * The provider process: command line, logging, Kubernetes client, leader election with its fence,
 * probes and metrics, and the java-operator-sdk Operator each provider registers its controllers
 * on.
 */
package io.openshiftagent.provider.runtime;
