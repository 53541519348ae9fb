package io.openshiftagent.delivery;

import io.openshiftagent.testsupport.Command;
import io.openshiftagent.testsupport.TestPaths;
import java.nio.file.Path;

/** The real clients, pointed at one cluster: kubectl (kustomize built in) and clusterctl. */
final class Clients {
  private final Path kubeconfig;
  private final Path clusterctlConfig;
  private final Path home;

  /**
   * @param home where clusterctl keeps its overrides and cache, instead of the user's home
   */
  Clients(Path kubeconfig, Path clusterctlConfig, Path home) {
    this.kubeconfig = kubeconfig;
    this.clusterctlConfig = clusterctlConfig;
    this.home = home;
  }

  Command kubectl(Object... args) {
    return Command.of(prepend(args, TestPaths.kubectl(), "--kubeconfig=" + kubeconfig));
  }

  Command clusterctl(Object... args) {
    return Command.of(
            prepend(
                args,
                TestPaths.tool("clusterctl"),
                "--config=" + clusterctlConfig,
                "--kubeconfig=" + kubeconfig,
                "-v1"))
        .env("CLUSTERCTL_DISABLE_VERSIONCHECK", "true")
        .env("XDG_CONFIG_HOME", home.resolve(".config").toString())
        .env("HOME", home.toString());
  }

  private static Object[] prepend(Object[] args, Object... first) {
    Object[] all = new Object[first.length + args.length];
    System.arraycopy(first, 0, all, 0, first.length);
    System.arraycopy(args, 0, all, first.length, args.length);
    return all;
  }
}
