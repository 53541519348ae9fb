package io.openshiftagent.bootstrap.agent;

import io.openshiftagent.api.bootstrap.v1alpha2.KernelArgument;
import io.openshiftagent.api.bootstrap.v1alpha2.OpenshiftAssistedConfig;
import io.openshiftagent.api.external.ExternalKinds;
import io.openshiftagent.api.external.OwnedFieldsPatch;
import io.openshiftagent.api.external.assisted.Agent;
import io.openshiftagent.api.external.assisted.AgentSpec;
import io.openshiftagent.api.external.capi.Machine;
import io.openshiftagent.bootstrap.identity.HostMetadata;
import io.openshiftagent.bootstrap.identity.NodeIdentity;
import io.openshiftagent.bootstrap.ignition.InstallIgnition;
import io.openshiftagent.bootstrap.ignition.JsonDocuments;
import io.openshiftagent.bootstrap.names.Names;
import io.openshiftagent.bootstrap.names.Reasons;
import io.openshiftagent.provider.reconcile.ClusterRefs;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * What the Agent of a Machine must say: its role, hostname, installer arguments, install-time
 * ignition override and node labels, or why it is refused. Only these fields (and the approval) are
 * ours; the patch names only those that differ, so everything else on the Agent stays as
 * assisted-service and others set it. Pure: its table test is {@code AgentDecisionTest}.
 */
public final class AgentDecision {
  public static final String MASTER = "master";
  public static final String WORKER = "worker";

  /** The fields we own on an Agent; a null field is left alone. */
  public record DesiredAgent(
      String role,
      String hostname,
      String installerArgs,
      String ignitionConfigOverrides,
      Map<String, String> nodeLabels) {}

  /** What to do with the Agent. */
  public sealed interface Decision {}

  /** Make the Agent say {@code agent}. */
  public record Desired(DesiredAgent agent) implements Decision {}

  /**
   * Leave the Agent unapproved and record why ({@code reason}, {@code why}): its install ignition
   * grew too large for an Agent after the config was checked, and every write of it would fail.
   */
  public record Refused(String reason, String why) implements Decision {}

  private AgentDecision() {}

  /**
   * The decision for the Agent of {@code machine}, made according to {@code config}.
   *
   * @param metadata the host's metadata, when the hub knows it (a Metal3 host)
   * @param bareMetalHostUid UID of the BareMetalHost the Machine's Metal3Machine consumed, or null
   */
  public static Decision decide(
      OpenshiftAssistedConfig config,
      Machine machine,
      Optional<HostMetadata> metadata,
      String bareMetalHostUid) {
    NodeIdentity identity =
        NodeIdentity.of(
            config.getSpec().nodeRegistration,
            Names.hostname(machine.getMetadata().getName()),
            metadata);
    DesiredAgent desired = desired(config, machine, identity, bareMetalHostUid);
    Optional<String> tooLarge =
        InstallIgnition.tooLargeForAnAgent(desired.ignitionConfigOverrides());
    if (tooLarge.isPresent()) {
      return new Refused(Reasons.INSTALL_IGNITION_TOO_LARGE, "not approved: " + tooLarge.get());
    }
    return new Desired(desired);
  }

  /**
   * @param identity the node's name, labels and provider ID, resolved as far as the hub can
   * @param bareMetalHostUid UID of the BareMetalHost the Machine's Metal3Machine consumed: the Node
   *     label CAPM3 matches the Node to its Machine by
   */
  public static DesiredAgent desired(
      OpenshiftAssistedConfig config,
      Machine machine,
      NodeIdentity identity,
      String bareMetalHostUid) {
    return new DesiredAgent(
        ClusterRefs.isControlPlane(machine) ? MASTER : WORKER,
        identity.hostname(),
        installerArgs(config.getSpec().kernelArguments),
        InstallIgnition.forConfig(config, identity),
        nodeLabels(identity, bareMetalHostUid));
  }

  /**
   * coreos-installer arguments: each kernel argument becomes {@code --<operation>-karg <value>}.
   */
  static String installerArgs(List<KernelArgument> kernelArguments) {
    if (kernelArguments == null || kernelArguments.isEmpty()) {
      return null;
    }
    List<String> args = new ArrayList<>();
    for (KernelArgument argument : kernelArguments) {
      args.add("--" + argument.operation.name().toLowerCase(java.util.Locale.ROOT) + "-karg");
      args.add(argument.value);
    }
    return JsonDocuments.array(args);
  }

  /**
   * The Node labels the hub knows (the user's, resolved), and the BareMetalHost UID, which CAPM3
   * matches the Node by.
   */
  static Map<String, String> nodeLabels(NodeIdentity identity, String bmhUid) {
    Map<String, String> labels = new LinkedHashMap<>(identity.labels());
    if (bmhUid != null) {
      labels.put(ExternalKinds.METAL3_UUID_LABEL, bmhUid);
    }
    return labels;
  }

  /**
   * A patch of the fields that differ from {@code desired}; empty when the Agent already agrees.
   */
  public static OwnedFieldsPatch patch(Agent agent, DesiredAgent desired) {
    AgentSpec spec = agent.getSpec() == null ? new AgentSpec() : agent.getSpec();
    OwnedFieldsPatch patch = new OwnedFieldsPatch();
    setIfDifferent(patch, spec.role, desired.role(), "role");
    setIfDifferent(patch, spec.hostname, desired.hostname(), "hostname");
    setIfDifferent(patch, spec.installerArgs, desired.installerArgs(), "installerArgs");
    setIfDifferent(
        patch,
        spec.ignitionConfigOverrides,
        desired.ignitionConfigOverrides(),
        "ignitionConfigOverrides");
    Map<String, String> current = spec.nodeLabels == null ? Map.of() : spec.nodeLabels;
    desired
        .nodeLabels()
        .forEach(
            (key, value) -> {
              if (!value.equals(current.get(key))) {
                // A merge patch of one map key keeps every other label on the Agent.
                patch.set(value, "spec", "nodeLabels", key);
              }
            });
    return patch;
  }

  private static void setIfDifferent(
      OwnedFieldsPatch patch, String current, String desired, String field) {
    if (desired != null && !Objects.equals(current, desired)) {
      patch.set(desired, "spec", field);
    }
  }
}
