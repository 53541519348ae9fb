package io.openshiftagent.simulator;

import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * Stops every process this JVM started, and theirs, when the JVM ends however it ends short of a
 * SIGKILL (the end of the tests, an exception, Ctrl-C, SIGTERM): one shutdown hook sends SIGTERM to
 * every descendant of the JVM (the world's managers and providers, the API servers and their etcd),
 * then SIGKILL to what is left 10 s later. {@link World#close()} stops its parts in order first;
 * this is the net under it, e.g. when a world fails to start or the JVM is told to stop mid-test.
 */
public final class ChildProcesses {
  private static final Thread HOOK = new Thread(ChildProcesses::stopAll, "world-children-stop");

  static {
    Runtime.getRuntime().addShutdownHook(HOOK);
  }

  private ChildProcesses() {}

  /** Makes sure the hook is installed (once per JVM). */
  public static void stopAllWhenTheJvmExits() {
    // The static initializer did it.
  }

  private static void stopAll() {
    List<ProcessHandle> children = ProcessHandle.current().descendants().toList();
    children.forEach(ProcessHandle::destroy);
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
    for (ProcessHandle child : children) {
      long left = deadline - System.nanoTime();
      try {
        if (left > 0) {
          child.onExit().get(left, TimeUnit.NANOSECONDS);
        }
      } catch (Exception stillRunning) {
        // Killed below.
      }
      child.destroyForcibly();
    }
  }
}
