package io.openshiftagent.testsupport;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;

/**
 * go-containerregistry's {@code crane} ({@code hack/build-registry-tools.sh}), a real registry
 * client, logged in to the given registries and trusting their CAs: pushes small release images (a
 * layer with {@code release-manifests/}), builds manifest lists, reads digests and configs.
 */
public final class Crane {
  private final Path dir;
  private final List<String> environment;

  public Crane(Path dir, OciRegistry... registries) throws Exception {
    this.dir = dir;
    Files.createDirectories(dir.resolve("docker"));
    Files.writeString(
        dir.resolve("docker").resolve("config.json"),
        java.util.Arrays.stream(registries)
            .map(
                r ->
                    r.dockerConfigJson()
                        .replaceFirst("^\\{\"auths\":\\{", "")
                        .replaceFirst("}}$", ""))
            .filter(s -> !s.isEmpty())
            .collect(Collectors.joining(",", "{\"auths\":{", "}}")));
    StringBuilder cas = new StringBuilder();
    for (OciRegistry registry : registries) {
      if (registry.ca() != null) { // crane speaks plain HTTP to a loopback registry without TLS
        cas.append(registry.ca().caPem());
      }
    }
    Files.writeString(dir.resolve("ca.pem"), cas);
    this.environment =
        List.of("DOCKER_CONFIG=" + dir.resolve("docker"), "SSL_CERT_FILE=" + dir.resolve("ca.pem"));
  }

  /** Runs crane with {@code args}; its standard output, trimmed. Fails on a non-zero exit. */
  public String run(String... args) throws IOException, InterruptedException {
    List<String> command = new ArrayList<>();
    command.add(TestPaths.tool("crane").toString());
    command.addAll(List.of(args));
    ProcessBuilder builder = new ProcessBuilder(command).redirectErrorStream(false);
    for (String variable : environment) {
      int eq = variable.indexOf('=');
      builder.environment().put(variable.substring(0, eq), variable.substring(eq + 1));
    }
    Process process = builder.start();
    byte[] out = process.getInputStream().readAllBytes();
    byte[] err = process.getErrorStream().readAllBytes();
    if (!process.waitFor(60, TimeUnit.SECONDS) || process.exitValue() != 0) {
      process.destroyForcibly();
      throw new IllegalStateException(
          "crane "
              + String.join(" ", args)
              + " failed: "
              + new String(err, StandardCharsets.UTF_8));
    }
    return new String(out, StandardCharsets.UTF_8).trim();
  }

  /**
   * Pushes a small OpenShift release image, {@code repository:tag} for {@code architecture} (OCI
   * name: amd64, arm64, ...): one layer with {@code release-manifests/image-references} naming the
   * Kubernetes version, as the real ones do. Returns its digest.
   */
  public String pushRelease(String repository, String tag, String architecture, String kubernetes)
      throws IOException, InterruptedException {
    Path content = Files.createTempDirectory(dir, "release");
    Path manifests = Files.createDirectories(content.resolve("release-manifests"));
    Files.writeString(
        manifests.resolve("image-references"),
        "{\"kind\":\"ImageStream\",\"apiVersion\":\"image.openshift.io/v1\",\"metadata\":{\"name\":\""
            + tag
            + "\"},\"spec\":{\"tags\":[{\"name\":\"hyperkube\",\"annotations\":"
            + "{\"io.openshift.build.versions\":\"kubernetes="
            + kubernetes
            + "\"}}]}}\n");
    Path layer = content.resolve("layer.tar");
    Process tar =
        new ProcessBuilder(
                "tar", "-cf", layer.toString(), "-C", content.toString(), "release-manifests")
            .redirectErrorStream(true)
            .start();
    if (tar.waitFor() != 0) {
      throw new IllegalStateException(new String(tar.getInputStream().readAllBytes()));
    }
    String staging = repository + ":staging-" + tag;
    run("append", "--oci-empty-base", "-f", layer.toString(), "-t", staging);
    return digestOf(
        run(
            "mutate",
            staging,
            "--set-platform",
            "linux/" + architecture,
            "-l",
            "io.openshift.release=" + tag,
            "-t",
            repository + ":" + tag));
  }

  /** Makes {@code index} a manifest list of {@code manifests}; returns its digest. */
  public String pushIndex(String index, List<String> manifests)
      throws IOException, InterruptedException {
    List<String> args = new ArrayList<>(List.of("index", "append", "-t", index));
    manifests.forEach(m -> args.addAll(List.of("-m", m)));
    return digestOf(run(args.toArray(String[]::new)));
  }

  /** The digest of the {@code repository@sha256:...} reference crane prints for what it pushed. */
  private static String digestOf(String pushed) {
    int at = pushed.lastIndexOf('@');
    if (at < 0) {
      throw new IllegalStateException("crane printed no reference by digest: " + pushed);
    }
    return pushed.substring(at + 1);
  }

  public String digest(String reference) throws IOException, InterruptedException {
    return run("digest", reference);
  }
}
