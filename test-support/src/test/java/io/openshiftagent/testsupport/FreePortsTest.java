package io.openshiftagent.testsupport;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.util.HashSet;
import java.util.Set;
import org.junit.jupiter.api.Test;

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
}
