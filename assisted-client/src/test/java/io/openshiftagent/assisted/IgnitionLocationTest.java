package io.openshiftagent.assisted;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import io.openshiftagent.assisted.AssistedServiceException.Reason;
import java.net.URI;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class IgnitionLocationTest {

  static final String ID = "6a1b2c3d-4e5f-4a6b-8c7d-9e0f1a2b3c4d";
  static final String KEY = "eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJ4In0.c2lnbmF0dXJlLXNlY3JldA";

  @Test
  void readsRootIdAndKeyFromTheDiscoveryIgnitionUrl() throws Exception {
    IgnitionLocation location =
        IgnitionLocation.fromDiscoveryIgnitionUrl(
            "https://assisted.example.com/api/assisted-install/v2/infra-envs/"
                + ID
                + "/downloads/files?file_name=discovery.ign&api_key="
                + KEY);

    assertThat(location.restRoot())
        .isEqualTo(URI.create("https://assisted.example.com/api/assisted-install"));
    assertThat(location.infraEnvId()).isEqualTo(ID);
    assertThat(location.apiKey()).contains(KEY);
  }

  @Test
  void readsRootIdAndKeyFromTheEventsUrlKeepingPortAndPathPrefix() throws Exception {
    IgnitionLocation location =
        IgnitionLocation.fromEventsUrl(
            "https://assisted.example.com:8443/prefix/api/assisted-install/v2/events?api_key="
                + KEY
                + "&infra_env_id="
                + ID);

    assertThat(location.restRoot())
        .isEqualTo(URI.create("https://assisted.example.com:8443/prefix/api/assisted-install"));
    assertThat(location.infraEnvId()).isEqualTo(ID);
    assertThat(location.apiKey()).contains(KEY);
  }

  @Test
  void bothUrlsOfTheSameInfraEnvGiveTheSameLocation() throws Exception {
    String root = "https://assisted.example.com/api/assisted-install";
    assertThat(
            IgnitionLocation.fromDiscoveryIgnitionUrl(
                root
                    + "/v2/infra-envs/"
                    + ID
                    + "/downloads/files?file_name=discovery.ign&api_key="
                    + KEY))
        .isEqualTo(
            IgnitionLocation.fromEventsUrl(
                root + "/v2/events?infra_env_id=" + ID + "&api_key=" + KEY));
  }

  @Test
  void anUnsignedUrlHasNoApiKey() throws Exception {
    IgnitionLocation location =
        IgnitionLocation.fromDiscoveryIgnitionUrl(
            "https://h/api/assisted-install/v2/infra-envs/"
                + ID
                + "/downloads/files?file_name=discovery.ign");

    assertThat(location.apiKey()).isEmpty();
  }

  @Test
  void prefersTheDiscoveryIgnitionUrlAndFallsBackToTheEventsUrl() throws Exception {
    String discovery =
        "https://new.example.com/api/assisted-install/v2/infra-envs/" + ID + "/downloads/files";
    String events = "https://old.example.com/api/assisted-install/v2/events?infra_env_id=" + ID;

    assertThat(IgnitionLocation.fromInfraEnvStatus(discovery, events).restRoot().getHost())
        .isEqualTo("new.example.com");
    assertThat(IgnitionLocation.fromInfraEnvStatus(null, events).restRoot().getHost())
        .isEqualTo("old.example.com");
    assertThat(IgnitionLocation.fromInfraEnvStatus("  ", events).restRoot().getHost())
        .isEqualTo("old.example.com");
  }

  @Test
  void anInfraEnvStatusWithNeitherUrlIsAnInvalidUrlThatIsNotRetryable() {
    AssistedServiceException failure =
        catchThrowableOfType(
            AssistedServiceException.class, () -> IgnitionLocation.fromInfraEnvStatus(null, ""));

    assertThat(failure.reason()).isEqualTo(Reason.INVALID_URL);
    assertThat(failure.conditionReason()).isEqualTo("InvalidURL");
    assertThat(failure.retryable()).isFalse();
  }

  @ParameterizedTest
  @ValueSource(
      strings = {
        "ftp://h/api/assisted-install/v2/infra-envs/" + ID + "/downloads/files?api_key=" + KEY,
        "https://h/api/assisted-install/v2/infra-envs/" + ID + "/downloads/other?api_key=" + KEY,
        "https://h/api/assisted-install/v2/infra-envs/not-a-uuid/downloads/files?api_key=" + KEY,
        "https://h/api/assisted-install/v2/infra-envs/"
            + ID
            + "/downloads/files?file_name=ipxe-script&api_key="
            + KEY,
        "https://h/v2/infra-envs/" + ID + "/downloads/files?api_key=" + KEY + "#x y",
        "/api/assisted-install/v2/infra-envs/" + ID + "/downloads/files?api_key=" + KEY
      })
  void aDiscoveryIgnitionUrlNotPublishedByAssistedServiceIsRejectedWithoutShowingTheKey(
      String url) {
    AssistedServiceException failure =
        catchThrowableOfType(
            AssistedServiceException.class, () -> IgnitionLocation.fromDiscoveryIgnitionUrl(url));

    assertThat(failure.reason()).isEqualTo(Reason.INVALID_URL);
    assertThat(failure.getMessage()).doesNotContain("c2lnbmF0dXJlLXNlY3JldA");
  }

  @ParameterizedTest
  @ValueSource(
      strings = {
        "https://h/api/assisted-install/v2/events?api_key=" + KEY,
        "https://h/api/assisted-install/v2/clusters?api_key=" + KEY + "&infra_env_id=" + ID,
        "https://h/api/assisted-install/v2/events?api_key=" + KEY + "&infra_env_id=../../x",
      })
  void anEventsUrlWithoutAnInfraEnvIdIsRejectedWithoutShowingTheKey(String url) {
    AssistedServiceException failure =
        catchThrowableOfType(
            AssistedServiceException.class, () -> IgnitionLocation.fromEventsUrl(url));

    assertThat(failure.reason()).isEqualTo(Reason.INVALID_URL);
    assertThat(failure.getMessage()).doesNotContain("c2lnbmF0dXJlLXNlY3JldA");
  }

  @Test
  void aServiceRootOverrideReplacesSchemeHostPortAndPrefixButKeepsIdAndKey() throws Exception {
    IgnitionLocation published =
        IgnitionLocation.fromEventsUrl(
            "https://assisted.apps.example.com/x/api/assisted-install/v2/events?api_key="
                + KEY
                + "&infra_env_id="
                + ID);

    IgnitionLocation internal =
        published.withServiceRoot(URI.create("http://assisted-service.mce.svc:8090/"));

    assertThat(internal.restRoot())
        .isEqualTo(URI.create("http://assisted-service.mce.svc:8090/api/assisted-install"));
    assertThat(internal.infraEnvId()).isEqualTo(ID);
    assertThat(internal.apiKey()).contains(KEY);
  }

  @Test
  void aServiceRootOverrideThatIsNotAnHttpUrlIsAnInvalidUrl() throws Exception {
    IgnitionLocation published =
        IgnitionLocation.fromEventsUrl(
            "https://h/api/assisted-install/v2/events?infra_env_id=" + ID);

    assertThat(
            catchThrowableOfType(
                    AssistedServiceException.class,
                    () -> published.withServiceRoot(URI.create("assisted-service:8090")))
                .reason())
        .isEqualTo(Reason.INVALID_URL);
  }

  @Test
  void toStringShowsWhereButNeverTheKey() throws Exception {
    IgnitionLocation location =
        IgnitionLocation.fromEventsUrl(
            "https://h/api/assisted-install/v2/events?api_key=" + KEY + "&infra_env_id=" + ID);

    assertThat(location.toString())
        .contains("https://h/api/assisted-install")
        .contains(ID)
        .doesNotContain("c2lnbmF0dXJlLXNlY3JldA");
  }
}
