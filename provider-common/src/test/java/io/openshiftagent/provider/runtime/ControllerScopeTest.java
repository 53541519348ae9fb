package io.openshiftagent.provider.runtime;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Optional;
import java.util.Set;
import org.junit.jupiter.api.Test;

class ControllerScopeTest {
  private final ControllerScope shard = new ControllerScope(Set.of(), Optional.of("shard-a"));

  @Test
  void withoutAWatchFilterAWatchSelectsWhatItAlwaysDid() {
    assertThat(ControllerScope.EVERYTHING.selector(null)).isNull();
    assertThat(ControllerScope.EVERYTHING.selector("app=x")).isEqualTo("app=x");
  }

  @Test
  void aWatchFilterIsAddedToEveryWatch() {
    assertThat(shard.selector(null)).isEqualTo("cluster.x-k8s.io/watch-filter=shard-a");
    assertThat(shard.selector("")).isEqualTo("cluster.x-k8s.io/watch-filter=shard-a");
    assertThat(shard.selector("app=x")).isEqualTo("app=x,cluster.x-k8s.io/watch-filter=shard-a");
  }
}
