package io.openshiftagent.controlplane.cluster;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** assisted-service's refusals, in its own words, name the user's fields. */
class RefusedFieldsTest {
  @Test
  void theServicesWordsNameTheUsersField() {
    assertThat(
            RefusedFields.explained(
                "The Spec could not be synced due to an input error: Failed to parse"
                    + " 'agent-install.openshift.io/install-config-overrides' annotation: json:"
                    + " unknown field \"publish\""))
        .endsWith(
            "unknown field \"publish\"; check annotation"
                + " controlplane.cluster.x-k8s.io/install-config-override (with"
                + " spec.config.capabilities)");
    assertThat(
            RefusedFields.of(
                "The Spec could not be synced due to an input error: Proxy URL format is not"
                    + " valid: 'proxy:3128'"))
        .containsExactly("spec.config.proxy");
    assertThat(
            RefusedFields.of(
                "The Spec could not be synced due to an input error: NO Proxy is a"
                    + " comma-separated list of destination domain names"))
        .containsExactly("spec.config.proxy");
    assertThat(
            RefusedFields.of(
                "The Spec could not be synced due to an input error: Tang URL isn't valid"))
        .containsExactly("spec.config.diskEncryption");
    assertThat(
            RefusedFields.of(
                "The Spec could not be synced due to an input error: Malformed SSH key: ssh-rsa"
                    + " notakey user@example: ssh: no key found"))
        .containsExactly("spec.config.sshAuthorizedKey");
    assertThat(
            RefusedFields.of(
                "The Spec could not be synced due to an input error: Second machine network has"
                    + " to be IPv6 subnet"))
        .containsExactly("spec.config.machineNetworks");
  }

  @Test
  void wordsNamingNoFieldAreLeftAsTheyAre() {
    assertThat(RefusedFields.explained("The Spec could not be synced: something else"))
        .isEqualTo("The Spec could not be synced: something else");
  }
}
