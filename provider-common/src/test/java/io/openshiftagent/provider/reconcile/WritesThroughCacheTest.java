package io.openshiftagent.provider.reconcile;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import io.fabric8.kubernetes.client.KubernetesClientException;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** A write through the read-your-writes cache is conditional, and falls back outside it. */
class WritesThroughCacheTest {
  private final List<String> cached = new ArrayList<>();
  private final List<String> versionsWritten = new ArrayList<>();

  /** Records what went through it, as java-operator-sdk's cache would keep it. */
  private final Writes.Cache<ConfigMap> cache =
      (object, write) -> {
        ConfigMap stored = write.apply(object);
        cached.add(stored.getMetadata().getResourceVersion());
        return stored;
      };

  private static ConfigMap at(String version) {
    return new ConfigMapBuilder()
        .withNewMetadata()
        .withName("a")
        .withNamespace("ns")
        .withResourceVersion(version)
        .endMetadata()
        .build();
  }

  @Test
  void theWriteRequiresTheVersionItWasDecidedOnAndItsAnswerIsCached() {
    ConfigMap stored =
        Writes.throughCache(
            cache,
            at("10"),
            version -> {
              versionsWritten.add(version);
              return at("11");
            });

    assertThat(stored.getMetadata().getResourceVersion()).isEqualTo("11");
    assertThat(versionsWritten).containsExactly("10");
    assertThat(cached).containsExactly("11");
  }

  @Test
  void anObjectChangedMeanwhileIsWrittenAgainWithoutConditionAndWithoutTheCache() {
    ConfigMap stored =
        Writes.throughCache(
            cache,
            at("10"),
            version -> {
              versionsWritten.add(version);
              if (version != null) {
                throw new KubernetesClientException("changed", 409, null);
              }
              return at("12");
            });

    assertThat(stored.getMetadata().getResourceVersion()).isEqualTo("12");
    assertThat(versionsWritten).containsExactly("10", null);
    assertThat(cached).as("the second write bypasses the cache").isEmpty();
  }

  @Test
  void otherFailuresAreNotRetried() {
    assertThatThrownBy(
            () ->
                Writes.throughCache(
                    cache,
                    at("10"),
                    version -> {
                      versionsWritten.add(version);
                      throw new KubernetesClientException("forbidden", 403, null);
                    }))
        .isInstanceOf(KubernetesClientException.class);
    assertThat(versionsWritten).containsExactly("10");
  }
}
