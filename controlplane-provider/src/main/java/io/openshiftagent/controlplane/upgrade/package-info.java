/**
 * The upgrade phase: a look at the installed cluster ({@link
 * io.openshiftagent.controlplane.upgrade.Upgrades}) and what to ask of its ClusterVersion ({@link
 * io.openshiftagent.controlplane.upgrade.UpgradeDecision}).
 */
package io.openshiftagent.controlplane.upgrade;
