package io.openshiftagent.assisted;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class RedactionTest {

  @Test
  void replacesTokenQueryParametersWhateverTheirPosition() {
    assertThat(Redaction.redact("GET /v2/events?api_key=abc.def&infra_env_id=1 failed"))
        .isEqualTo("GET /v2/events?api_key=REDACTED&infra_env_id=1 failed");
    assertThat(Redaction.redact("x?infra_env_id=1&API_KEY=abc"))
        .isEqualTo("x?infra_env_id=1&API_KEY=REDACTED");
    assertThat(Redaction.redact("/images/x?image_token=abc&arch=x86_64"))
        .isEqualTo("/images/x?image_token=REDACTED&arch=x86_64");
  }

  @Test
  void replacesAJwtFoundAnywhere() {
    assertThat(
            Redaction.redact(
                "token eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJ4In0.c2lnbmF0dXJl, then more text"))
        .isEqualTo("token REDACTED, then more text");
  }

  @Test
  void leavesTextWithoutTokensAlone() {
    String text = "assisted-service at https://h:8443/api/assisted-install answered HTTP 500";
    assertThat(Redaction.redact(text)).isEqualTo(text);
    assertThat(Redaction.redact(null)).isNull();
  }

  @Test
  void everyExceptionMessageIsRedacted() {
    AssistedServiceException failure =
        new AssistedServiceException(
            AssistedServiceException.Reason.UNREACHABLE, "cannot reach https://h/x?api_key=secret");

    assertThat(failure.getMessage()).isEqualTo("cannot reach https://h/x?api_key=REDACTED");
    assertThat(failure.toString()).doesNotContain("secret");
  }
}
