package io.openshiftagent.bootstrap.names;

import io.openshiftagent.api.bootstrap.v1alpha2.OpenshiftAssistedConfig;
import io.openshiftagent.provider.contract.ObjectNames;
import io.openshiftagent.provider.contract.SharedNames;
import java.util.Locale;

/**
 * Deterministic names and label values of what the bootstrap provider creates. Everything is
 * derived from the config's name, which Cluster API makes unique per Machine in a namespace, so a
 * restarted operator finds what it created instead of creating it again.
 */
public final class Names {
  /** Label on every object we create for a config, and on its Agents: the config's name. */
  public static final String CONFIG_LABEL = "bootstrap.cluster.x-k8s.io/openshiftAssistedConfig";

  /**
   * Annotation on a config: the one Agent we approved for its InfraEnv (a compare-and-swap claim).
   * The same claim on an InfraEnv, where earlier versions of this provider put it, is honoured.
   */
  public static final String APPROVED_AGENT_ANNOTATION = SharedNames.APPROVED_AGENT_ANNOTATION;

  /**
   * Annotation on an Agent we decided not to approve, with the reason (set once, with an Event).
   */
  public static final String NOT_APPROVED_ANNOTATION = "bootstrap.cluster.x-k8s.io/not-approved";

  /**
   * Annotation on a config, set by the Agent controller: why its Agent is not approved because no
   * disk matches its BareMetalHost's rootDeviceHints. The config controller reports it in the
   * config's conditions; removed once the Agent is approved.
   */
  public static final String NO_INSTALLATION_DISK_ANNOTATION =
      "bootstrap.cluster.x-k8s.io/no-installation-disk";

  /**
   * Annotation on a config, set by the Agent controller: its host fails assisted-service's
   * validations, in the service's words. The config controller reports it in the config's Ready
   * condition; removed once they pass or the installation starts.
   */
  public static final String HOST_VALIDATIONS_FAILING_ANNOTATION =
      "bootstrap.cluster.x-k8s.io/host-validations-failing";

  /**
   * Annotation on an InfraEnv: the boot mode chosen when it was made (the config's, or the
   * provider's default then), so that a changed default never switches a host mid-way.
   */
  public static final String BOOT_MODE_ANNOTATION = "bootstrap.cluster.x-k8s.io/boot-mode";

  /** The user's JSON ignition merged into the discovery ignition (InfraEnv). */
  public static final String DISCOVERY_IGNITION_OVERRIDE_ANNOTATION =
      "openshiftassistedconfig.cluster.x-k8s.io/discovery-ignition-override";

  /** The user's JSON ignition merged into the installed node's ignition (Agent). */
  public static final String IGNITION_OVERRIDE_ANNOTATION =
      "openshiftassistedconfig.cluster.x-k8s.io/ignition-override";

  /** Baremetal-operator stops managing a host with this annotation (assisted's BMAC does too). */
  public static final String BMH_DETACHED_ANNOTATION = "baremetalhost.metal3.io/detached";

  /** Our value of the detached annotation: only a host we detached is re-attached by us. */
  public static final String DETACHED_BY = "openshift-agent-bootstrap-provider";

  private Names() {}

  public static String infraEnv(OpenshiftAssistedConfig config) {
    return config.getMetadata().getName();
  }

  public static String dataSecret(OpenshiftAssistedConfig config) {
    return config.getMetadata().getName();
  }

  public static String placeholderPullSecret(OpenshiftAssistedConfig config) {
    return SharedNames.placeholderPullSecret(config.getMetadata().getName());
  }

  /** A label value for an object name: names longer than 63 characters get a hashed suffix. */
  public static String labelValue(String name) {
    return ObjectNames.labelValue(name);
  }

  /** A valid hostname (RFC 1123 label) from a Machine name. */
  public static String hostname(String machineName) {
    String host =
        machineName
            .toLowerCase(Locale.ROOT)
            .replaceAll("[^a-z0-9-]", "-")
            .replaceAll("^-+", "")
            .replaceAll("-+$", "");
    host = ObjectNames.fit(host, ObjectNames.MAX_LABEL_VALUE);
    return host.isEmpty() ? "host" : host;
  }
}
