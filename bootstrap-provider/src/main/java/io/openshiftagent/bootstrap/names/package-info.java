/**
 * The bottom floor of the bootstrap provider: the names, labels, annotations and condition reasons
 * the other packages, the control-plane provider and users rely on. It depends on no other package
 * of the provider.
 */
package io.openshiftagent.bootstrap.names;
