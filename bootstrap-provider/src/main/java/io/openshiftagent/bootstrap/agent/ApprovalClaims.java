package io.openshiftagent.bootstrap.agent;

import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.openshiftagent.api.bootstrap.v1alpha2.OpenshiftAssistedConfig;
import io.openshiftagent.api.external.OwnedFieldsPatch;
import io.openshiftagent.bootstrap.names.Names;
import io.openshiftagent.provider.reconcile.Metadata;
import java.util.Optional;

/**
 * Claims the approval of an Agent's InfraEnv for it: an annotation on the config (on the InfraEnv
 * before: still honoured), set by a compare-and-swap on the config's resourceVersion. Two
 * concurrent reconciles cannot both win, and a claim won proves that the config the approval is
 * decided on is the stored one. Who may hold the claim is {@link Approval}'s rule.
 */
final class ApprovalClaims {
  private final KubernetesClient client;
  private final AgentCaches caches;

  ApprovalClaims(KubernetesClient client, AgentCaches caches) {
    this.client = client;
    this.caches = caches;
  }

  /**
   * Who holds the approval of the Agent's InfraEnv and, when this Agent does, its config as stored
   * now; {@code retry}: the config kept changing under the claim.
   */
  record Claim(String holder, OpenshiftAssistedConfig config, boolean retry) {}

  /**
   * The Agent holding the approval, claiming it for this Agent when nobody holds it. After a
   * conflict the config is read once and the claim tried once more on it.
   */
  Claim claim(AgentScope scope) {
    String agent = Metadata.name(scope.agent());
    OpenshiftAssistedConfig config = scope.config();
    for (int attempt = 0; attempt < 2; attempt++) {
      Approval.Holder holder =
          Approval.holder(
              agent, scope.claim(config), scope::agentExists, scope::otherApprovedAgent);
      if (holder instanceof Approval.Held held) {
        // Claimed for this Agent already (the approval was not written yet): decided on the
        // config as stored now.
        return held.agent().equals(agent)
            ? new Claim(agent, attempt == 0 ? scope.currentConfig().orElse(null) : config, false)
            : new Claim(held.agent(), null, false);
      }
      try {
        OpenshiftAssistedConfig claimed =
            new OwnedFieldsPatch()
                .set(agent, "metadata", "annotations", Names.APPROVED_AGENT_ANNOTATION)
                .requireResourceVersion(config.getMetadata().getResourceVersion())
                .applyTo(client, config);
        caches.written(config, claimed);
        return new Claim(agent, claimed, false);
      } catch (KubernetesClientException e) {
        if (e.getCode() != 409) {
          throw e;
        }
        Optional<OpenshiftAssistedConfig> current = scope.currentConfig();
        if (current.isEmpty()) {
          return new Claim(null, null, false); // deleted: its event ends this
        }
        config = current.get();
      }
    }
    return new Claim(null, null, true);
  }
}
