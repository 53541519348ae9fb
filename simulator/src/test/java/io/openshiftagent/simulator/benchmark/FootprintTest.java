package io.openshiftagent.simulator.benchmark;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

class FootprintTest {

  @Test
  void sumsTheHeapPoolsOfThePrometheusText() {
    String metrics =
        """
        # TYPE jvm_memory_used_bytes gauge
        jvm_memory_used_bytes{area="heap",id="Eden Space"} 1048576.0
        jvm_memory_used_bytes{area="nonheap",id="Metaspace"} 9.9E7
        jvm_memory_used_bytes{area="heap",id="Tenured Gen"} 2.097152E7
        """;
    assertThat(Footprint.heapUsedNow(metrics)).isEqualTo(1048576L + 20971520L);
  }

  @Test
  void takesTheHighestHeapBeforeAndAfterEachCollectionFromTheGcLog() {
    Footprint heap =
        Footprint.fromGcLog(
            List.of(
                "[0.007s] Using Serial",
                "[1.204s] GC(0) Pause Young (Allocation Failure) 8M->3M(29M) 6.120ms",
                "[3.517s] GC(1) Pause Young (Allocation Failure) 11M->5M(29M) 4.002ms",
                "[9.110s] GC(2) Pause Full (Allocation Failure) 27M->19M(45M) 60.5ms",
                "[12.00s] GC(3) Pause Young (Normal) (G1 Evacuation Pause) 40M->12M(64M) 2.1ms"));
    assertThat(heap.collections()).isEqualTo(4);
    assertThat(heap.peakHeapUsed()).isEqualTo(40L << 20);
    assertThat(heap.peakLiveHeap()).isEqualTo(19L << 20);
    assertThat(heap.peakHeapCommitted()).isEqualTo(64L << 20);
  }

  @Test
  void readsKilobytesMegabytesAndGigabytes() {
    assertThat(Footprint.bytes("512", "K")).isEqualTo(512L * 1024);
    assertThat(Footprint.bytes("45", "M")).isEqualTo(45L * 1024 * 1024);
    assertThat(Footprint.bytes("2", "G")).isEqualTo(2L * 1024 * 1024 * 1024);
  }
}
