/**
 * The ignition documents: the discovery ignition downloaded from assisted-service for DiskImage
 * hosts (with the node registration merged in), and the install-time ignition given to Agents.
 */
package io.openshiftagent.bootstrap.ignition;
