package io.openshiftagent.provider.contract;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class ObjectNamesTest {

  @Test
  void aNameThatFitsIsKept() {
    assertThat(ObjectNames.fit("ocp1-cp-x7k2p", 63)).isEqualTo("ocp1-cp-x7k2p");
  }

  @Test
  void aLongNameIsCutAndHashedToFitAndStaysDistinct() {
    String a = "a".repeat(70) + "-one";
    String b = "a".repeat(70) + "-two";
    assertThat(ObjectNames.labelValue(a))
        .hasSize(63)
        .startsWith("aaaa")
        .isNotEqualTo(ObjectNames.labelValue(b));
    assertThat(ObjectNames.labelValue(a)).isEqualTo(ObjectNames.labelValue(a));
  }

  @Test
  void theCutNeverEndsInAPunctuationBeforeTheHash() {
    String name = "x".repeat(51) + "-.-" + "y".repeat(20);
    assertThat(ObjectNames.fit(name, 63)).matches("x{51}-[0-9a-f]{10}");
  }

  @ParameterizedTest(name = "{0}: {1}")
  @CsvSource({
    "pull-secret, true",
    "a, true",
    "registry.conf-1, true",
    "0abc.d9, true",
    "'', false",
    "Pull-Secret, false",
    "-pull, false",
    "pull-, false",
    "a..b, false",
    ".a, false",
    "a., false",
    "pull_secret, false",
    "'pull secret', false",
    "a/b, false",
  })
  void anObjectNameIsADns1123Subdomain(String name, boolean valid) {
    assertThat(ObjectNames.isObjectName(name)).isEqualTo(valid);
  }

  @Test
  void anObjectNameIsAtMost253Characters() {
    String label = "a".repeat(63);
    String longest = String.join(".", label, label, label, "b".repeat(61));
    assertThat(longest).hasSize(253);
    assertThat(ObjectNames.isObjectName(longest)).isTrue();
    assertThat(ObjectNames.isObjectName(longest + "c")).isFalse();
  }
}
