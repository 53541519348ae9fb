package io.openshiftagent.testsupport;

import io.fabric8.kubernetes.client.utils.Serialization;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * OpenShift and OKD release images in a real registry ({@link OciRegistry}, TLS from a CA of its
 * own; anonymous pulls as from quay.io's public release repositories, or one user), pushed by crane
 * as the public repositories hold them, and the catalog of what it holds: which tag names which
 * digest, of which version. The one place a test world keeps its releases: the providers resolve
 * tags against the registry, and what plays the installed cluster (or assisted-service) maps a
 * digest back to its version through {@link #byDigest} or the catalog file ({@link #writeCatalog}).
 *
 * <p>OpenShift releases are {@code <host>/openshift-release-dev/ocp-release:<version>-<arch>}, one
 * image per architecture, {@code multi} a manifest list (here of amd64 and arm64 only: the real one
 * also lists ppc64le and s390x); OKD releases are {@code <host>/okd/scos-release:<version>}, a
 * manifest list for amd64 and arm64. Besides the releases tests name, a registry can serve every
 * release users name ({@link #withPublished()}).
 */
public final class ReleaseRegistry implements AutoCloseable {
  public static final String OCP_REPOSITORY = "openshift-release-dev/ocp-release";
  public static final String OKD_REPOSITORY = "okd/scos-release";

  private static final Logger LOG = LoggerFactory.getLogger(ReleaseRegistry.class);
  private static final Pattern VERSION = Pattern.compile("(\\d+)\\.(\\d+)\\.\\d+(-.+)?");
  private static final Map<String, String> OCI_ARCHITECTURES =
      Map.of("x86_64", "amd64", "aarch64", "arm64", "ppc64le", "ppc64le", "s390x", "s390x");

  private static ReleaseRegistry shared;

  /**
   * A release in the catalog.
   *
   * @param architecture the release's ({@code x86_64}, ..., {@code multi}); {@code multi} for OKD
   * @param tag the reference by tag in this registry
   * @param digest its manifest's (or manifest list's) digest
   */
  public record Release(
      String version, String architecture, String kubernetesVersion, String tag, String digest) {
    /** The reference by digest in this registry. */
    public String image() {
      return tag.substring(0, tag.lastIndexOf(':')) + "@" + digest;
    }
  }

  private final OciRegistry registry;
  private final Path caFile;

  /** Replaced, never changed, when releases are published: readers see one version or the next. */
  private volatile List<Release> catalog;

  private volatile List<Release> published = List.of();

  private ReleaseRegistry(OciRegistry registry, List<Release> catalog, Path caFile) {
    this.registry = registry;
    this.catalog = List.copyOf(catalog);
    this.caFile = caFile;
  }

  /**
   * Starts a registry in {@code dir} and pushes {@code releases}: {@code <version>} (OKD, whose
   * pre-release starts with {@code okd-scos}) or {@code <version>-<arch>} (OpenShift).
   *
   * @param withCredentials pulls need the credentials of {@link #dockerConfigJson()}; else
   *     anonymous
   */
  public static ReleaseRegistry start(Path dir, List<String> releases, boolean withCredentials)
      throws Exception {
    TestPki ca = TestPki.newCertificateAuthority("release registry");
    OciRegistry registry =
        OciRegistry.start(
            dir.resolve("registry"),
            ca,
            withCredentials
                ? Map.of("releases", HexFormat.of().formatHex(SecureRandom.getSeed(12)))
                : Map.of());
    try {
      Crane crane = new Crane(dir.resolve("crane"), registry);
      List<Release> catalog = new ArrayList<>();
      for (String release : releases) {
        catalog.add(push(crane, registry.host(), release));
      }
      Path caFile = dir.resolve("ca.crt");
      Files.writeString(caFile, ca.caPem());
      return new ReleaseRegistry(registry, catalog, caFile);
    } catch (Exception | Error e) {
      registry.close();
      throw e;
    }
  }

  /**
   * The registry every test of this JVM shares (anonymous; it stops when the JVM exits), with the
   * releases the control-plane tests and the simulator's worlds name: OpenShift 4.20.0, 4.20.1,
   * 4.20.2, 4.21.0, 4.21.1 and 4.21.0-ec.2 for x86_64, 4.20.0 multi, OKD 4.19.0-okd-scos.ec.6.
   */
  public static synchronized ReleaseRegistry shared() {
    if (shared == null) {
      try {
        Path dir = Files.createTempDirectory("release-registry");
        shared =
            start(
                dir,
                List.of(
                    "4.20.0-x86_64",
                    "4.20.1-x86_64",
                    "4.20.2-x86_64",
                    "4.21.0-x86_64",
                    "4.21.1-x86_64",
                    "4.21.0-ec.2-x86_64",
                    "4.20.0-multi",
                    "4.19.0-okd-scos.ec.6"),
                false);
      } catch (Exception e) {
        throw new IllegalStateException("cannot start the shared release registry", e);
      }
      ReleaseRegistry started = shared;
      Runtime.getRuntime().addShutdownHook(new Thread(started::close, "release-registry-stop"));
    }
    return shared;
  }

  private static Release push(Crane crane, String host, String release) throws Exception {
    boolean okd = release.contains("-okd-scos");
    String version = okd ? release : release.substring(0, release.lastIndexOf('-'));
    String architecture = okd ? "multi" : release.substring(release.lastIndexOf('-') + 1);
    String kubernetes = kubernetesVersion(version);
    String repository = host + "/" + (okd ? OKD_REPOSITORY : OCP_REPOSITORY);
    String tag = repository + ":" + release;
    String digest;
    if (architecture.equals("multi")) {
      List<String> platforms = List.of("amd64", "arm64");
      List<String> images = new ArrayList<>();
      for (String platform : platforms) {
        String image = repository + ":" + release + "-" + platform;
        crane.pushRelease(repository, release + "-" + platform, platform, kubernetes);
        images.add(image);
      }
      digest = crane.pushIndex(tag, images);
    } else {
      String platform = OCI_ARCHITECTURES.get(architecture);
      if (platform == null) {
        throw new IllegalArgumentException("unknown release architecture in " + release);
      }
      digest = crane.pushRelease(repository, release, platform, kubernetes);
    }
    return new Release(version, architecture, kubernetes, tag, digest);
  }

  /**
   * Pushes every release users name ({@link PublishedReleases}) that the registry does not hold
   * yet, once: small images made without crane ({@link SyntheticReleases}), about 500 in a second
   * or two. Returns this registry.
   */
  public synchronized ReleaseRegistry withPublished() {
    if (!published.isEmpty()) {
      return this;
    }
    long started = System.nanoTime();
    List<String> missing =
        PublishedReleases.all().stream()
            .filter(r -> catalog.stream().noneMatch(known -> known.tag().endsWith(":" + r)))
            .toList();
    try {
      List<Release> pushed = new SyntheticReleases(registry).push(missing);
      List<Release> all = new ArrayList<>(catalog);
      all.addAll(pushed);
      catalog = List.copyOf(all);
      published = List.copyOf(pushed);
    } catch (Exception e) {
      throw new IllegalStateException("cannot publish the releases users name", e);
    }
    LOG.info(
        "{} published releases pushed to {} in {} ms",
        published.size(),
        host(),
        (System.nanoTime() - started) / 1_000_000);
    return this;
  }

  /**
   * Gives {@code release} the tag {@code tag} too, in its repository (the same digest): a name a
   * client asks for that the public repositories do not have.
   */
  public synchronized void tag(Release release, String tag) {
    try {
      Path dir = Files.createTempDirectory("crane");
      try {
        new Crane(dir, registry).run("tag", release.tag(), tag);
      } finally {
        TestPaths.deleteRecursively(dir);
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(e);
    } catch (Exception e) {
      throw new IllegalStateException("cannot tag " + release.tag() + " as " + tag, e);
    }
  }

  /** The releases {@link #withPublished()} pushed (none before). */
  public List<Release> published() {
    return published;
  }

  /** OpenShift 4.N runs Kubernetes 1.(N+13). */
  static String kubernetesVersion(String version) {
    Matcher m = VERSION.matcher(version);
    if (!m.matches()) {
      throw new IllegalArgumentException("not a release version: " + version);
    }
    return "1." + (Integer.parseInt(m.group(2)) + 13) + ".0";
  }

  /** {@code 127.0.0.1:PORT}. */
  public String host() {
    return registry.host();
  }

  /** The OpenShift release repository here, as the repository override annotation names it. */
  public String ocpRepository() {
    return host() + "/" + OCP_REPOSITORY;
  }

  /** The OKD release repository here. */
  public String okdRepository() {
    return host() + "/" + OKD_REPOSITORY;
  }

  /** The PEM CA that signs the registry's certificate. */
  public String caPem() {
    try {
      return registry.ca().caPem();
    } catch (Exception e) {
      throw new IllegalStateException(e);
    }
  }

  /** A file holding {@link #caPem()}. */
  public Path caFile() {
    return caFile;
  }

  /** A {@code .dockerconfigjson} with the credentials of this registry (none when anonymous). */
  public String dockerConfigJson() {
    return registry.dockerConfigJson();
  }

  public OciRegistry registry() {
    return registry;
  }

  public List<Release> catalog() {
    return catalog;
  }

  /** The release of {@code version} for {@code architecture} ({@code multi} for OKD). */
  public Release release(String version, String architecture) {
    return catalog.stream()
        .filter(r -> r.version().equals(version) && r.architecture().equals(architecture))
        .findFirst()
        .orElseThrow(
            () ->
                new IllegalArgumentException(
                    "no release "
                        + version
                        + " for "
                        + architecture
                        + " among the "
                        + catalog.size()
                        + " of "
                        + host()));
  }

  /**
   * The release an image names by digest, in any repository: a mirror holds the same digests, and a
   * resolved image names the source repository.
   */
  public Optional<Release> byDigest(String image) {
    int at = image.indexOf('@');
    if (at < 0) {
      return Optional.empty();
    }
    String digest = image.substring(at + 1);
    return catalog.stream().filter(r -> r.digest().equals(digest)).findFirst();
  }

  /**
   * Writes the catalog as a JSON list of {@code {version, architecture, kubernetesVersion, tag,
   * image}} (the image by digest), for other processes of a world.
   */
  public void writeCatalog(Path file) {
    List<Map<String, String>> entries = new ArrayList<>();
    for (Release release : catalog) {
      Map<String, String> entry = new LinkedHashMap<>();
      entry.put("version", release.version());
      entry.put("architecture", release.architecture());
      entry.put("kubernetesVersion", release.kubernetesVersion());
      entry.put("tag", release.tag());
      entry.put("image", release.image());
      entries.add(entry);
    }
    try {
      Files.createDirectories(file.toAbsolutePath().getParent());
      Path temporary = Files.createTempFile(file.toAbsolutePath().getParent(), "catalog", ".json");
      Files.writeString(temporary, Serialization.asJson(entries));
      Files.move(
          temporary,
          file,
          java.nio.file.StandardCopyOption.REPLACE_EXISTING,
          java.nio.file.StandardCopyOption.ATOMIC_MOVE);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  @Override
  public void close() {
    try {
      registry.close();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
