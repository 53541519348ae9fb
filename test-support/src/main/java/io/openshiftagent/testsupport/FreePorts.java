package io.openshiftagent.testsupport;

import java.io.BufferedReader;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.channels.OverlappingFileLockException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Free TCP ports for the processes tests start, taken below the kernel's ephemeral range. A port
 * found free is released before the process binds it; in the ephemeral range the kernel may give it
 * meanwhile to any socket bound to port 0 or to an outgoing connection, of any process (an etcd
 * started by another test JVM then failed with its port taken). Below that range only another
 * caller of this class competes: each JVM starts at a random place in the range and goes up, hands
 * out a port at most once, and first takes a lock on a file named after it ({@link #CLAIMS}), held
 * until the JVM exits, so that two test JVMs running side by side never hand out the same port.
 */
public final class FreePorts {
  /** The lowest port handed out: above the well-known and most registered services' ports. */
  static final int LOWEST = 20000;

  private static final int END = ephemeralRangeStart();
  private static final Set<Integer> GIVEN = ConcurrentHashMap.newKeySet();
  private static final AtomicInteger NEXT =
      new AtomicInteger(ThreadLocalRandom.current().nextInt(END - LOWEST));

  /** Where each JVM locks a file per port it hands out; the kernel drops the locks at its exit. */
  static final Path CLAIMS = Path.of(System.getProperty("java.io.tmpdir"), "openshift-agent-ports");

  private static final List<FileLock> HELD = new CopyOnWriteArrayList<>();

  private FreePorts() {}

  public static int next() {
    for (int tries = 0; tries < END - LOWEST; tries++) {
      int port = LOWEST + Math.floorMod(NEXT.getAndIncrement(), END - LOWEST);
      if (!GIVEN.contains(port) && free(port) && claimed(port) && GIVEN.add(port)) {
        return port;
      }
    }
    throw new IllegalStateException("no free port in " + LOWEST + "-" + (END - 1));
  }

  /** Whether this JVM now holds the port's lock: no other test JVM holds it or will hand it out. */
  static boolean claimed(int port) {
    FileChannel file = null;
    try {
      Files.createDirectories(CLAIMS);
      file =
          FileChannel.open(
              CLAIMS.resolve(Integer.toString(port)),
              StandardOpenOption.CREATE,
              StandardOpenOption.WRITE);
      FileLock lock = file.tryLock();
      if (lock != null) {
        HELD.add(lock);
        return true;
      }
    } catch (IOException | OverlappingFileLockException notOurs) {
      // another JVM's, or this one's already
    }
    closeQuietly(file);
    return false;
  }

  private static void closeQuietly(FileChannel file) {
    if (file != null) {
      try {
        file.close();
      } catch (IOException ignored) {
        // nothing held through it
      }
    }
  }

  /** Whether nothing listens on the port, on any address. */
  private static boolean free(int port) {
    try (ServerSocket socket = new ServerSocket()) {
      socket.setReuseAddress(false);
      socket.bind(new InetSocketAddress(port));
      return true;
    } catch (IOException taken) {
      return false;
    }
  }

  /** The first port of the kernel's ephemeral range ({@code net.ipv4.ip_local_port_range}). */
  static int ephemeralRangeStart() {
    // Read as a stream: /proc reports a size that Files.readString trusts, and cuts the line short.
    try (BufferedReader range =
        Files.newBufferedReader(Path.of("/proc/sys/net/ipv4/ip_local_port_range"))) {
      int start = Integer.parseInt(range.readLine().trim().split("\\s+")[0]);
      return start > LOWEST + 1000 ? start : 32768;
    } catch (IOException | RuntimeException e) {
      return 32768; // Linux's default
    }
  }
}
