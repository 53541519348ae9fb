package io.openshiftagent.provider.runtime;

import java.util.UUID;

/**
 * Who a provider process is to the API server: the replica (named in the leader-election Lease and,
 * through the user agent, in the audit log), and the providers' version.
 */
final class ProcessIdentity {
  private ProcessIdentity() {}

  /** This replica: its pod's name and a random suffix, which tells restarts of one pod apart. */
  static String replica() {
    String pod = System.getenv("POD_NAME");
    if (pod == null || pod.isBlank()) {
      pod = System.getenv("HOSTNAME");
    }
    String suffix = UUID.randomUUID().toString().substring(0, 8);
    return (pod == null || pod.isBlank() ? "provider" : pod) + "_" + suffix;
  }

  /** The reporting instance of Events: the pod's name, else the provider's command. */
  static String pod(ProviderRuntime.Provider provider) {
    for (String name : new String[] {"POD_NAME", "HOSTNAME"}) {
      String value = System.getenv(name);
      if (value != null && !value.isBlank()) {
        return value;
      }
    }
    return provider.command();
  }

  /**
   * The HTTP user agent of the provider's Kubernetes client: {@code
   * openshift-agent-bootstrap/<version> (<identity>)} or {@code
   * openshift-agent-controlplane/<version> (<identity>)}, the identity naming the replica in the
   * audit log as in the Lease.
   */
  static String userAgent(ProviderRuntime.Provider provider, String identity) {
    return "openshift-agent-"
        + provider.command().replaceFirst("-provider$", "")
        + "/"
        + version()
        + " ("
        + identity
        + ")";
  }

  /** The providers' version, from provider-common's jar; {@code dev} outside one. */
  static String version() {
    String version = ProcessIdentity.class.getPackage().getImplementationVersion();
    return version == null ? "dev" : version;
  }
}
