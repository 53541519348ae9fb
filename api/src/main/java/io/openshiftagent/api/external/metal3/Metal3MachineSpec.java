package io.openshiftagent.api.external.metal3;

import com.fasterxml.jackson.annotation.JsonInclude;
import io.fabric8.kubernetes.api.model.SecretReference;
import io.openshiftagent.api.external.UnknownFields;
import java.util.List;
import java.util.Map;

/**
 * The Metal3Machine spec (v1beta2): what to write to the host, which host to claim, and the user
 * data. Either {@link #image} or {@link #customDeploy} is required.
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public class Metal3MachineSpec extends UnknownFields {
  /**
   * The value of {@link Image#diskFormat} that boots the image as a live ISO instead of writing it.
   */
  public static final String DISK_FORMAT_LIVE_ISO = "live-iso";

  public Image image;

  public CustomDeploy customDeploy;

  /**
   * {@code metal3://<namespace>/<bmh-name>/<m3m-name>}, set by CAPM3 once the host is provisioned.
   */
  public String providerID;

  /** The Metal3DataTemplate that renders the host's metadata and network data. */
  public NamespacedName dataTemplate;

  /** The Secret with the host's user data (namespace defaults to the Metal3Machine's). */
  public SecretReference userData;

  /** Which BareMetalHosts may be claimed. */
  public HostSelector hostSelector;

  /**
   * The image to provision (v1beta2 calls the disk format {@code diskFormat}; v1beta1 {@code
   * format}).
   */
  @JsonInclude(JsonInclude.Include.NON_NULL)
  public static class Image extends UnknownFields {
    public String url;

    /** The checksum or a URL to it; may be empty for a live ISO. */
    public String checksum;

    /** md5, sha256 or sha512. */
    public String checksumType;

    /** raw, qcow2, vdi, vmdk or {@value Metal3MachineSpec#DISK_FORMAT_LIVE_ISO}. */
    public String diskFormat;
  }

  /** A reference by name and namespace. */
  @JsonInclude(JsonInclude.Include.NON_NULL)
  public static class NamespacedName extends UnknownFields {
    public String name;
    public String namespace;
  }

  /**
   * Label criteria a BareMetalHost must meet to be claimed. Not a metav1 LabelSelector: the
   * operators are those of k8s.io/apimachinery/pkg/selection (in, notin, =, ==, !=, exists, !, gt,
   * lt).
   */
  @JsonInclude(JsonInclude.Include.NON_NULL)
  public static class HostSelector extends UnknownFields {
    public Map<String, String> matchLabels;
    public List<HostSelectorRequirement> matchExpressions;
  }

  /** One match expression of a {@link HostSelector}. */
  @JsonInclude(JsonInclude.Include.NON_NULL)
  public static class HostSelectorRequirement extends UnknownFields {
    public String key;
    public String operator;
    public List<String> values;
  }
}
