package io.openshiftagent.simulator.benchmark;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.stream.LongStream;
import org.junit.jupiter.api.Test;

class PercentilesTest {

  @Test
  void nearestRankOfOneToHundred() {
    Percentiles p = Percentiles.of(LongStream.rangeClosed(1, 100).boxed().toList());
    assertThat(p).isEqualTo(new Percentiles(100, 50, 95, 100));
  }

  @Test
  void smallSetsReportTheirLargestValuesAsP95() {
    assertThat(Percentiles.of(List.of(30L, 10L, 20L))).isEqualTo(new Percentiles(3, 20, 30, 30));
    assertThat(Percentiles.of(List.of(7L))).isEqualTo(new Percentiles(1, 7, 7, 7));
  }

  @Test
  void noValuesIsACountOfZero() {
    assertThat(Percentiles.of(List.of()).count()).isZero();
  }
}
