package io.openshiftagent.simulator;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import java.util.Optional;

/**
 * What a host runs once it has booted what its BareMetalHost was provisioned with: the one seam
 * between the simulated hardware ({@link Hosts}) and the software on the host. {@link
 * DiscoveryAgents} runs there: a discovery ignition starts the agent that speaks assisted-service's
 * REST API.
 */
public interface HostBoots {
  /** A host booted {@code image}: it is up and runs what that image starts. */
  void booted(BootedHost host);

  /**
   * The host was deprovisioned: it is switched off, and whatever ran on it stops.
   *
   * @param bareMetalHost the BareMetalHost as the baremetal-operator reports it now
   */
  void switchedOff(GenericKubernetesResource bareMetalHost);

  /**
   * A booted host.
   *
   * @param bareMetalHost the BareMetalHost as the baremetal-operator last reported it provisioned
   * @param imageUrl the image it booted ({@code status.provisioning.image.url})
   * @param imageFormat {@code live-iso} or a disk image format (qcow2, raw...)
   * @param userData the user data it booted with (a disk image's ignition), when it has some
   */
  record BootedHost(
      GenericKubernetesResource bareMetalHost,
      String imageUrl,
      String imageFormat,
      Optional<String> userData) {

    public boolean liveIso() {
      return "live-iso".equals(imageFormat);
    }
  }
}
