package io.openshiftagent.delivery;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.openshiftagent.testsupport.Command;
import io.openshiftagent.testsupport.Crane;
import io.openshiftagent.testsupport.OciRegistry;
import io.openshiftagent.testsupport.ProviderJar;
import io.openshiftagent.testsupport.TestPaths;
import io.openshiftagent.testsupport.TestPki;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * The provider images Jib builds during {@code mvn package} (no Docker daemon), pushed to a real
 * registry (TLS, htpasswd) with crane, read back with crane, and run: their filesystem exported by
 * crane, started with the image's entrypoint, environment and user in a chroot of their own.
 */
class ContainerImageTest {
  private static final ObjectMapper JSON = new ObjectMapper();

  @TempDir static Path dir;
  static OciRegistry registry;
  static Crane crane;

  @BeforeAll
  static void registry() throws Exception {
    registry =
        OciRegistry.start(
            dir.resolve("registry"),
            TestPki.newCertificateAuthority("image tests"),
            Map.of("publisher", "publish-password"));
    crane = new Crane(dir.resolve("crane"), registry);
  }

  @AfterAll
  static void stop() throws Exception {
    registry.close();
  }

  @ParameterizedTest
  @EnumSource(ProviderJar.class)
  void theImageRunsTheProviderAsANonRootUserWithTheJvmOptionsOfThePom(ProviderJar provider)
      throws Exception {
    long started = System.nanoTime();
    String reference = push(provider);

    JsonNode config = JSON.readTree(crane.run("config", reference)).path("config");
    JsonNode manifest = JSON.readTree(crane.run("manifest", reference));
    assertThat(manifest.path("mediaType").asText())
        .isEqualTo("application/vnd.oci.image.manifest.v1+json");
    assertThat(config.path("User").asText()).as("numeric non-root user").isEqualTo("185:0");
    List<String> entrypoint = strings(config.path("Entrypoint"));
    assertThat(entrypoint)
        .containsExactly("java", "-cp", "@/app/jib-classpath-file", mainClass(provider));
    assertThat(strings(config.path("Env")))
        .contains(
            "JAVA_TOOL_OPTIONS=" + provider.imageJavaToolOptions(),
            "PATH=/opt/java/bin:/usr/bin:/bin");
    assertThat(provider.imageJavaToolOptions())
        .contains("-XX:MaxRAMPercentage=")
        .contains("-Djava.io.tmpdir=/tmp")
        .contains("-XX:-UsePerfData");
    assertThat(config.path("Labels").path("org.opencontainers.image.title").asText())
        .isEqualTo("openshift-agent " + provider.command);
    assertThat(config.path("Labels").path("org.opencontainers.image.version").asText())
        .isNotBlank();
    assertThat(config.path("Labels").path("org.opencontainers.image.description").asText())
        .isNotBlank();
    assertThat(strings(config.path("ExposedPorts").fieldNames()))
        .containsExactlyInAnyOrder("8443/tcp", "8081/tcp");

    Command.Result help = runImage(reference, config, "--help");
    assertThat(help.stdout()).contains("Usage: " + provider.command);
    assertThat(help.stderr())
        .as("the JVM took the image's options")
        .contains("Picked up JAVA_TOOL_OPTIONS: " + provider.imageJavaToolOptions());
    System.out.printf(
        "%s image: pushed, read back and run in %d ms%n",
        provider.command, (System.nanoTime() - started) / 1_000_000);
  }

  /** Pushes the OCI layout Jib wrote ({@code target/<module>-image.tar}); the pushed reference. */
  private static String push(ProviderJar provider) throws Exception {
    Path tar =
        TestPaths.repoRoot()
            .resolve(provider.command)
            .resolve("target")
            .resolve(provider.command + "-image.tar");
    assertThat(tar).as("mvn package builds the image with Jib").isRegularFile();
    Path layout = Files.createDirectories(dir.resolve(provider.command + "-layout"));
    Command.of("tar", "-xf", tar, "-C", layout).ok();
    String tag = registry.host() + "/openshift-agent/" + provider.command + ":test";
    String pushed = crane.run("push", layout.toString(), tag);
    assertThat(pushed)
        .startsWith(registry.host() + "/openshift-agent/" + provider.command + "@sha256:");
    return pushed;
  }

  /**
   * Runs the image as a container runtime would: its layers (crane export) as the root, its
   * environment only, its user, its entrypoint. Needs root for the chroot (as CI has).
   */
  private static Command.Result runImage(String reference, JsonNode config, String... args)
      throws Exception {
    assumeTrue(
        "root".equals(System.getProperty("user.name")),
        "running the image's filesystem needs root (chroot); CI runs as root");
    Path root = Files.createDirectories(dir.resolve("rootfs-" + reference.hashCode()));
    Path filesystem = dir.resolve("rootfs-" + reference.hashCode() + ".tar");
    crane.run("export", reference, filesystem.toString());
    Command.of("tar", "-xf", filesystem, "-C", root).ok();
    Files.createDirectories(root.resolve("proc"));
    List<String> command = new ArrayList<>(List.of("env", "-i"));
    command.addAll(strings(config.path("Env")));
    command.addAll(
        List.of(
            "/usr/bin/unshare",
            "--mount",
            "--pid",
            "--fork",
            "sh",
            "-c",
            "user=$1; shift; /bin/mount -t proc proc \"$0/proc\" && exec /usr/sbin/chroot --userspec=\"$user\" \"$0\" \"$@\"",
            root.toString(),
            config.path("User").asText()));
    command.addAll(strings(config.path("Entrypoint")));
    command.addAll(List.of(args));
    return Command.run(Duration.ofMinutes(1), command).succeeded();
  }

  private static String mainClass(ProviderJar provider) {
    return provider == ProviderJar.BOOTSTRAP
        ? "io.openshiftagent.bootstrap.BootstrapProviderMain"
        : "io.openshiftagent.controlplane.ControlPlaneProvider";
  }

  private static List<String> strings(JsonNode array) {
    List<String> values = new ArrayList<>();
    array.forEach(v -> values.add(v.asText()));
    return values;
  }

  private static List<String> strings(java.util.Iterator<String> names) {
    List<String> values = new ArrayList<>();
    names.forEachRemaining(values::add);
    return values;
  }
}
