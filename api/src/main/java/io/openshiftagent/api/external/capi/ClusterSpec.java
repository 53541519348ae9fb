package io.openshiftagent.api.external.capi;

import com.fasterxml.jackson.annotation.JsonInclude;
import io.openshiftagent.api.common.ContractVersionedObjectReference;
import io.openshiftagent.api.external.UnknownFields;
import java.util.List;

/**
 * The Cluster spec: pause flag, endpoint, networks, references to the control plane and
 * infrastructure.
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public class ClusterSpec extends UnknownFields {
  /** True pauses reconciliation of the Cluster and every object of it. */
  public Boolean paused;

  public ApiEndpoint controlPlaneEndpoint;

  public ClusterNetwork clusterNetwork;

  public ContractVersionedObjectReference controlPlaneRef;

  public ContractVersionedObjectReference infrastructureRef;

  /** Set when the Cluster is built from a ClusterClass. */
  public Topology topology;

  /** The endpoint of the Kubernetes API server of the workload cluster. */
  @JsonInclude(JsonInclude.Include.NON_NULL)
  public static class ApiEndpoint extends UnknownFields {
    public String host;
    public Integer port;
  }

  /** The pod and service networks of the workload cluster. */
  @JsonInclude(JsonInclude.Include.NON_NULL)
  public static class ClusterNetwork extends UnknownFields {
    public Integer apiServerPort;
    public NetworkRanges pods;
    public NetworkRanges services;
    public String serviceDomain;
  }

  /** A list of CIDR blocks. */
  @JsonInclude(JsonInclude.Include.NON_NULL)
  public static class NetworkRanges extends UnknownFields {
    public List<String> cidrBlocks;
  }

  /** The managed topology: the version and the ClusterClass it is built from. */
  @JsonInclude(JsonInclude.Include.NON_NULL)
  public static class Topology extends UnknownFields {
    public String version;
    public ClassRef classRef;
  }

  /** A reference to a ClusterClass; namespace defaults to the Cluster's. */
  @JsonInclude(JsonInclude.Include.NON_NULL)
  public static class ClassRef extends UnknownFields {
    public String name;
    public String namespace;
  }
}
