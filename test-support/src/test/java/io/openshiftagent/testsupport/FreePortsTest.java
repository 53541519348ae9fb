package io.openshiftagent.testsupport;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class FreePortsTest {
  @Test
  void portsAreBelowTheEphemeralRangeBindableAndNeverHandedOutTwice() throws Exception {
    Set<Integer> ports = new HashSet<>();
    for (int i = 0; i < 200; i++) {
      int port = FreePorts.next();
      assertThat(port).isBetween(FreePorts.LOWEST, FreePorts.ephemeralRangeStart() - 1);
      assertThat(ports.add(port)).as("port %d handed out twice", port).isTrue();
    }
    int port = FreePorts.next();
    try (ServerSocket socket = new ServerSocket()) {
      socket.bind(new InetSocketAddress("127.0.0.1", port));
      assertThat(socket.getLocalPort()).isEqualTo(port);
    }
  }

  @Test
  void aPortSomeoneListensOnIsSkipped() throws Exception {
    int taken = FreePorts.next();
    try (ServerSocket listening = new ServerSocket()) {
      listening.bind(new InetSocketAddress("127.0.0.1", taken + 1));
      for (int i = 0; i < 50; i++) {
        assertThat(FreePorts.next()).isNotEqualTo(taken + 1);
      }
    }
  }

  /** Locks the file named by its argument as FreePorts does, says so, and holds it until killed. */
  private static final String OTHER_JVM =
      """
      import java.nio.channels.FileChannel;
      import java.nio.file.*;

      public class HoldPort {
        public static void main(String[] args) throws Exception {
          FileChannel file =
              FileChannel.open(Path.of(args[0]), StandardOpenOption.CREATE, StandardOpenOption.WRITE);
          if (file.tryLock() == null) {
            System.exit(1);
          }
          System.out.println("held");
          Thread.sleep(Long.MAX_VALUE);
        }
      }
      """;

  @Test
  void aPortAnotherTestJvmHandedOutIsNotHandedOutHereUntilThatJvmExits(@TempDir Path dir)
      throws Exception {
    int port = FreePorts.LOWEST - 1; // never handed out by FreePorts.next()
    Files.createDirectories(FreePorts.CLAIMS);
    Path source = Files.writeString(dir.resolve("HoldPort.java"), OTHER_JVM);
    Process other =
        new ProcessBuilder(
                Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                source.toString(),
                FreePorts.CLAIMS.resolve(Integer.toString(port)).toString())
            .redirectErrorStream(true)
            .start();
    try {
      BufferedReader output =
          new BufferedReader(new InputStreamReader(other.getInputStream(), StandardCharsets.UTF_8));
      assertThat(output.readLine()).isEqualTo("held");
      assertThat(FreePorts.claimed(port)).as("claimed while the other JVM holds it").isFalse();
    } finally {
      other.destroyForcibly().waitFor();
    }
    assertThat(FreePorts.claimed(port)).as("claimed once the other JVM is gone").isTrue();
  }
}
