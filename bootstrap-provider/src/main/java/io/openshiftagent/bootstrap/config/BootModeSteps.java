package io.openshiftagent.bootstrap.config;

import static io.openshiftagent.bootstrap.config.ConfigSteps.waiting;

import io.openshiftagent.api.bootstrap.v1alpha2.BootMode;
import io.openshiftagent.api.external.assisted.InfraEnv;
import io.openshiftagent.api.external.capi.Machine;
import io.openshiftagent.api.external.metal3.Metal3Machine;
import io.openshiftagent.bootstrap.config.ConfigStatus.Outcome;
import io.openshiftagent.bootstrap.config.ConfigSteps.BootLiveIso;
import io.openshiftagent.bootstrap.config.ConfigSteps.DownloadIgnition;
import io.openshiftagent.bootstrap.config.ConfigSteps.FollowIso;
import io.openshiftagent.bootstrap.config.ConfigSteps.Report;
import io.openshiftagent.bootstrap.config.ConfigSteps.Step;
import io.openshiftagent.bootstrap.hosts.Hosts;
import io.openshiftagent.bootstrap.names.Names;
import io.openshiftagent.bootstrap.names.Reasons;
import io.openshiftagent.provider.reconcile.Metadata;
import java.util.Optional;

/**
 * The boot mode's own steps of {@link ConfigSteps}, once the config's InfraEnv exists: for LiveISO,
 * wait for the discovery ISO and point the Metal3Machine at it; for DiskImage, wait for the
 * discovery ignition and download it, unless a recent failure holds the download back. Either waits
 * with assisted-service's words when it refuses to make the image. Pure, like ConfigSteps.
 */
final class BootModeSteps {
  private BootModeSteps() {}

  /** The next step of a config whose prerequisites are met and whose InfraEnv exists. */
  static Step next(ConfigScope scope) {
    return scope.bootMode() == BootMode.LIVE_ISO ? liveIso(scope) : diskImage(scope);
  }

  private static Step liveIso(ConfigScope scope) {
    Machine machine = scope.machine().get();
    InfraEnv infraEnv = scope.infraEnv().get();
    String isoUrl = DiscoveryImage.isoUrl(infraEnv).orElse(null);
    if (isoUrl == null) {
      return refused(infraEnv)
          .orElse(
              waiting(
                  Reasons.WAITING_FOR_DISCOVERY_IMAGE,
                  "waiting for assisted-service to create the discovery ISO of InfraEnv "
                      + Metadata.name(infraEnv)));
    }
    if (!Hosts.isMetal3(machine)) {
      return waiting(
          Reasons.UNSUPPORTED_INFRASTRUCTURE,
          "the LiveISO boot mode needs a Metal3Machine as the Machine's spec.infrastructureRef");
    }
    if (scope.metal3Machine().isEmpty()) {
      return waiting(
          Reasons.WAITING_FOR_INFRASTRUCTURE_MACHINE,
          "waiting for Metal3Machine " + machine.getSpec().infrastructureRef.name);
    }
    Metal3Machine metal3Machine = scope.metal3Machine().get();
    if (DiscoveryImage.bootsLiveIso(metal3Machine, isoUrl) && scope.dataSecretExists()) {
      return new Report(Outcome.ready(Names.dataSecret(scope.config())));
    }
    return new BootLiveIso(metal3Machine, isoUrl);
  }

  /**
   * For a config whose bootstrap data is made: the regenerated image a live ISO must follow while
   * no host has taken it, if any.
   */
  static Optional<Step> followIso(ConfigScope scope) {
    if (scope.bootMode() != BootMode.LIVE_ISO || !Hosts.isMetal3(scope.machine().get())) {
      return Optional.empty();
    }
    Optional<String> isoUrl = scope.infraEnv().flatMap(DiscoveryImage::isoUrl);
    return isoUrl.flatMap(
        url ->
            scope
                .metal3Machine()
                .filter(m3m -> Hosts.hostReference(m3m).isEmpty())
                .filter(m3m -> !DiscoveryImage.bootsLiveIso(m3m, url))
                .map(m3m -> new FollowIso(m3m, url)));
  }

  private static Step diskImage(ConfigScope scope) {
    if (scope.dataSecretExists()) {
      return new Report(Outcome.ready(Names.dataSecret(scope.config())));
    }
    InfraEnv infraEnv = scope.infraEnv().get();
    String discoveryIgnitionUrl = DiscoveryImage.ignitionUrl(infraEnv).orElse(null);
    String eventsUrl = DiscoveryImage.eventsUrl(infraEnv).orElse(null);
    if (discoveryIgnitionUrl == null && eventsUrl == null) {
      Optional<Step> refused = refused(infraEnv);
      if (refused.isPresent()) {
        return refused.get();
      }
      return waiting(
          Reasons.WAITING_FOR_DISCOVERY_IGNITION,
          "waiting for assisted-service to publish the discovery ignition of InfraEnv "
              + Metadata.name(infraEnv));
    }
    int urls = FailedDownload.urls(discoveryIgnitionUrl, eventsUrl);
    Optional<FailedDownload> heldBack =
        scope.lastFailedDownload().filter(failure -> failure.holdsBack(urls, scope.now()));
    if (heldBack.isPresent()) {
      return new Report(DiskImageBoot.outcome(heldBack.get(), scope.now()));
    }
    return new DownloadIgnition(discoveryIgnitionUrl, eventsUrl);
  }

  /**
   * While the image is missing: assisted-service's refusal of the InfraEnv's spec, in its words,
   * and where the value it refused comes from. The config's spec is immutable, so the fix is a new
   * config (the template or the control plane's config spec, and a new Machine), or the InfraEnv's
   * spec corrected in place, which we never write back.
   */
  private static Optional<Step> refused(InfraEnv infraEnv) {
    return DiscoveryImage.refusal(infraEnv)
        .map(
            message ->
                waiting(
                    Reasons.DISCOVERY_IMAGE_REFUSED,
                    "assisted-service refused to create the discovery image of InfraEnv "
                        + Metadata.name(infraEnv)
                        + ": "
                        + message
                        + "; the value it names comes from this config's spec ("
                        + String.join(", ", DesiredInfraEnv.FROM_CONFIG)
                        + "), which is immutable: fix it where the config was made from (the"
                        + " control plane's spec.openshiftAssistedConfigSpec or the"
                        + " OpenshiftAssistedConfigTemplate) for new Machines, or in InfraEnv "
                        + Metadata.name(infraEnv)
                        + "'s spec for this one"));
  }
}
