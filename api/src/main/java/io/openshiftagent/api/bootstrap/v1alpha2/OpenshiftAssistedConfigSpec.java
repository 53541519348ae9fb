package io.openshiftagent.api.bootstrap.v1alpha2;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import io.fabric8.crdv2.generator.v1.SchemaCustomizer;
import io.fabric8.generator.annotation.Default;
import io.fabric8.generator.annotation.Size;
import io.fabric8.generator.annotation.ValidationRule;
import io.fabric8.kubernetes.api.model.LabelSelector;
import io.openshiftagent.api.common.ItemsMaxLength;
import io.openshiftagent.api.common.LabelSelectorRules;
import io.openshiftagent.api.common.LocalObjectReference;
import java.util.List;

/**
 * What a host needs to join an OpenShift cluster through the assisted installer. The
 * discovery-facing fields mirror assisted-service's InfraEnv spec; the rest shape the installed
 * node.
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
@JsonIgnoreProperties(ignoreUnknown = true)
@SchemaCustomizer(
    value = ItemsMaxLength.class,
    input = "additionalNTPSources=255,preBootstrapCommands=16384,postBootstrapCommands=16384")
@SchemaCustomizer(value = LabelSelectorRules.class, input = "nmStateConfigLabelSelector")
// Each field's bound alone would let an object grow past what etcd stores (1.5 MiB): the largest
// ones share one budget, so such an object is refused with a message that names them.
@ValidationRule(
    value =
        "(has(self.additionalTrustBundle) ? size(self.additionalTrustBundle) : 0)"
            + " + (has(self.preBootstrapCommands) ? self.preBootstrapCommands.map(c, size(c)).sum() : 0)"
            + " + (has(self.postBootstrapCommands) ? self.postBootstrapCommands.map(c, size(c)).sum() : 0)"
            + " <= "
            + OpenshiftAssistedConfigSpec.TEXT_BUDGET,
    message =
        "additionalTrustBundle, preBootstrapCommands and postBootstrapCommands may hold at most 1048576"
            + " characters together (the object must fit in etcd)")
public class OpenshiftAssistedConfigSpec {
  /** Characters the trust bundle and the bootstrap commands may hold together. */
  public static final int TEXT_BUDGET = 1048576;

  /** Absolute, without '..' segments: these paths are created as root on the installed host. */
  static final String SAFE_ABSOLUTE_PATH =
      "self.matches('^/[a-zA-Z0-9_./-]+$') && !self.contains('/../') && !self.endsWith('/..')";

  // No schema default: an unset mode is the bootstrap provider's DEFAULT_BOOT_MODE, so one setting
  // gives manifests written for the Go provider (which has no such field) its disk-image flow.
  @JsonPropertyDescription(
      "How the host boots into discovery: LiveISO (Metal3 boots the InfraEnv's live ISO) or DiskImage"
          + " (a disk image with the discovery ignition as user data). Unset: the bootstrap provider's"
          + " default (its DEFAULT_BOOT_MODE, LiveISO unless set).")
  public BootMode bootMode;

  @JsonPropertyDescription("Proxy used by the discovery agent.")
  public Proxy proxy;

  @JsonPropertyDescription(
      "Secret (key .dockerconfigjson) with the pull secret for discovery. Optional for OKD.")
  public LocalObjectReference pullSecretRef;

  @JsonPropertyDescription("Additional NTP sources for the discovery agent.")
  @Size(max = 32)
  public List<String> additionalNTPSources;

  @JsonPropertyDescription("SSH public key for the discovery environment.")
  @Size(max = 8192)
  public String sshAuthorizedKey;

  @JsonPropertyDescription(
      "Selects the NMStateConfigs with the host's static network configuration.")
  public LabelSelector nmStateConfigLabelSelector;

  @JsonPropertyDescription("CPU architecture of the host.")
  @Default("x86_64")
  @ValidationRule(
      value = "self in ['x86_64', 'aarch64', 'arm64', 'ppc64le', 's390x']",
      message = "cpuArchitecture must be one of x86_64, aarch64, arm64, ppc64le, s390x")
  @Size(max = 16)
  public String cpuArchitecture;

  @JsonPropertyDescription("Kernel arguments of the installed node.")
  @Size(max = 64)
  public List<KernelArgument> kernelArguments;

  @JsonPropertyDescription(
      "PEM CA bundle trusted by the discovery environment and the installed node.")
  @Size(max = 1048576)
  public String additionalTrustBundle;

  @JsonPropertyDescription("Version of the discovery OS image.")
  @Size(max = 64)
  public String osImageVersion;

  @JsonPropertyDescription("Shell commands run once on the installed node before kubelet starts.")
  @Size(max = 256)
  public List<String> preBootstrapCommands;

  @JsonPropertyDescription(
      "Shell commands run once on the installed node after it has registered with the cluster.")
  @Size(max = 256)
  public List<String> postBootstrapCommands;

  @JsonPropertyDescription(
      "Directory for the run-once markers of the bootstrap commands (default /var/lib/capoa).")
  @Size(min = 2, max = 512)
  @ValidationRule(
      value = SAFE_ABSOLUTE_PATH,
      message =
          "bootstrapCommandSentinelDir must be an absolute path of letters, digits, '_', '.', '-' and '/'"
              + " without '..' segments")
  public String bootstrapCommandSentinelDir;

  @JsonPropertyDescription(
      "kubeconfig the post-bootstrap commands wait with (default /var/lib/kubelet/kubeconfig).")
  @Size(min = 2, max = 512)
  @ValidationRule(
      value = SAFE_ABSOLUTE_PATH,
      message =
          "postBootstrapKubeconfigPath must be an absolute path of letters, digits, '_', '.', '-' and '/'"
              + " without '..' segments")
  public String postBootstrapKubeconfigPath;

  @JsonPropertyDescription("How the node registers: name, kubelet labels, provider ID.")
  public NodeRegistrationOptions nodeRegistration;

  /** The boot mode, or {@code providerDefault} when the spec leaves it out. */
  public BootMode effectiveBootMode(BootMode providerDefault) {
    return bootMode == null ? providerDefault : bootMode;
  }
}
