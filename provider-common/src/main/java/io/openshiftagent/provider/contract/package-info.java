/**
 * What the two providers agree on without calling each other: the kinds they exchange, the names
 * one creates and the other finds ({@link io.openshiftagent.provider.contract.SharedNames}),
 * assisted-service's installation states and the placeholder pull secret.
 */
package io.openshiftagent.provider.contract;
