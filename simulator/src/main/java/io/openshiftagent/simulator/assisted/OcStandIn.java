package io.openshiftagent.simulator.assisted;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;
import java.util.stream.Stream;

/**
 * The {@code oc} that assisted-service finds on its PATH: it runs {@code oc} by name to ask about
 * release images (internal/oc/release.go), which would read the release payload's metadata from its
 * registry. This stand-in answers from what the world knows: for an image by digest (in any
 * repository: a mirror holds the same digests), the version and architecture of the {@link
 * ReleaseCatalog} entry with that digest; for an image tagged {@code
 * <repository>:<version>[-<architecture>]} (as our providers name releases when asked for tags),
 * the version from the tag and the architecture from its suffix (none: amd64); and for {@code
 * --image-for=<name>} of a component such a payload has a digest reference derived from the release
 * and the name (a component it does not have, such as {@code okd-rpms}, fails as with the real
 * payload). Anything else fails with a message naming the call. Every call is appended to {@code
 * oc-calls.log} (its arguments; the pull secret is in a temporary file the service names, never
 * read here), so docs/e2e.md can list what it answered.
 */
final class OcStandIn {
  static final String CALLS_LOG = "oc-calls.log";

  /** The catalog's releases by digest, one {@code <digest> <version> <architecture>} per line. */
  static final String DIGESTS = "release-digests.txt";

  private static final String SCRIPT =
      """
      #!/bin/bash
      # oc as assisted-service calls it, answered for the simulated registry of openshift-agent's local
      # world (see simulator/.../assisted/OcStandIn.java).
      set -u
      printf '%s\\n' "$*" >> "$(dirname "$0")/../CALLS_LOG"
      image=""
      image_for=""
      for arg in "$@"; do
        case "$arg" in
          --image-for=*) image_for="${arg#--image-for=}"; arg_image_for="$image_for" ;;
          -*|"'{{.metadata.version}}'"|template|json|adm|release|info|image) ;;
          *) image="$arg" ;;
        esac
      done
      arch=amd64
      if [[ "$image" == *@sha256:* ]]; then
        # By digest, in any repository (a mirror holds the same digests): the world's release catalog.
        read -r _ version catalog_arch < <(grep -F "${image#*@} " "$(dirname "$0")/../DIGESTS" || true)
        if [[ -z "${version:-}" ]]; then
          echo "oc (simulated registry): no release with the digest of $image" >&2
          exit 1
        fi
        case "$catalog_arch" in
          x86_64) arch=amd64 ;;
          aarch64) arch=arm64 ;;
          *) arch="$catalog_arch" ;;
        esac
      else
        tag="${image##*:}"
        if [[ -z "$image" || "$tag" == "$image" || "$tag" == */* ]]; then
          echo "oc (simulated registry): no tagged release image in: $*" >&2
          exit 1
        fi
        case "$tag" in
          *-x86_64) version="${tag%-x86_64}" ;;
          *-aarch64) version="${tag%-aarch64}"; arch=arm64 ;;
          *-ppc64le) version="${tag%-ppc64le}"; arch=ppc64le ;;
          *-s390x) version="${tag%-s390x}"; arch=s390x ;;
          *-multi) version="${tag%-multi}"; arch=multi ;;
          *) version="$tag" ;;
        esac
      fi
      case "${1:-} ${2:-} ${3:-}" in
        "adm release info")
          if [[ -n "$image_for" ]]; then
            # The components a release payload has (an OKD payload's CoreOS is stream-coreos); an OCP or
            # SCOS payload has no okd-rpms, for instance.
            case "$image_for" in
              machine-config-operator|must-gather|ironic-agent|cli|installer|cluster-version-operator) ;;
              rhel-coreos|rhel-coreos-extensions) [[ "$version" != *okd* ]] || image_for="" ;;
              stream-coreos|stream-coreos-extensions) [[ "$version" == *okd* ]] || image_for="" ;;
              *) image_for="" ;;
            esac
            if [[ -z "$image_for" ]]; then
              echo "error: no image tag \\\"${arg_image_for}\\\" exists in the release image $image" >&2
              exit 1
            fi
            digest=$(printf '%s %s' "$image" "$image_for" | sha256sum | cut -d' ' -f1)
            echo "${image%%/*}/openshift-release-dev/ocp-v4.0-art-dev@sha256:$digest"
          else
            echo "$version"
          fi ;;
        "image info --output")
          if [[ "$arch" == multi ]]; then
            echo "oc (simulated registry): $image is a manifest list" >&2
            exit 1
          fi
          printf '{"name":"%s","config":{"architecture":"%s","os":"linux"}}\\n' "$image" "$arch" ;;
        *)
          echo "oc (simulated registry): not answered here: $*" >&2
          exit 1 ;;
      esac
      """;

  private OcStandIn() {}

  /**
   * Writes {@code dir}/bin/oc and what it knows of {@code releases}; returns {@code dir}/bin, for
   * the front of the service's PATH.
   */
  static Path install(Path dir, ReleaseCatalog releases) {
    try {
      Path bin = Files.createDirectories(dir.resolve("bin"));
      Files.writeString(dir.resolve(DIGESTS), releases.digestLines());
      Path oc = bin.resolve("oc");
      Files.writeString(oc, SCRIPT.replace("CALLS_LOG", CALLS_LOG).replace("DIGESTS", DIGESTS));
      Files.setPosixFilePermissions(oc, PosixFilePermissions.fromString("rwxr-xr-x"));
      return bin;
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** The calls answered so far, one line of arguments each. */
  static List<String> calls(Path dir) {
    Path log = dir.resolve(CALLS_LOG);
    if (!Files.exists(log)) {
      return List.of();
    }
    try (Stream<String> lines = Files.lines(log)) {
      return lines.toList();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
