package io.openshiftagent.testsupport;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.ServerSocket;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Free TCP ports for the processes tests start. A port is handed out at most once per JVM: two
 * picks of a just-freed port must not go to two processes.
 */
public final class FreePorts {
  private static final Set<Integer> GIVEN = ConcurrentHashMap.newKeySet();

  private FreePorts() {}

  public static int next() {
    while (true) {
      try (ServerSocket socket = new ServerSocket(0)) {
        if (GIVEN.add(socket.getLocalPort())) {
          return socket.getLocalPort();
        }
      } catch (IOException e) {
        throw new UncheckedIOException("no free port", e);
      }
    }
  }
}
