package io.openshiftagent.controlplane.inplace;

import java.util.Optional;

/** Where a Machine's kubelet version is read: its Node in the installed cluster. */
@FunctionalInterface
public interface Kubelets {
  /**
   * The kubelet of Machine {@code namespace/name} of cluster {@code clusterName}: its Node's name
   * and version, or why it cannot be read now.
   */
  Look look(String namespace, String name, String clusterName);

  /** A Node's kubelet version, or why none was read. */
  record Look(String node, Optional<String> version, String why) {
    static Look of(String node, String version) {
      return new Look(node, Optional.of(version), "");
    }

    static Look unknown(String why) {
      return new Look("", Optional.empty(), why);
    }
  }
}
