package io.openshiftagent.bootstrap.config;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.time.Instant;
import org.junit.jupiter.api.Test;

class FailedDownloadTest {
  private static final Instant START = Instant.parse("2026-11-21T10:00:00Z");
  private static final int URLS = FailedDownload.urls("https://a/ign?api_key=1", null);
  private static final int NEW_URLS = FailedDownload.urls("https://a/ign?api_key=2", null);

  @Test
  void theSameUrlsWaitForTheBackoffAndTheWaitsGrowWhileTheyFail() {
    FailedDownload first = FailedDownload.after(null, URLS, START, "R", "m", true);
    assertThat(first.holdsBack(URLS, START.plusSeconds(4))).isTrue();
    assertThat(first.holdsBack(URLS, START.plusSeconds(5))).isFalse();
    assertThat(first.untilNextTry(START.plusSeconds(1))).isEqualTo(Duration.ofSeconds(4));

    FailedDownload later = FailedDownload.after(first, URLS, START.plusSeconds(20), "R", "m", true);
    assertThat(later.failingSince()).isEqualTo(START);
    assertThat(later.nextTry()).isEqualTo(START.plusSeconds(40));
    assertThat(later.untilNextTry(START.plusSeconds(60))).isZero();
  }

  @Test
  void newUrlsAreTriedAtOnceAndStartANewBackoff() {
    FailedDownload failed =
        FailedDownload.after(null, URLS, START.minusSeconds(60), "R", "m", false);
    FailedDownload again = FailedDownload.after(failed, URLS, START, "R", "m", false);
    assertThat(again.holdsBack(NEW_URLS, START)).isFalse();

    FailedDownload withNewUrls = FailedDownload.after(again, NEW_URLS, START, "R", "m", false);
    assertThat(withNewUrls.failingSince()).isEqualTo(START);
    assertThat(withNewUrls.nextTry()).isEqualTo(START.plus(Backoff.FIRST));
  }

  @Test
  void theUrlsAreNotKeptOnlyAValueThatTellsThemApart() {
    FailedDownload failed = FailedDownload.after(null, URLS, START, "R", "m", true);
    assertThat(failed.toString()).doesNotContain("api_key");
    assertThat(URLS).isNotEqualTo(NEW_URLS);
  }
}
