package io.openshiftagent.simulator.assisted;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The {@code oc} stand-in answers the service's calls as they are written (internal/oc). */
class OcStandInTest {
  private static final String OCP = "quay.io/openshift-release-dev/ocp-release:4.20.1-x86_64";
  private static final String OKD = "quay.io/okd/scos-release:4.19.0-okd-scos.ec.6";
  private static final String DIGEST =
      "sha256:0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef";
  private static final ReleaseCatalog CATALOG =
      new ReleaseCatalog(
          List.of(
              new ReleaseCatalog.Release(
                  "127.0.0.1:5000/openshift-release-dev/ocp-release@" + DIGEST,
                  "4.21.0",
                  "x86_64")));

  @TempDir Path dir;

  private record Result(int exit, String out) {}

  private Result oc(String... args) throws IOException, InterruptedException {
    List<String> command =
        new ArrayList<>(List.of(OcStandIn.install(dir, CATALOG).resolve("oc").toString()));
    command.addAll(List.of(args));
    command.add("--registry-config=/tmp/registry-config123");
    Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
    String out = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8).trim();
    return new Result(process.waitFor(), out);
  }

  @Test
  void answersTheVersionFromTheTag() throws Exception {
    String[] template = {
      "adm",
      "release",
      "info",
      "-o",
      "template",
      "--template",
      "'{{.metadata.version}}'",
      "--insecure=false"
    };
    assertThat(oc(concat(template, OCP))).isEqualTo(new Result(0, "4.20.1"));
    assertThat(oc(concat(template, OKD))).isEqualTo(new Result(0, "4.19.0-okd-scos.ec.6"));
  }

  @Test
  void answersAnImageByDigestFromTheCatalogInAnyRepository() throws Exception {
    String mirrored = "mirror.example.com:8443/ocp/release@" + DIGEST;
    assertThat(
            oc(
                "adm",
                "release",
                "info",
                "-o",
                "template",
                "--template",
                "'{{.metadata.version}}'",
                "--insecure=false",
                mirrored))
        .isEqualTo(new Result(0, "4.21.0"));
    assertThat(oc("image", "info", "--output", "json", mirrored).out())
        .contains("\"architecture\":\"amd64\"");
    assertThat(oc("adm", "release", "info", "--image-for=machine-config-operator", mirrored).out())
        .startsWith("mirror.example.com:8443/openshift-release-dev/ocp-v4.0-art-dev@sha256:");
    Result unknown =
        oc("adm", "release", "info", "--insecure=false", "quay.io/x/y@sha256:" + "f".repeat(64));
    assertThat(unknown.exit()).isEqualTo(1);
    assertThat(unknown.out()).contains("no release with the digest");
  }

  @Test
  void answersTheComponentsAPayloadHas() throws Exception {
    Result mco =
        oc(
            "adm",
            "release",
            "info",
            "--image-for=machine-config-operator",
            "--insecure=false",
            OCP);
    assertThat(mco.exit()).isZero();
    assertThat(mco.out())
        .matches("quay\\.io/openshift-release-dev/ocp-v4\\.0-art-dev@sha256:[0-9a-f]{64}");
    assertThat(
            oc(
                "adm",
                "release",
                "info",
                "--image-for=machine-config-operator",
                "--insecure=false",
                OCP))
        .as("the same reference every time")
        .isEqualTo(mco);

    Result okdRpms = oc("adm", "release", "info", "--image-for=okd-rpms", "--insecure=false", OCP);
    assertThat(okdRpms.exit()).isEqualTo(1);
    assertThat(okdRpms.out()).contains("no image tag \"okd-rpms\"");
    assertThat(
            oc("adm", "release", "info", "--image-for=rhel-coreos", "--insecure=false", OKD).exit())
        .isEqualTo(1);
    assertThat(
            oc("adm", "release", "info", "--image-for=stream-coreos", "--insecure=false", OKD)
                .exit())
        .isZero();
  }

  @Test
  void answersTheArchitectureFromTheTagAndRefusesAManifestList() throws Exception {
    assertThat(oc("image", "info", "--output", "json", OCP).out())
        .contains("\"architecture\":\"amd64\"");
    assertThat(
            oc(
                    "image",
                    "info",
                    "--output",
                    "json",
                    "quay.io/openshift-release-dev/ocp-release:4.20.1-aarch64")
                .out())
        .contains("\"architecture\":\"arm64\"");
    assertThat(
            oc(
                    "image",
                    "info",
                    "--output",
                    "json",
                    "quay.io/openshift-release-dev/ocp-release:4.20.1-multi")
                .exit())
        .isEqualTo(1);
  }

  @Test
  void refusesWhatItDoesNotKnowAndLogsEveryCall() throws Exception {
    Result extract =
        oc("adm", "release", "extract", "--command=openshift-install", "--to=/tmp/x", OCP);
    assertThat(extract.exit()).isEqualTo(1);
    assertThat(extract.out()).contains("not answered here");
    assertThat(oc("adm", "release", "info", "--insecure=false", "quay.io/x/y").exit()).isEqualTo(1);
    assertThat(OcStandIn.calls(dir))
        .hasSize(2)
        .first()
        .asString()
        .startsWith("adm release extract --command=openshift-install");
  }

  private static String[] concat(String[] first, String last) {
    String[] all = java.util.Arrays.copyOf(first, first.length + 1);
    all[first.length] = last;
    return all;
  }
}
