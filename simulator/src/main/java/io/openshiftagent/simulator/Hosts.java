package io.openshiftagent.simulator;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.Secret;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Plays the machines, the only part of Metal3's world that needs hardware: a BareMetalHost the real
 * baremetal-operator reports provisioned and powered on boots what it was provisioned with (a live
 * ISO, or a disk image with its user data) after the simulated boot time, and then runs what that
 * image starts ({@link HostBoots}). A host boots an image once; deprovisioned, it boots the next
 * one it is given.
 */
final class Hosts extends Actor {
  static final String PROVISIONED = "provisioned";

  private final SimulatedDurations durations;
  private final HostBoots boots;

  /** Host UID and image of each boot, so an event does not boot a host twice. */
  private final Set<String> booted = ConcurrentHashMap.newKeySet();

  Hosts(KubernetesClient client, SimulatedDurations durations, HostBoots boots) {
    super(client);
    this.durations = durations;
    this.boots = boots;
  }

  @Override
  void start() {
    watch(client, ApiVersions.METAL3, "BareMetalHost", this::boot, this::switchOff);
  }

  private void boot(GenericKubernetesResource host) {
    String uid = host.getMetadata().getUid();
    if (!PROVISIONED.equals(state(host))) {
      // Deprovisioned: it is off; the next provisioning boots it again.
      switchOff(host);
      return;
    }
    String image = Fields.string(host, "status", "provisioning", "image", "url");
    if (image == null
        || !Fields.isTrue(host, "status", "poweredOn")
        || !booted.add(uid + " " + image)) {
      return;
    }
    String format = Fields.string(host, "status", "provisioning", "image", "format");
    after(
        durations.hostBoot(),
        () -> {
          if (!booted.contains(uid + " " + image)) {
            return; // switched off (or deleted) before it came up
          }
          log.info("host {}/{} booted {} ({})", namespace(host), name(host), image, format);
          boots.booted(
              new HostBoots.BootedHost(
                  host,
                  image,
                  format,
                  "live-iso".equals(format) ? Optional.empty() : userData(host)));
        });
  }

  /** A host deprovisioned, or deleted while on (with its namespace, say): what runs on it stops. */
  private void switchOff(GenericKubernetesResource host) {
    String uid = host.getMetadata().getUid();
    if (booted.removeIf(boot -> boot.startsWith(uid + " "))) {
      boots.switchedOff(host);
    }
  }

  /** The ignition in the Secret of the host's {@code spec.userData} (key userData or value). */
  private Optional<String> userData(GenericKubernetesResource host) {
    String name = Fields.string(host, "spec", "userData", "name");
    String ns = Fields.string(host, "spec", "userData", "namespace");
    Secret secret =
        name == null
            ? null
            : client.secrets().inNamespace(ns == null ? namespace(host) : ns).withName(name).get();
    if (secret == null || secret.getData() == null) {
      return Optional.empty();
    }
    String encoded = secret.getData().getOrDefault("userData", secret.getData().get("value"));
    return Optional.ofNullable(encoded)
        .map(e -> new String(Base64.getDecoder().decode(e), StandardCharsets.UTF_8));
  }

  static String state(GenericKubernetesResource host) {
    return Fields.string(host, "status", "provisioning", "state");
  }
}
