package io.openshiftagent.api.external.hive;

import com.fasterxml.jackson.annotation.JsonInclude;
import io.fabric8.kubernetes.client.CustomResource;
import io.fabric8.kubernetes.model.annotation.Group;
import io.fabric8.kubernetes.model.annotation.Version;
import io.openshiftagent.api.external.ExternalKinds;
import io.openshiftagent.api.external.UnknownFields;

/**
 * The release image an AgentClusterInstall installs, by name. Cluster-scoped: the control plane
 * provider creates one per OpenShift release it installs.
 */
@Group(ExternalKinds.HIVE_GROUP)
@Version(ExternalKinds.HIVE_VERSION)
public class ClusterImageSet extends CustomResource<ClusterImageSet.Spec, ClusterImageSet.Status> {

  /** The release image. */
  @JsonInclude(JsonInclude.Include.NON_NULL)
  public static class Spec extends UnknownFields {
    /** The OpenShift release image pull spec. */
    public String releaseImage;

    public Spec() {}

    public Spec(String releaseImage) {
      this.releaseImage = releaseImage;
    }
  }

  /** Empty in Hive; kept so that the {@code status: {}} Hive writes survives a round trip. */
  @JsonInclude(JsonInclude.Include.NON_NULL)
  public static class Status extends UnknownFields {}
}
