package io.openshiftagent.api.external.assisted;

import com.fasterxml.jackson.annotation.JsonInclude;
import io.fabric8.kubernetes.api.model.Namespaced;
import io.fabric8.kubernetes.client.CustomResource;
import io.fabric8.kubernetes.model.annotation.Group;
import io.fabric8.kubernetes.model.annotation.Version;
import io.openshiftagent.api.external.ExternalKinds;
import io.openshiftagent.api.external.UnknownFields;
import java.util.List;
import java.util.Map;

/**
 * Static network configuration of a host, selected by an InfraEnv's nmStateConfigLabelSelector and
 * matched to the host by MAC address.
 */
@Group(ExternalKinds.AGENT_INSTALL_GROUP)
@Version(ExternalKinds.AGENT_INSTALL_VERSION)
public class NMStateConfig extends CustomResource<NMStateConfig.Spec, NMStateConfig.Status>
    implements Namespaced {

  /** The NMState document and the mapping of its interface names to MAC addresses. */
  @JsonInclude(JsonInclude.Include.NON_NULL)
  public static class Spec extends UnknownFields {
    public List<Interface> interfaces;

    /** The NMState document (free-form YAML/JSON). */
    public Map<String, Object> config;
  }

  /** An interface name used in the NMState document and the host's MAC address for it. */
  @JsonInclude(JsonInclude.Include.NON_NULL)
  public static class Interface extends UnknownFields {
    public String name;
    public String macAddress;
  }

  /** Not part of the CRD; kept so that an unexpected status survives a round trip. */
  @JsonInclude(JsonInclude.Include.NON_NULL)
  public static class Status extends UnknownFields {}
}
