package io.openshiftagent.testsupport;

import io.fabric8.kubernetes.client.utils.Serialization;
import java.io.ByteArrayOutputStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Semaphore;

/**
 * Many small release images pushed at once with the OCI distribution API, where {@link Crane} takes
 * a few processes per image: the layer ({@code release-manifests/image-references} naming the
 * Kubernetes version, as {@link Crane#pushRelease} makes it) and the config are shared by a minor's
 * releases of one platform; each release has a manifest of its own, annotated with its version
 * ({@code io.openshift.release}), so each has a digest of its own. OKD releases are manifest lists
 * of amd64 and arm64, as {@link ReleaseRegistry} pushes them. For an anonymous registry.
 */
final class SyntheticReleases {
  private static final String MANIFEST = "application/vnd.oci.image.manifest.v1+json";
  private static final String INDEX = "application/vnd.oci.image.index.v1+json";
  private static final String CONFIG = "application/vnd.oci.image.config.v1+json";
  private static final String LAYER = "application/vnd.oci.image.layer.v1.tar";
  private static final Duration TIMEOUT = Duration.ofSeconds(30);

  /** Requests in flight at once: enough to keep the registry busy, few enough for two cores. */
  private static final int IN_FLIGHT = 8;

  private record Descriptor(String mediaType, String digest, long size) {
    Map<String, Object> json() {
      Map<String, Object> json = new LinkedHashMap<>();
      json.put("mediaType", mediaType);
      json.put("digest", digest);
      json.put("size", size);
      return json;
    }
  }

  /** A manifest to PUT as {@code reference} (a tag or its digest) in {@code repository}. */
  private record Put(String repository, String reference, String mediaType, byte[] body) {}

  private final HttpClient http;
  private final String host;
  private final Semaphore inFlight = new Semaphore(IN_FLIGHT);

  /** Config and layer of each repository, minor and platform, pushed once. */
  private final Map<String, List<Descriptor>> bases = new HashMap<>();

  SyntheticReleases(OciRegistry registry) throws Exception {
    this.host = registry.host();
    this.http =
        HttpClient.newBuilder()
            .sslContext(registry.ca().clientContext())
            .connectTimeout(TIMEOUT)
            .build();
  }

  /**
   * Pushes {@code releases} ({@code <version>-x86_64}, or an OKD {@code <version>}) and returns
   * them as the catalog names them.
   */
  List<ReleaseRegistry.Release> push(List<String> releases) throws Exception {
    List<ReleaseRegistry.Release> pushed = new ArrayList<>();
    List<Put> platformManifests = new ArrayList<>();
    List<Put> tagged = new ArrayList<>();
    for (String release : releases) {
      boolean okd = release.contains("-okd-scos");
      String version = okd ? release : release.substring(0, release.lastIndexOf('-'));
      String repository = okd ? ReleaseRegistry.OKD_REPOSITORY : ReleaseRegistry.OCP_REPOSITORY;
      String kubernetes = ReleaseRegistry.kubernetesVersion(version);
      Put put;
      if (okd) {
        List<Map<String, Object>> manifests = new ArrayList<>();
        for (String platform : List.of("amd64", "arm64")) {
          Put image = manifest(repository, version, platform, kubernetes, null);
          platformManifests.add(image);
          Map<String, Object> entry = descriptor(MANIFEST, image.body()).json();
          entry.put("platform", Map.of("architecture", platform, "os", "linux"));
          manifests.add(entry);
        }
        Map<String, Object> index = new LinkedHashMap<>();
        index.put("schemaVersion", 2);
        index.put("mediaType", INDEX);
        index.put("manifests", manifests);
        index.put("annotations", Map.of("io.openshift.release", version));
        put = new Put(repository, release, INDEX, json(index));
      } else {
        put = manifest(repository, version, "amd64", kubernetes, release);
      }
      tagged.add(put);
      String digest = digest(put.body());
      pushed.add(
          new ReleaseRegistry.Release(
              version,
              okd ? "multi" : "x86_64",
              kubernetes,
              host + "/" + repository + ":" + release,
              digest));
    }
    // A manifest list is refused until the registry holds the manifests it lists.
    putAll(platformManifests);
    putAll(tagged);
    return pushed;
  }

  /** A release's manifest for one platform, over its minor's config and layer, to PUT by tag. */
  private Put manifest(
      String repository, String version, String platform, String kubernetes, String tag)
      throws Exception {
    List<Descriptor> base = base(repository, version, platform, kubernetes);
    Map<String, Object> manifest = new LinkedHashMap<>();
    manifest.put("schemaVersion", 2);
    manifest.put("mediaType", MANIFEST);
    manifest.put("config", base.get(0).json());
    manifest.put("layers", List.of(base.get(1).json()));
    manifest.put("annotations", Map.of("io.openshift.release", version));
    byte[] body = json(manifest);
    return new Put(repository, tag == null ? digest(body) : tag, MANIFEST, body);
  }

  /** The config and layer a minor's releases of a platform share, uploaded on first use. */
  private synchronized List<Descriptor> base(
      String repository, String version, String platform, String kubernetes) throws Exception {
    String minor = version.substring(0, version.indexOf('.', version.indexOf('.') + 1));
    String key = repository + " " + minor + " " + platform;
    List<Descriptor> known = bases.get(key);
    if (known != null) {
      return known;
    }
    byte[] layer =
        tar(
            "release-manifests/image-references",
            ("{\"kind\":\"ImageStream\",\"apiVersion\":\"image.openshift.io/v1\",\"metadata\":"
                    + "{\"name\":\""
                    + minor
                    + "\"},\"spec\":{\"tags\":[{\"name\":\"hyperkube\",\"annotations\":"
                    + "{\"io.openshift.build.versions\":\"kubernetes="
                    + kubernetes
                    + "\"}}]}}\n")
                .getBytes(StandardCharsets.UTF_8));
    Map<String, Object> config = new LinkedHashMap<>();
    config.put("architecture", platform);
    config.put("os", "linux");
    config.put("config", Map.of());
    config.put("rootfs", Map.of("type", "layers", "diff_ids", List.of(digest(layer))));
    List<Descriptor> base =
        List.of(upload(repository, CONFIG, json(config)), upload(repository, LAYER, layer));
    bases.put(key, base);
    return base;
  }

  /** A monolithic blob upload: POST for a session, PUT of the content with its digest. */
  private Descriptor upload(String repository, String mediaType, byte[] blob) throws Exception {
    String digest = digest(blob);
    HttpResponse<String> session =
        send(
            HttpRequest.newBuilder(uri("/v2/" + repository + "/blobs/uploads/"))
                .POST(HttpRequest.BodyPublishers.noBody())
                .build(),
            202);
    String location =
        session
            .headers()
            .firstValue("Location")
            .orElseThrow(() -> new IllegalStateException("no upload location from " + host));
    URI target = URI.create("https://" + host + "/").resolve(location);
    String separator = target.getRawQuery() == null ? "?" : "&";
    send(
        HttpRequest.newBuilder(URI.create(target + separator + "digest=" + digest))
            .header("Content-Type", "application/octet-stream")
            .PUT(HttpRequest.BodyPublishers.ofByteArray(blob))
            .build(),
        201);
    return new Descriptor(mediaType, digest, blob.length);
  }

  /** PUTs every manifest, a few at a time; fails with the first refusal. */
  private void putAll(List<Put> puts) throws Exception {
    List<CompletableFuture<Void>> sent = new ArrayList<>();
    for (Put put : puts) {
      inFlight.acquire();
      HttpRequest request =
          HttpRequest.newBuilder(uri("/v2/" + put.repository() + "/manifests/" + put.reference()))
              .timeout(TIMEOUT)
              .header("Content-Type", put.mediaType())
              .PUT(HttpRequest.BodyPublishers.ofByteArray(put.body()))
              .build();
      sent.add(
          http.sendAsync(request, HttpResponse.BodyHandlers.ofString())
              .whenComplete((response, failure) -> inFlight.release())
              .thenAccept(response -> expect(response, 201)));
    }
    CompletableFuture.allOf(sent.toArray(CompletableFuture[]::new)).join();
  }

  private HttpResponse<String> send(HttpRequest request, int expected) throws Exception {
    return expect(http.send(request, HttpResponse.BodyHandlers.ofString()), expected);
  }

  private static HttpResponse<String> expect(HttpResponse<String> response, int expected) {
    if (response.statusCode() != expected) {
      throw new IllegalStateException(
          response.request().method()
              + " "
              + response.request().uri()
              + ": "
              + response.statusCode()
              + " "
              + response.body());
    }
    return response;
  }

  private URI uri(String path) {
    return URI.create("https://" + host + path);
  }

  private static Descriptor descriptor(String mediaType, byte[] body) {
    return new Descriptor(mediaType, digest(body), body.length);
  }

  private static byte[] json(Object value) {
    return Serialization.asJson(value).getBytes(StandardCharsets.UTF_8);
  }

  static String digest(byte[] content) {
    try {
      return "sha256:"
          + HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(content));
    } catch (java.security.NoSuchAlgorithmException e) {
      throw new IllegalStateException(e);
    }
  }

  /** A ustar archive of one regular file (mode 0644, owned by root, time 0). */
  static byte[] tar(String name, byte[] content) {
    byte[] header = new byte[512];
    field(header, 0, name);
    field(header, 100, "0000644");
    field(header, 108, "0000000");
    field(header, 116, "0000000");
    field(header, 124, String.format("%011o", content.length));
    field(header, 136, String.format("%011o", 0));
    java.util.Arrays.fill(header, 148, 156, (byte) ' ');
    header[156] = '0';
    field(header, 257, "ustar");
    field(header, 263, "00");
    int sum = 0;
    for (byte b : header) {
      sum += b & 0xff;
    }
    field(header, 148, String.format("%06o", sum));
    header[154] = 0;
    header[155] = ' ';
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    out.writeBytes(header);
    out.writeBytes(content);
    out.writeBytes(new byte[(512 - content.length % 512) % 512]);
    out.writeBytes(new byte[1024]);
    return out.toByteArray();
  }

  private static void field(byte[] header, int offset, String value) {
    byte[] bytes = value.getBytes(StandardCharsets.US_ASCII);
    System.arraycopy(bytes, 0, header, offset, bytes.length);
  }
}
