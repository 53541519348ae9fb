package io.openshiftagent.testsupport;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** What {@link AuditLog} reads from one event, as the kube-apiserver writes it. */
class AuditLogParseTest {
  /** A slow create, with the latency annotations the server adds past half a second. */
  private static final String SLOW_CREATE =
      """
      {"kind":"Event","apiVersion":"audit.k8s.io/v1","level":"Metadata","auditID":"b140b2bd",\
      "stage":"ResponseComplete","verb":"create","user":{"username":"system:serviceaccount:s:m"},\
      "userAgent":"openshift-agent-controlplane/0.1.0","objectRef":{"resource":"agentclusterinstalls",\
      "namespace":"bench-03-4","name":"bench-03","apiGroup":"extensions.hive.openshift.io"},\
      "responseStatus":{"metadata":{},"code":201},\
      "requestReceivedTimestamp":"2026-12-01T05:52:49.483317Z",\
      "stageTimestamp":"2026-12-01T05:52:50.117028Z",\
      "annotations":{"apiserver.latency.k8s.io/authentication":"7.05µs",\
      "apiserver.latency.k8s.io/mutating-webhook":"204.633229ms",\
      "apiserver.latency.k8s.io/total":"633.699693ms",\
      "apiserver.latency.k8s.io/validating-webhook":"307.086886ms"}}""";

  @Test
  void readsTheTimeAnAdmittedRequestSpentInWebhooks() {
    AuditLog.Request create = AuditLog.parse(SLOW_CREATE);

    assertThat(create.resource()).isEqualTo("agentclusterinstalls");
    assertThat(Duration.between(create.received(), create.completed()))
        .isEqualTo(Duration.ofNanos(633_711_000));
    assertThat(create.webhooks()).contains(Duration.ofNanos(204_633_229 + 307_086_886));
  }

  @Test
  void aFastRequestHasNoWebhookTimeOnRecord() {
    String fast = SLOW_CREATE.replaceAll(",\\s*\"annotations\":\\{[^}]*}", "");

    assertThat(AuditLog.parse(fast).webhooks()).isEmpty();
  }

  @ParameterizedTest
  @CsvSource({
    "851ns, 851",
    "50.956µs, 50956",
    "204.633229ms, 204633229",
    "1.025444464s, 1025444464",
    "1m2.5s, 62500000000",
    "1h0m0s, 3600000000000"
  })
  void readsGoDurations(String text, long nanos) {
    assertThat(AuditLog.goDuration(text)).isEqualTo(Duration.ofNanos(nanos));
  }

  @Test
  void refusesWhatIsNotAGoDuration() {
    assertThatThrownBy(() -> AuditLog.goDuration("12 parsecs"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("12 parsecs");
  }
}
