package io.openshiftagent.provider.contract;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

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
}
