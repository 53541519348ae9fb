package io.openshiftagent.registry;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import org.junit.jupiter.api.Test;

/** The pull order containers-registries.conf(5) gives, for tags and for digests. */
class RegistriesConfTest {
  private static final String DIGEST =
      "sha256:0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef";

  private static final RegistriesConf CONF =
      RegistriesConf.parse(
          """
          # a disconnected hub's mirrors
          unqualified-search-registries = ["registry.example"]

          [[registry]]
          prefix = "quay.io/openshift-release-dev"
          location = "quay.io/openshift-release-dev"
          [[registry.mirror]]
          location = "mirror-a.example:5000/ocp" # tags and digests
          [[registry.mirror]]
          location = "mirror-b.example/ocp"
          pull-from-mirror = "digest-only"
          [[registry.mirror]]
          location = "mirror-c.example/ocp"
          pull-from-mirror = "tag-only"
          insecure = true

          [[registry]]
          prefix = ""
          location = "quay.io"
          [[registry.mirror]]
          location = "mirror-general.example/quay"

          [[registry]]
          location = "quay.io/okd"
          mirror-by-digest-only = true
          [[registry.mirror]]
          location = "mirror-okd.example/okd"

          [[registry]]
          location = "blocked.example"
          blocked = true
          """);

  private static List<String> order(String image) {
    return CONF.pullOrder(ImageReference.parse(image)).stream()
        .map(e -> e.reference() + (e.mirror() ? " mirror" : "") + (e.insecure() ? " insecure" : ""))
        .toList();
  }

  @Test
  void aTagGoesToTheMirrorsThatServeTagsInOrderThenToTheSource() {
    assertThat(order("quay.io/openshift-release-dev/ocp-release:4.20.0-x86_64"))
        .containsExactly(
            "mirror-a.example:5000/ocp/ocp-release:4.20.0-x86_64 mirror",
            "mirror-c.example/ocp/ocp-release:4.20.0-x86_64 mirror insecure",
            "quay.io/openshift-release-dev/ocp-release:4.20.0-x86_64");
  }

  @Test
  void aDigestGoesToTheMirrorsThatServeDigests() {
    assertThat(order("quay.io/openshift-release-dev/ocp-release@" + DIGEST))
        .containsExactly(
            "mirror-a.example:5000/ocp/ocp-release@" + DIGEST + " mirror",
            "mirror-b.example/ocp/ocp-release@" + DIGEST + " mirror",
            "quay.io/openshift-release-dev/ocp-release@" + DIGEST);
  }

  @Test
  void theMostSpecificPrefixWins() {
    assertThat(order("quay.io/other/image:1"))
        .containsExactly(
            "mirror-general.example/quay/other/image:1 mirror", "quay.io/other/image:1");
  }

  @Test
  void mirrorByDigestOnlyKeepsTagsAtTheSource() {
    assertThat(order("quay.io/okd/scos-release:4.19.0-okd-scos.1"))
        .containsExactly("quay.io/okd/scos-release:4.19.0-okd-scos.1");
  }

  @Test
  void aPrefixMatchesWholePathComponentsOnly() {
    assertThat(order("quay.io.example/a:1")).containsExactly("quay.io.example/a:1");
  }

  @Test
  void aBlockedRegistryIsRefused() {
    assertThatThrownBy(() -> order("blocked.example/a:1"))
        .hasMessageContaining("blocks blocked.example (blocked = true)");
  }

  @Test
  void anUnknownPullFromMirrorIsRefused() {
    assertThatThrownBy(
            () ->
                RegistriesConf.parse(
                    """
                    [[registry]]
                    location = "quay.io"
                    [[registry.mirror]]
                    location = "m.example"
                    pull-from-mirror = "sometimes"
                    """))
        .hasMessageContaining("pull-from-mirror = \"sometimes\"");
  }

  @Test
  void aClustersMirrorsComeBeforeTheHubsAndTheMostSpecificPrefixOfEitherWins() {
    RegistriesConf hub =
        RegistriesConf.parse(
            """
            [[registry]]
            location = "quay.io/openshift-release-dev/ocp-release"
            [[registry.mirror]]
            location = "hub-mirror.example/ocp-release"

            [[registry]]
            location = "quay.io/okd/scos-release"
            [[registry.mirror]]
            location = "hub-mirror.example/scos-release"
            """);
    RegistriesConf cluster =
        RegistriesConf.parse(
            """
            [[registry]]
            location = "quay.io/okd/scos-release"
            [[registry.mirror]]
            location = "cluster-mirror.example/scos-release"
            """);
    RegistriesConf merged = cluster.withDefaults(hub);

    assertThat(merged.pullOrder(ImageReference.parse("quay.io/okd/scos-release:4.20.0-okd-scos.6")))
        .extracting(e -> e.reference().toString())
        .containsExactly(
            "cluster-mirror.example/scos-release:4.20.0-okd-scos.6",
            "quay.io/okd/scos-release:4.20.0-okd-scos.6");
    assertThat(
            merged.pullOrder(
                ImageReference.parse("quay.io/openshift-release-dev/ocp-release:4.19.8-x86_64")))
        .extracting(e -> e.reference().toString())
        .containsExactly(
            "hub-mirror.example/ocp-release:4.19.8-x86_64",
            "quay.io/openshift-release-dev/ocp-release:4.19.8-x86_64");
    assertThat(merged.fingerprint()).isNotEqualTo(cluster.fingerprint());
    assertThat(cluster.withDefaults(RegistriesConf.EMPTY)).isSameAs(cluster);
    assertThat(RegistriesConf.EMPTY.withDefaults(hub).registries()).isEqualTo(hub.registries());
  }

  /** The registries and mirrors a parse found, one line each, to compare whole files. */
  private static List<String> summary(String toml) {
    return RegistriesConf.parse(toml).registries().stream()
        .map(
            r ->
                r.prefix()
                    + " -> "
                    + r.location()
                    + (r.insecure() ? " insecure" : "")
                    + (r.blocked() ? " blocked" : "")
                    + (r.mirrorByDigestOnly() ? " digest-only" : "")
                    + r.mirrors().stream()
                        .map(
                            m ->
                                " | "
                                    + m.location()
                                    + (m.insecure() ? " insecure" : "")
                                    + " "
                                    + m.pullFromMirror())
                        .reduce("", String::concat))
        .toList();
  }

  @Test
  void theFileOpenShiftWritesOnItsNodesIsRead() {
    assertThat(
            summary(
                """
                unqualified-search-registries = ["registry.access.redhat.com", "docker.io"]
                short-name-mode = ""

                [[registry]]
                  prefix = ""
                  location = "quay.io/openshift-release-dev/ocp-release"

                  [[registry.mirror]]
                    location = "mirror.example.com:5000/ocp4/openshift4"
                    pull-from-mirror = "digest-only"

                [[registry]]
                  prefix = ""
                  location = "quay.io/openshift-release-dev/ocp-v4.0-art-dev"

                  [[registry.mirror]]
                    location = "mirror.example.com:5000/ocp4/openshift4"
                    pull-from-mirror = "digest-only"
                """))
        .containsExactly(
            "quay.io/openshift-release-dev/ocp-release -> quay.io/openshift-release-dev/ocp-release"
                + " | mirror.example.com:5000/ocp4/openshift4 DIGEST_ONLY",
            "quay.io/openshift-release-dev/ocp-v4.0-art-dev ->"
                + " quay.io/openshift-release-dev/ocp-v4.0-art-dev"
                + " | mirror.example.com:5000/ocp4/openshift4 DIGEST_ONLY");
  }

  @Test
  void multiLineArraysSpacedHeadersCommentsAndQuotedKeysAreOrdinaryToml() {
    assertThat(
            summary(
                """
                # search these, in this order
                unqualified-search-registries = [
                  "registry.example",  # ours
                  "docker.io",
                ]

                [ aliases ]
                "fedora" = "registry.fedoraproject.org/fedora"

                [[ registry ]]  # spaces inside the brackets
                "prefix" = "quay.io/openshift-release-dev"
                'location' = 'quay.io/openshift-release-dev'  # a literal string
                "mirror-by-digest-only" = false

                [[ registry.mirror ]]
                location = "mirror-a.example:5000/ocp" # "quoted" words in a comment
                "pull-from-mirror" = "tag-only"
                insecure = true
                """))
        .containsExactly(
            "quay.io/openshift-release-dev -> quay.io/openshift-release-dev"
                + " | mirror-a.example:5000/ocp insecure TAG_ONLY");
  }

  @Test
  void mirrorsMayBeWrittenAsAnArrayOfInlineTables() {
    assertThat(
            summary(
                """
                [[registry]]
                location = "quay.io/openshift-release-dev"
                blocked = false
                mirror = [
                  { location = "mirror-a.example/ocp" },
                  { location = "mirror-b.example/ocp/", insecure = true, pull-from-mirror = "digest-only" },
                ]

                [[registry]]
                location = "docker.io"
                blocked = true
                """))
        .containsExactly(
            "quay.io/openshift-release-dev -> quay.io/openshift-release-dev"
                + " | mirror-a.example/ocp ALL"
                + " | mirror-b.example/ocp insecure DIGEST_ONLY",
            "docker.io -> docker.io blocked");
  }

  @Test
  void aFileWithoutRegistriesHasNoRules() {
    assertThat(RegistriesConf.parse("").registries()).isEmpty();
    assertThat(
            RegistriesConf.parse(
                    """
                    # the version 1 format: not read
                    [registries.search]
                    registries = ["docker.io"]
                    """)
                .registries())
        .isEmpty();
  }

  @Test
  void aMirrorBeforeAnyRegistryIsRefused() {
    assertThatThrownBy(
            () ->
                RegistriesConf.parse(
                    """
                    [[registry.mirror]]
                    location = "m.example"
                    """))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("a [[registry.mirror]] belongs after its [[registry]]");
  }

  @Test
  void aSyntaxErrorNamesItsLine() {
    assertThatThrownBy(
            () ->
                RegistriesConf.parse(
                    """
                    [[registry]]
                    location = "quay.io"
                    insecure = maybe
                    """))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("not valid TOML at line 3");
  }

  @Test
  void aValueOfTheWrongTypeNamesItsKeyAndEntry() {
    assertThatThrownBy(
            () ->
                RegistriesConf.parse(
                    """
                    [[registry]]
                    location = "quay.io"
                    insecure = "yes"
                    """))
        .hasMessageContaining("insecure of [[registry]] #1 must be true or false");
    assertThatThrownBy(
            () ->
                RegistriesConf.parse(
                    """
                    [[registry]]
                    location = "quay.io"
                    [[registry.mirror]]
                    location = 5000
                    """))
        .hasMessageContaining("location of a [[registry.mirror]] of quay.io must be a string");
  }
}
