package io.openshiftagent.assisted;

import static org.assertj.core.api.Assertions.assertThat;

import io.openshiftagent.testsupport.ClassSizes;
import org.junit.jupiter.api.Test;

/** No class of this module is longer than {@link ClassSizes#LIMIT} lines. */
class ClassSizeTest {
  @Test
  void noClassIsOverTheLimit() {
    assertThat(ClassSizes.overTheLimit()).isEmpty();
  }
}
