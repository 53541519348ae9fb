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

  /** e_machine of 64-bit ARM in an ELF header. */
  private static final int EM_AARCH64 = 183;

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
    assertThat(config.path("Labels").path("org.opencontainers.image.revision").asText())
        .as("the commit built")
        .isEqualTo(Command.of("git", "-C", TestPaths.repoRoot(), "rev-parse", "HEAD").ok().strip());
    assertThat(config.path("Labels").path("org.opencontainers.image.source").asText())
        .isEqualTo(pomProperty("provider.image.source"));
    assertThat(config.path("Labels").path("org.opencontainers.image.base.name").asText())
        .isEqualTo("scratch");
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

  /**
   * What a scanner reads to know the packages of an image: {@code /etc/os-release} and the dpkg
   * database ({@code /var/lib/dpkg/status.d}, as distroless images keep it). Every library of the
   * image and its Java runtime belong to a package it lists, at the version this machine's dpkg
   * (whose files hack/build-base-image.sh copied) has installed.
   */
  @ParameterizedTest
  @EnumSource(ProviderJar.class)
  void theImageListsThePackagesItHoldsAsScannersReadThem(ProviderJar provider) throws Exception {
    String reference = push(provider);
    Path root = Files.createDirectories(dir.resolve("scan-" + provider.command));
    Path filesystem = dir.resolve("scan-" + provider.command + ".tar");
    crane.run("export", reference, filesystem.toString());
    Command.of("tar", "-xf", filesystem, "-C", root).ok();

    assertThat(Files.readString(root.resolve("etc/os-release")))
        .isEqualTo(Files.readString(Path.of("/etc/os-release")));
    Map<String, String> listed = new java.util.TreeMap<>();
    try (var files = Files.list(root.resolve("var/lib/dpkg/status.d"))) {
      for (Path status : files.toList()) {
        Map<String, String> fields = new java.util.HashMap<>();
        for (String line : Files.readAllLines(status)) {
          int colon = line.indexOf(": ");
          fields.put(line.substring(0, colon), line.substring(colon + 2));
        }
        assertThat(fields)
            .containsEntry("Status", "install ok installed")
            .containsKeys("Architecture");
        listed.put(fields.get("Package"), fields.get("Version"));
      }
    }
    List<String> owned = new ArrayList<>();
    owned.add(javaHome().resolve("jmods/java.base.jmod").toString());
    try (var files = Files.walk(root)) {
      files
          .filter(Files::isRegularFile)
          .map(f -> "/" + root.relativize(f))
          .filter(f -> f.matches("/(usr/)?lib(64)?/.*"))
          .forEach(owned::add);
    }
    assertThat(owned).as("libraries in the image").hasSizeGreaterThan(3);
    for (String file : owned) {
      String pkg = owner(file);
      String version = Command.of("dpkg-query", "-W", "-f=${Version}", pkg).ok().strip();
      assertThat(listed)
          .as("the package of %s", file)
          .containsEntry(pkg.replaceAll(":.*", ""), version);
    }
    System.out.printf("%s image lists %d packages: %s%n", provider.command, listed.size(), listed);
  }

  /**
   * The manifest list {@code mvn package} makes of Jib's two images ({@code
   * target/<module>-image-index.tar}), pushed with crane as one reference: it lists linux/amd64 and
   * linux/arm64; the amd64 entry is the very image the other tests run, and the arm64 image has the
   * same labels, user, entry point, environment and ports, with its own architecture in its config.
   */
  @ParameterizedTest
  @EnumSource(ProviderJar.class)
  void theManifestListHoldsAnAmd64AndAnArm64ImageAlikeButForTheirArchitecture(ProviderJar provider)
      throws Exception {
    String amd64 = push(provider);
    String list = push(provider, "image-index", "multi");
    String repository = list.substring(0, list.indexOf('@'));

    Map<String, String> byPlatform = platforms(list);
    assertThat(byPlatform).containsOnlyKeys("linux/amd64", "linux/arm64");
    assertThat(repository + "@" + byPlatform.get("linux/amd64"))
        .as("the amd64 entry is the single-platform image")
        .isEqualTo(amd64);

    JsonNode amd64Config = JSON.readTree(crane.run("config", amd64));
    for (var platform : byPlatform.entrySet()) {
      String reference = repository + "@" + platform.getValue();
      assertThat(JSON.readTree(crane.run("manifest", reference)).path("mediaType").asText())
          .isEqualTo("application/vnd.oci.image.manifest.v1+json");
      JsonNode config = JSON.readTree(crane.run("config", reference));
      assertThat(config.path("os").asText() + "/" + config.path("architecture").asText())
          .as("the config of the %s entry", platform.getKey())
          .isEqualTo(platform.getKey());
      assertThat(config.path("config").path("User").asText()).isEqualTo("185:0");
      assertThat(strings(config.path("config").path("Entrypoint")))
          .containsExactly("java", "-cp", "@/app/jib-classpath-file", mainClass(provider));
      assertThat(config.path("config").path("Env"))
          .isEqualTo(amd64Config.path("config").path("Env"));
      assertThat(config.path("config").path("ExposedPorts"))
          .isEqualTo(amd64Config.path("config").path("ExposedPorts"));
      assertThat(config.path("config").path("Labels"))
          .as("the labels of the %s image", platform.getKey())
          .isEqualTo(amd64Config.path("config").path("Labels"));
      assertThat(
              config
                  .path("config")
                  .path("Labels")
                  .path("org.opencontainers.image.revision")
                  .asText())
          .isEqualTo(
              Command.of("git", "-C", TestPaths.repoRoot(), "rev-parse", "HEAD").ok().strip());
    }
    System.out.printf("%s manifest list %s: %s%n", provider.command, list, byPlatform);
  }

  /**
   * The arm64 image, read as a scanner and a loader would without running it (nothing arm64 runs
   * here): its runtime's executables and libraries and every library beside them are 64-bit ARM ELF
   * files (their headers' e_machine), the dynamic loader its {@code java} names is there and
   * executable, and every library, and the runtime, belongs to a package its dpkg status files list
   * at the version of the Debian arm64 package (read with dpkg-deb from the .debs
   * hack/build-base-image.sh downloaded) that holds it.
   */
  @ParameterizedTest
  @EnumSource(ProviderJar.class)
  void theArm64ImageHoldsAnArm64RuntimeAndListsItsPackages(ProviderJar provider) throws Exception {
    String list = push(provider, "image-index", "multi");
    String arm64 = list.substring(0, list.indexOf('@')) + "@" + platforms(list).get("linux/arm64");
    Path root = Files.createDirectories(dir.resolve("arm64-" + provider.command));
    Path filesystem = dir.resolve("arm64-" + provider.command + ".tar");
    crane.run("export", arm64, filesystem.toString());
    Command.of("tar", "-xf", filesystem, "-C", root).ok();

    Path launcher = root.resolve("opt/java/bin/java");
    assertThat(elfMachine(launcher)).as("e_machine of /opt/java/bin/java").isEqualTo(EM_AARCH64);
    String interpreter = Command.of("readelf", "-l", launcher).ok();
    assertThat(interpreter)
        .contains("[Requesting program interpreter: /lib/ld-linux-aarch64.so.1]");
    Path loader = root.resolve("lib/ld-linux-aarch64.so.1");
    assertThat(loader).isRegularFile();
    assertThat(Files.getPosixFilePermissions(loader))
        .contains(java.nio.file.attribute.PosixFilePermission.OTHERS_EXECUTE);

    List<Path> elves = new ArrayList<>();
    try (var files = Files.walk(root)) {
      for (Path file : files.filter(Files::isRegularFile).toList()) {
        if (elfMachine(file) != -1) {
          elves.add(file);
        }
      }
    }
    assertThat(elves).as("ELF files in the arm64 image").hasSizeGreaterThan(40);
    for (Path elf : elves) {
      assertThat(elfMachine(elf))
          .as("e_machine of /%s", root.relativize(elf))
          .isEqualTo(EM_AARCH64);
    }

    Map<String, String[]> packaged = new java.util.HashMap<>();
    Path debs = TestPaths.toolsBin().getParent().resolve("images/provider-base-arm64/debs");
    try (var files = Files.list(debs)) {
      for (Path deb : files.filter(f -> f.toString().endsWith(".deb")).toList()) {
        String[] packageAndVersion =
            Command.of("dpkg-deb", "-W", "--showformat=${Package} ${Version}", deb)
                .ok()
                .strip()
                .split(" ");
        for (String line : Command.of("dpkg-deb", "-c", deb).ok().split("\n")) {
          String path = line.replaceAll("^.* \\./", "/").replaceAll(" -> .*$", "");
          packaged.put(path, packageAndVersion);
        }
      }
    }
    Map<String, Map<String, String>> listed = statusFiles(root);
    List<String> owned = new ArrayList<>();
    try (var files = Files.walk(root)) {
      files
          .filter(Files::isRegularFile)
          .map(f -> "/" + root.relativize(f))
          .filter(f -> f.matches("/(usr/)?lib(64)?/.*"))
          .forEach(owned::add);
    }
    assertThat(owned).as("libraries in the arm64 image").hasSizeGreaterThan(3);
    String jmod =
        packaged.keySet().stream()
            .filter(p -> p.endsWith("/jmods/java.base.jmod"))
            .findFirst()
            .orElseThrow();
    owned.add(jmod);
    for (String file : owned) {
      String[] owner = packaged.get(file);
      assertThat(owner).as("the arm64 package of %s", file).isNotNull();
      assertThat(listed).as("the package of %s", file).containsKey(owner[0]);
      assertThat(listed.get(owner[0]))
          .as("the status of %s", owner[0])
          .containsEntry("Version", owner[1])
          .containsEntry("Architecture", "arm64")
          .containsEntry("Status", "install ok installed");
    }
    assertThat(Files.readString(root.resolve("etc/os-release")))
        .isEqualTo(Files.readString(Path.of("/etc/os-release")));
    System.out.printf(
        "%s arm64 image: %d arm64 ELF files; packages %s%n",
        provider.command, elves.size(), listed.keySet());
  }

  /** The entries of a pushed manifest list (crane manifest), "os/architecture" to digest. */
  private static Map<String, String> platforms(String list) throws Exception {
    JsonNode index = JSON.readTree(crane.run("manifest", list));
    assertThat(index.path("mediaType").asText())
        .isEqualTo("application/vnd.oci.image.index.v1+json");
    Map<String, String> byPlatform = new java.util.TreeMap<>();
    for (JsonNode entry : index.path("manifests")) {
      String platform =
          entry.path("platform").path("os").asText()
              + "/"
              + entry.path("platform").path("architecture").asText();
      assertThat(byPlatform.put(platform, entry.path("digest").asText()))
          .as("one entry for %s", platform)
          .isNull();
    }
    return byPlatform;
  }

  /** The e_machine of a 64-bit little-endian ELF file; -1 if it is none. */
  private static int elfMachine(Path file) throws Exception {
    byte[] header = new byte[20];
    try (var in = Files.newInputStream(file)) {
      if (in.readNBytes(header, 0, header.length) < header.length
          || header[0] != 0x7f
          || header[1] != 'E'
          || header[2] != 'L'
          || header[3] != 'F') {
        return -1;
      }
    }
    assertThat(header[4]).as("ELFCLASS64 of %s", file).isEqualTo((byte) 2);
    assertThat(header[5]).as("little-endian %s", file).isEqualTo((byte) 1);
    return (header[18] & 0xff) | (header[19] & 0xff) << 8;
  }

  /** The dpkg status files of an exported image, by package: their fields. */
  private static Map<String, Map<String, String>> statusFiles(Path root) throws Exception {
    Map<String, Map<String, String>> listed = new java.util.TreeMap<>();
    try (var files = Files.list(root.resolve("var/lib/dpkg/status.d"))) {
      for (Path status : files.toList()) {
        Map<String, String> fields = new java.util.HashMap<>();
        for (String line : Files.readAllLines(status)) {
          int colon = line.indexOf(": ");
          fields.put(line.substring(0, colon), line.substring(colon + 2));
        }
        listed.put(fields.get("Package"), fields);
      }
    }
    return listed;
  }

  /**
   * A base of the user's choice must be pinned by digest: the build refuses a tag alone (the root
   * pom's enforcer rule, run by the real Maven on the parent alone).
   */
  @org.junit.jupiter.api.Test
  void aBaseImageMustBePinnedByDigest() {
    Command.Result tag =
        Command.of(
                "mvn",
                "-B",
                "-q",
                "-o",
                "-N",
                "-f",
                TestPaths.repoRoot().resolve("pom.xml"),
                "validate",
                "-Dprovider.image.base=registry.example/base:latest")
            .timeout(Duration.ofMinutes(2))
            .run();
    assertThat(tag.exitCode()).isNotZero();
    assertThat(tag.stdout() + tag.stderr())
        .contains("provider.image.base must be scratch or an image pinned by digest");
    Command.of(
            "mvn",
            "-B",
            "-q",
            "-o",
            "-N",
            "-f",
            TestPaths.repoRoot().resolve("pom.xml"),
            "validate",
            "-Dprovider.image.base=registry.example/base@sha256:" + "0".repeat(64))
        .timeout(Duration.ofMinutes(2))
        .ok();
  }

  /** The Debian package (name:arch) of an absolute path; merged /usr knows some by /usr/lib. */
  private static String owner(String file) throws Exception {
    for (String path : List.of(file, Path.of(file).toRealPath().toString(), "/usr" + file)) {
      Command.Result found = Command.of("dpkg-query", "-S", path).run();
      if (found.exitCode() == 0) {
        return found.stdout().lines().findFirst().orElseThrow().replaceAll(": .*", "");
      }
    }
    throw new AssertionError("no Debian package owns " + file);
  }

  private static Path javaHome() throws Exception {
    return Path.of(Command.of("sh", "-c", "readlink -f \"$(command -v java)\"").ok().strip())
        .getParent()
        .getParent();
  }

  private static String pomProperty(String name) throws Exception {
    String pom = Files.readString(TestPaths.repoRoot().resolve("pom.xml"));
    var m = java.util.regex.Pattern.compile("<" + name + ">([^<]+)</" + name + ">").matcher(pom);
    assertThat(m.find()).as("%s in the root pom", name).isTrue();
    return m.group(1);
  }

  /** Pushes the OCI layout Jib wrote ({@code target/<module>-image.tar}); the pushed reference. */
  private static String push(ProviderJar provider) throws Exception {
    return push(provider, "image", "test");
  }

  /**
   * Pushes {@code target/<module>-<artifact>.tar} (an OCI layout) as {@code :tag} with crane, as
   * docs/operations.md says; the pushed reference, by digest.
   */
  private static String push(ProviderJar provider, String artifact, String tag) throws Exception {
    Path tar =
        TestPaths.repoRoot()
            .resolve(provider.command)
            .resolve("target")
            .resolve(provider.command + "-" + artifact + ".tar");
    assertThat(tar).as("mvn package builds %s", tar.getFileName()).isRegularFile();
    Path layout = Files.createDirectories(dir.resolve(provider.command + "-" + artifact));
    Command.of("tar", "-xf", tar, "-C", layout).ok();
    String repository = registry.host() + "/openshift-agent/" + provider.command;
    String pushed = crane.run("push", layout.toString(), repository + ":" + tag);
    assertThat(pushed).startsWith(repository + "@sha256:");
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
