/**
 * The Agent controller: observe ({@link io.openshiftagent.bootstrap.agent.AgentScope}) → decide
 * ({@link io.openshiftagent.bootstrap.agent.AgentDecision} for the fields we own, {@link
 * io.openshiftagent.bootstrap.agent.Approval} for the one Agent per InfraEnv) → apply (one owned-
 * fields patch of the Agent, the claim on the approval ({@link
 * io.openshiftagent.bootstrap.agent.ApprovalClaims}), the host's detachment).
 */
package io.openshiftagent.bootstrap.agent;
