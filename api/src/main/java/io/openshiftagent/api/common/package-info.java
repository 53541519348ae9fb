/**
 * Types shared by our CRDs that mirror Cluster API shapes (object metadata, contract-versioned
 * references, machine deletion timeouts). Plain data holders with public fields, like the Go API
 * types they mirror.
 */
package io.openshiftagent.api.common;
