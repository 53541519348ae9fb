package io.openshiftagent.registry;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;
import java.util.Base64;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class PullSecretTest {
  private static String auth(String user, String password) {
    return Base64.getEncoder()
        .encodeToString((user + ":" + password).getBytes(StandardCharsets.UTF_8));
  }

  private static final PullSecret SECRET =
      PullSecret.parse(
          ("{\"auths\":{"
                  + "\"quay.io\":{\"auth\":\""
                  + auth("registry-user", "p1")
                  + "\"},"
                  + "\"quay.io/openshift-release-dev\":{\"auth\":\""
                  + auth("release-user", "p2")
                  + "\"},"
                  + "\"https://mirror.example:5000/v1/\":{\"auth\":\""
                  + auth("mirror-user", "p:3")
                  + "\"},"
                  + "\"registry.example\":{\"username\":\"u4\",\"password\":\"p4\"}"
                  + "}}")
              .getBytes(StandardCharsets.UTF_8));

  @ParameterizedTest
  @CsvSource({
    "quay.io/openshift-release-dev/ocp-release:4.20.0-x86_64, release-user, p2",
    "quay.io/okd/scos-release:4.19.0-okd-scos.1, registry-user, p1",
    "mirror.example:5000/ocp/release:4.20.0-x86_64, mirror-user, p:3",
    "registry.example/a:1, u4, p4",
  })
  void theMostSpecificEntryWins(String image, String user, String password) {
    PullSecret.Credential credential =
        SECRET.credentialFor(ImageReference.parse(image)).orElseThrow();

    assertThat(credential.username()).isEqualTo(user);
    assertThat(credential.password()).isEqualTo(password);
  }

  @Test
  void anotherRegistryHasNoCredential() {
    assertThat(SECRET.credentialFor(ImageReference.parse("mirror.example:6000/a:1"))).isEmpty();
    assertThat(SECRET.credentialFor(ImageReference.parse("quay.io.evil.example/a:1"))).isEmpty();
  }

  @Test
  void nothingPrintsACredential() {
    assertThat(SECRET.toString()).doesNotContain("p1").doesNotContain("registry-user");
    assertThat(SECRET.credentialFor(ImageReference.parse("quay.io/a:1")).orElseThrow().toString())
        .isEqualTo("Credential[redacted]");
  }

  @ParameterizedTest
  @CsvSource(
      delimiter = '|',
      value = {
        "not json | it is not JSON",
        "{} | no \"auths\" object",
        "{\"auths\":{\"quay.io\":{\"auth\":\"%%%secret%%%\"}}} | the auth of quay.io is not base64",
        "{\"auths\":{\"quay.io\":{\"auth\":\"c2VjcmV0\"}}} | the auth of quay.io is not username:password",
        "{\"auths\":{\"quay.io\":{}}} | the entry quay.io has neither auth nor username",
      })
  void aMalformedPullSecretIsRefusedWithoutShowingItsContent(String json, String problem) {
    assertThatThrownBy(() -> PullSecret.parse(json.getBytes(StandardCharsets.UTF_8)))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining(problem)
        .message()
        .doesNotContain("secret");
  }
}
