/**
 * Bad-input generators for our four kinds: spec variants (valid, boundary, invalid; unicode, huge
 * strings, bad JSON in the override annotations, bad IPs, CIDRs, versions, replicas and references)
 * as jqwik {@link net.jqwik.api.Arbitrary}s, each knowing whether the API server should admit it,
 * and {@link io.openshiftagent.testsupport.badinput.Admission}, which submits a variant to the real
 * API server and checks that verdict. The api module runs them for admission; the provider modules
 * reconcile what is admitted.
 */
package io.openshiftagent.testsupport.badinput;
