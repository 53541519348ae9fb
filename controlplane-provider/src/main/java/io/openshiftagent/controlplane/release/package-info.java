/**
 * The release image, which the phases share: what the spec requests ({@link
 * io.openshiftagent.controlplane.release.ReleaseImage}), resolved to a digest ({@link
 * io.openshiftagent.controlplane.release.ReleaseImageResolution}) once per reconcile ({@link
 * io.openshiftagent.controlplane.release.ReleaseImagePhase}).
 */
package io.openshiftagent.controlplane.release;
