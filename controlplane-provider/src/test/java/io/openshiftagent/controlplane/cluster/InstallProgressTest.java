package io.openshiftagent.controlplane.cluster;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.client.utils.Serialization;
import io.openshiftagent.api.external.assisted.AgentClusterInstall;
import java.util.Optional;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * When assisted-service waits for the user, and what the control plane says of it: the state and
 * the failing cluster validations as the service reports them in {@code status.validationsInfo}
 * (the messages below are the service's own).
 */
class InstallProgressTest {
  static final String MACHINE_CIDR_UNDEFINED =
      v(
          "machine-cidr-defined",
          "failure",
          "The Machine Network CIDR is undefined; the Machine Network CIDR can be defined by"
              + " setting either the API or Ingress virtual IPs.");
  static final String NO_MATCHING_CIDR =
      v(
          "machine-cidr-equals-to-calculated-cidr",
          "failure",
          "1 error occurred:\\n\\t* No suitable matching CIDR found for VIP 192.168.222.40\\n\\n");
  static final String HOSTS_NOT_DISCOVERED =
      v("api-vips-valid", "pending", "Hosts have not been discovered yet");
  static final String MASTERS =
      v(
          "sufficient-masters-count",
          "failure",
          "Clusters must have exactly 3 dedicated control plane nodes. Add or remove hosts, or"
              + " change their roles configurations to meet the requirement.");
  static final String HOSTS_NOT_READY =
      v("all-hosts-are-ready-to-install", "failure", "The cluster has hosts that are not ready.");
  static final String VIP_NOT_VERIFIED =
      v("api-vips-valid", "failure", "api vips <192.168.111.5> are not verified yet.");
  static final String VIP_IN_USE =
      v(
          "ingress-vips-valid",
          "failure",
          "ingress vips <192.168.111.4> is already in use in cidr 192.168.111.0/24");
  static final String NETWORKS_MISMATCH =
      v("network-prefix-valid", "error", "A mismatch between the number of Cluster and Service");
  static final String PULL_SECRET = v("pull-secret-set", "success", "The pull secret is set.");

  static final String WAITS =
      "assisted-service waits for the user: AgentClusterInstall ocp1-cp is ";
  static final String FIX =
      "; fix them in spec.config (the AgentClusterInstall's condition Validated and"
          + " status.validationsInfo have the service's full messages)";

  static Stream<Arguments> states() {
    return Stream.of(
        Arguments.of(
            "VIPs outside the hosts' network",
            "pending-for-input",
            "User input required",
            network(MACHINE_CIDR_UNDEFINED, NO_MATCHING_CIDR, HOSTS_NOT_DISCOVERED),
            WAITS
                + "pending-for-input (User input required); failing validations:"
                + " machine-cidr-defined (The Machine Network CIDR is undefined),"
                + " machine-cidr-equals-to-calculated-cidr (No suitable matching CIDR found for VIP"
                + " 192.168.222.40)"
                + FIX),
        Arguments.of(
            "no host discovered yet: nothing the user must do",
            "pending-for-input",
            "User input required",
            network(HOSTS_NOT_DISCOVERED, PULL_SECRET),
            null),
        Arguments.of(
            "hosts still registering and their VIPs being verified: progress",
            "insufficient",
            "Cluster is not ready for install",
            "{\"hosts-data\": [" + MASTERS + "," + HOSTS_NOT_READY + "]," + net(VIP_NOT_VERIFIED),
            null),
        Arguments.of(
            "a VIP in use, among hosts still registering",
            "insufficient",
            "Cluster is not ready for install",
            "{\"hosts-data\": [" + MASTERS + "]," + net(VIP_IN_USE, NETWORKS_MISMATCH),
            WAITS
                + "insufficient (Cluster is not ready for install); failing validations:"
                + " ingress-vips-valid (ingress vips <192.168.111.4> is already in use in cidr"
                + " 192.168.111.0/24), network-prefix-valid (A mismatch between the number of"
                + " Cluster and Service)"
                + FIX),
        Arguments.of(
            "no validations reported yet",
            "insufficient",
            "Cluster is not ready for install",
            null,
            null),
        Arguments.of(
            "a failing validation once the installation runs: not the user's now",
            "installing",
            "Installation in progress",
            network(MACHINE_CIDR_UNDEFINED),
            null),
        Arguments.of(
            "a host waits for the user during the installation",
            "installing-pending-user-action",
            "Cluster has hosts pending user action",
            null,
            WAITS
                + "installing-pending-user-action (Cluster has hosts pending user action); the"
                + " Agents in state installing-pending-user-action say in"
                + " status.debugInfo.stateInfo what each host needs"));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("states")
  void theUserIsToldWhatTheServiceWaitsFor(
      String name, String state, String stateInfo, String validationsInfo, String expected) {
    assertThat(
            InstallProgress.needsUser(
                Optional.of(install(state, stateInfo, validationsInfo)), "ocp1-cp"))
        .isEqualTo(Optional.ofNullable(expected));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("states")
  void theMessageChangesOnlyWithTheSetOfFailingValidations(
      String name, String state, String stateInfo, String validationsInfo, String expected) {
    if (validationsInfo == null) {
      return;
    }
    // The advice after the first clause, the order of the categories and the validations that
    // pass or are pending may change without changing what the user is told.
    String reworded =
        validationsInfo
            .replace("can be defined by", "may be defined by")
            .replace("Hosts have not been discovered yet", "Hosts are being discovered")
            .replace(PULL_SECRET, v("pull-secret-set", "success", "Pull secret set"));
    assertThat(
            InstallProgress.needsUser(Optional.of(install(state, stateInfo, reworded)), "ocp1-cp"))
        .isEqualTo(Optional.ofNullable(expected));
  }

  @ParameterizedTest(name = "''{0}'' -> ''{1}''")
  @CsvSource(
      delimiter = '|',
      quoteCharacter = '"',
      value = {
        "The Cluster Network CIDR is undefined.                 | The Cluster Network CIDR is undefined",
        "The Machine Network CIDR is undefined; set it          | The Machine Network CIDR is undefined",
        "Hosts' clocks are not synchronized. Configure NTP.     | Hosts' clocks are not synchronized",
        "api vips <10.0.0.5> does not belong to machine-network-cidr <10.1.0.0/24> | api vips <10.0.0.5> does not belong to machine-network-cidr <10.1.0.0/24>",
        "one two three four five six seven eight nine ten eleven twelve thirteen | one two three four five six seven eight nine ten eleven twelve …",
      })
  void theFirstWordsSayWhatFails(String message, String expected) {
    assertThat(ClusterValidations.firstWords(message)).isEqualTo(expected);
  }

  private static AgentClusterInstall install(String state, String stateInfo, String info) {
    String json =
        "{\"status\": {\"debugInfo\": {\"state\": \""
            + state
            + "\", \"stateInfo\": \""
            + stateInfo
            + "\"}"
            + (info == null ? "" : ", \"validationsInfo\": " + info)
            + "}}";
    return Serialization.unmarshal(json, AgentClusterInstall.class);
  }

  private static String v(String id, String status, String message) {
    return "{\"id\": \""
        + id
        + "\", \"status\": \""
        + status
        + "\", \"message\": \""
        + message
        + "\"}";
  }

  private static String network(String... validations) {
    return "{" + net(validations);
  }

  /** The network category, closing the validationsInfo object. */
  private static String net(String... validations) {
    return "\"network\": [" + String.join(",", validations) + "]}";
  }
}
