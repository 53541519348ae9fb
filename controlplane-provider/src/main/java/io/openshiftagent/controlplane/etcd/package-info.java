/**
 * The installed cluster's etcd, which the Machines phase consults before a host goes: what its
 * operator reports ({@link io.openshiftagent.controlplane.etcd.EtcdReport}), whether a member may
 * go ({@link io.openshiftagent.controlplane.etcd.EtcdSafety}), and the removal of a departed member
 * ({@link io.openshiftagent.controlplane.etcd.EtcdMembers}).
 */
package io.openshiftagent.controlplane.etcd;
