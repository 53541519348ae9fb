/**
 * The Metal3 side of a Machine, shared by the config and Agent controllers: which Metal3Machine and
 * BareMetalHost it has, and detaching and re-attaching that host.
 */
package io.openshiftagent.bootstrap.hosts;
