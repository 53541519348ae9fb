/**
 * Who a host becomes in its cluster: the node name, labels and provider ID that {@code
 * spec.nodeRegistration} asks for, with their {@code $METADATA_*} references resolved as the host
 * would resolve them from its config drive ({@link
 * io.openshiftagent.bootstrap.identity.HostMetadata}, {@link
 * io.openshiftagent.bootstrap.identity.NodeIdentity}).
 */
package io.openshiftagent.bootstrap.identity;
