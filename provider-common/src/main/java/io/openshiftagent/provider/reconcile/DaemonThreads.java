package io.openshiftagent.provider.reconcile;

import java.util.concurrent.ThreadFactory;

/** Threads of the providers' own pools: daemons, so that none keeps a stopping process alive. */
public final class DaemonThreads {
  private DaemonThreads() {}

  /** Makes daemon threads named {@code name} (the name a thread dump and the logs show). */
  public static ThreadFactory named(String name) {
    return r -> {
      Thread thread = new Thread(r, name);
      thread.setDaemon(true);
      return thread;
    };
  }
}
