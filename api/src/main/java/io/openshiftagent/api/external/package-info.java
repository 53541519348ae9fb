/**
 * Hand-written models of the external kinds the providers read and write: Cluster API core, Metal3,
 * assisted-service and Hive. Only the fields we use are declared; every other field is kept by
 * {@link io.openshiftagent.api.external.UnknownFields} so that writing a model back never drops
 * data. These are not our CRDs: the CRD generator does not scan this package.
 */
package io.openshiftagent.api.external;
