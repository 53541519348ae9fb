package io.openshiftagent.simulator;

import java.time.Instant;
import java.util.List;

/**
 * Trouble with the simulated assisted-service, for fault tests: its REST API answering slowly, with
 * 5xx or with garbage, for the InfraEnvs of one namespace at a time (so that several cases run side
 * by side in one world), the image of an InfraEnv regenerated under a new URL, and installations
 * that fail.
 */
public final class AssistedServiceTrouble {

  /** How the REST API answers the discovery-ignition downloads of a namespace's InfraEnvs. */
  public enum Fault {
    /** The answer comes after 35 s, longer than the client's 30 s read timeout. */
    SLOW,
    /** 503 with assisted-service's JSON error body, as when its database is away. */
    SERVER_ERROR,
    /**
     * 200 with a body that is no Ignition config, in turn: a proxy's plain-text error, the ignition
     * cut in half, an HTML sign-in page served as {@code text/html}.
     */
    GARBAGE
  }

  /**
   * One download request the REST API received.
   *
   * @param fault the fault it met, or null when it was answered normally
   */
  public record Download(String namespace, String infraEnvId, Instant at, Fault fault) {}

  private final AssistedService service;

  AssistedServiceTrouble(AssistedService service) {
    this.service = service;
  }

  /** From now on, every download of an InfraEnv in {@code namespace} meets {@code fault}. */
  public void fail(String namespace, Fault fault) {
    service.api().fail(namespace, fault);
  }

  /** The service answers the downloads of {@code namespace} normally again. */
  public void recover(String namespace) {
    service.api().recover(namespace);
  }

  /** Every download request of an InfraEnv in {@code namespace} so far, in arrival order. */
  public List<Download> downloads(String namespace) {
    return service.api().downloads(namespace);
  }

  /**
   * From now on every installation in {@code namespace} fails once it has started: its
   * AgentClusterInstall reports state {@code error} with {@code stateInfo}, and its hosts do not
   * install.
   */
  public void failInstallations(String namespace, String stateInfo) {
    service.failInstallations(namespace, stateInfo);
  }

  /**
   * Regenerates the image of InfraEnv {@code namespace/name}, as assisted-service does when the
   * InfraEnv's spec or its image token changes: {@code status.isoDownloadURL} changes. Returns the
   * new URL.
   */
  public String regenerateImage(String namespace, String infraEnv) {
    return service.regenerateImage(namespace, infraEnv);
  }
}
