/**
 * The bootstrap provider: {@link io.openshiftagent.bootstrap.BootstrapProviderMain} (the process)
 * registers the {@code config} controller (OpenshiftAssistedConfig → InfraEnv → bootstrap data) and
 * the {@code agent} controller (Agent → role, approval, detached host); {@code hosts} is the Metal3
 * side both share and {@code ignition} the documents they build. {@link
 * io.openshiftagent.bootstrap.names.Names} holds the names and keys others rely on.
 */
package io.openshiftagent.bootstrap;
