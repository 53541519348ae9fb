/**
 * What both providers share and is not API: the java-operator-sdk wiring, Cluster API pause, owner
 * references and Kubernetes Events.
 */
package io.openshiftagent.provider;
