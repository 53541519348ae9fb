/**
 * The Agent controller: observe ({@link io.openshiftagent.bootstrap.agent.AgentScope}) → decide
 * ({@link io.openshiftagent.bootstrap.agent.AgentDecision} for the fields we own, {@link
 * io.openshiftagent.bootstrap.agent.Approval} for the one Agent per InfraEnv, {@link
 * io.openshiftagent.bootstrap.agent.InstallationDisk} for the disk the host's rootDeviceHints
 * choose) → apply (one owned-fields patch of the Agent, the claim on the approval ({@link
 * io.openshiftagent.bootstrap.agent.ApprovalClaims}), what is told of the disk on the config
 * ({@link io.openshiftagent.bootstrap.agent.InstallationDisks}), the host's detachment).
 */
package io.openshiftagent.bootstrap.agent;
