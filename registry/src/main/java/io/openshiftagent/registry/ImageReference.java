package io.openshiftagent.registry;

import java.util.Objects;
import java.util.regex.Pattern;

/**
 * A container image reference, {@code registry/repository[:tag][@digest]}. The registry is the
 * first path component when it looks like a host (a dot, a port or {@code localhost}); release
 * images always name one, so references without a registry are refused rather than sent to Docker
 * Hub.
 */
public record ImageReference(String registry, String repository, String tag, String digest) {
  private static final Pattern DIGEST = Pattern.compile("sha256:[0-9a-f]{64}");
  private static final Pattern TAG = Pattern.compile("[\\w][\\w.-]{0,127}");
  private static final Pattern REPOSITORY =
      Pattern.compile(
          "[a-z0-9]+(?:(?:[._]|__|-+)[a-z0-9]+)*(?:/[a-z0-9]+(?:(?:[._]|__|-+)[a-z0-9]+)*)*");

  public ImageReference {
    Objects.requireNonNull(registry);
    Objects.requireNonNull(repository);
  }

  /**
   * Parses {@code value}.
   *
   * @throws IllegalArgumentException naming what is wrong with it
   */
  public static ImageReference parse(String value) {
    String rest = value == null ? "" : value.trim();
    if (rest.isEmpty()) {
      throw new IllegalArgumentException("an image reference is empty");
    }
    String digest = null;
    int at = rest.indexOf('@');
    if (at >= 0) {
      digest = rest.substring(at + 1);
      rest = rest.substring(0, at);
      if (!DIGEST.matcher(digest).matches()) {
        throw new IllegalArgumentException(
            "image " + value + ": the digest is not sha256: followed by 64 hex digits");
      }
    }
    int slash = rest.indexOf('/');
    String first = slash < 0 ? "" : rest.substring(0, slash);
    if (slash < 0 || !(first.contains(".") || first.contains(":") || first.equals("localhost"))) {
      throw new IllegalArgumentException(
          "image " + value + " names no registry host (e.g. quay.io/org/repository:tag)");
    }
    String path = rest.substring(slash + 1);
    String tag = null;
    int colon = path.lastIndexOf(':');
    if (colon >= 0) {
      tag = path.substring(colon + 1);
      path = path.substring(0, colon);
      if (!TAG.matcher(tag).matches()) {
        throw new IllegalArgumentException("image " + value + ": invalid tag " + tag);
      }
    }
    if (!REPOSITORY.matcher(path).matches()) {
      throw new IllegalArgumentException("image " + value + ": invalid repository " + path);
    }
    return new ImageReference(first, path, tag, digest);
  }

  /** {@code registry/repository}, without tag or digest. */
  public String name() {
    return registry + "/" + repository;
  }

  /** The same repository, pinned to {@code digest} (the tag dropped). */
  public ImageReference withDigest(String digest) {
    return new ImageReference(registry, repository, null, digest);
  }

  /** The same tag or digest in another repository (a mirror's {@code registry/path}). */
  public ImageReference inRepository(String name) {
    ImageReference target = parse(name);
    return new ImageReference(target.registry, target.repository, tag, digest);
  }

  public boolean hasDigest() {
    return digest != null;
  }

  /** The tag, else the digest: what a registry's manifests endpoint takes. */
  public String qualifier() {
    return digest != null ? digest : tag != null ? tag : "latest";
  }

  @Override
  public String toString() {
    return name() + (tag != null ? ":" + tag : "") + (digest != null ? "@" + digest : "");
  }
}
