/**
 * The OpenshiftAssistedConfig controller: observe ({@link
 * io.openshiftagent.bootstrap.config.ConfigScope}, from {@link
 * io.openshiftagent.bootstrap.config.ConfigCaches}) → decide ({@link
 * io.openshiftagent.bootstrap.config.ConfigSteps}, with {@link
 * io.openshiftagent.bootstrap.config.WorkerGate}) → apply ({@link
 * io.openshiftagent.bootstrap.config.ConfigWrites}, {@link
 * io.openshiftagent.bootstrap.config.DiskImageBoot}) → report ({@link
 * io.openshiftagent.bootstrap.config.ConfigStatus}); {@link
 * io.openshiftagent.bootstrap.config.ConfigCleanup} on deletion.
 */
package io.openshiftagent.bootstrap.config;
