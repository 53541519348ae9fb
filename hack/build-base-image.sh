#!/usr/bin/env bash
# Builds the root filesystems our provider images start from, for Jib (the providers' `mvn package` builds their
# images with it, daemonless, FROM scratch plus these directories), one per platform:
# - linux/amd64: a Java runtime made with jlink from the build's own JDK (only the modules the providers use), the
#   shared libraries it links against taken from this machine's Debian packages (ldd);
# - linux/arm64: the same made from Debian's arm64 packages of this machine's release, downloaded with apt-get (a
#   private apt state, nothing installed): jlink links the arm64 JDK's jmods (with an amd64 jlink of the same
#   version, downloaded too), and the libraries the runtime's ELF files name (NEEDED, read with readelf, as nothing
#   arm64 runs here) come from the arm64 packages of the libraries the amd64 root holds;
# both with the non-root user 185 and /tmp. No registry is needed: there is none to pull a base image from.
# What each holds is written down as scanners read it: /etc/os-release and one dpkg status file per Debian package a
# file came from (/var/lib/dpkg/status.d/<package>, as distroless images do), with that package's version.
# Cached in $HACK_CACHE/images/jre-<java version>-<hash of this script>/root (amd64) and
# jre-<java version>-arm64-<hash of this script>/root (arm64, with the .debs it was made from in debs/), linked from
# provider-base and provider-base-arm64; built in a temporary directory and moved into place; beside root/, jre/ holds
# the runtime alone. Idempotent; the arm64 root is downloaded once per version of this script.
source "$(dirname "$0")/lib.sh"

# The providers' modules (jdeps over their jars, plus the TLS, DNS and management providers loaded by name).
jlink_options=(--add-modules java.base,java.logging,java.management,java.naming,java.net.http,java.sql,java.xml,java.desktop,java.security.jgss,java.instrument,jdk.crypto.ec,jdk.crypto.cryptoki,jdk.management,jdk.unsupported,jdk.naming.dns,jdk.zipfs
  --no-man-pages --no-header-files --compress=2)
# A dpkg status entry, for dpkg-query -W and dpkg-deb -W alike.
status_format='Package: ${Package}\nStatus: install ok installed\nPriority: ${Priority}\nSection: ${Section}\nInstalled-Size: ${Installed-Size}\nMaintainer: ${Maintainer}\nArchitecture: ${Architecture}\nMulti-Arch: ${Multi-Arch}\nSource: ${Source}\nVersion: ${Version}\nDescription: ${binary:Summary}\n'

skeleton() {
  mkdir -p "$1/opt" "$1/tmp" "$1/etc" "$1/deployments" "$1/var/lib/dpkg/status.d"
  chmod 1777 "$1/tmp"
}

users() {
  cp -L /etc/os-release "$1/etc/os-release"
  printf 'root:x:0:0:root:/root:/sbin/nologin\nprovider:x:185:0:provider:/deployments:/sbin/nologin\n' > "$1/etc/passwd"
  printf 'root:x:0:\n' > "$1/etc/group"
}

# runtime_executables ROOT: the runtime's executables and libraries (NUL-separated) whose libraries the image needs;
# not AWT's native libraries (java.desktop is here for java.beans, which YAML parsing uses; nothing draws).
runtime_executables() {
  find "$1/opt/java" -type f \( -name '*.so' -o -perm -u+x \) \
    ! -name 'libawt_xawt.so' ! -name 'libawt.so' ! -name 'libfontmanager.so' ! -name 'liblcms.so' \
    ! -name 'libjavajpeg.so' ! -name 'libsplashscreen.so' ! -name 'libjsound.so' ! -name 'libmlib_image.so' -print0
}

# runtime_alone WORK: WORK/jre, the runtime alone, for an image built FROM a base of the user's choosing that brings
# its own C library (-Dprovider.image.root=.../jre; docs/operations.md, "Container images").
runtime_alone() {
  mkdir -p "$1/jre/opt" "$1/jre/var/lib/dpkg/status.d"
  cp -a "$1/root/opt/java" "$1/jre/opt/"
  cp "$1/root/var/lib/dpkg/status.d/openjdk-"* "$1/jre/var/lib/dpkg/status.d/"
}

java_home="${JAVA_HOME:-$(dirname "$(dirname "$(readlink -f "$(command -v java)")")")}"
java_version=$("$java_home/bin/java" -XshowSettings:properties -version 2>&1 | awk -F' = ' '/java.runtime.version/ {print $2}')
script_hash=$(sha256sum "$0" | cut -c1-12)
target="$HACK_CACHE/images/jre-$java_version-$script_hash"
link="$HACK_CACHE/images/provider-base"
hold_cache_lock provider-base

if [[ ! -d "$target/root" ]]; then
  started=$(date +%s)
  [[ -d "$java_home/jmods" ]] || { log "$java_home has no jmods (Debian: apt-get install openjdk-17-jmods)"; exit 1; }
  mkdir -p "$HACK_CACHE/images"
  work=$(mktemp -d "$HACK_CACHE/images/.jre.XXXXXX")
  root="$work/root"
  skeleton "$root"
  "$java_home/bin/jlink" --module-path "$java_home/jmods" \
    "${jlink_options[@]}" --strip-debug --output "$root/opt/java"
  # The trust store: Debian's JDK links it to /etc/ssl/certs/java/cacerts; copy the file itself.
  cp -L "$java_home/lib/security/cacerts" "$root/opt/java/lib/security/cacerts"
  # Every shared library the runtime's executables and libraries need, with the dynamic loader, from this machine
  # (not the runtime's own, which ldd finds in place).
  runtime_executables "$root" | xargs -0 ldd 2>/dev/null | awk '/=> \// {print $3} /^[ \t]*\/lib/ {print $1}' | grep -v "^$root/" | sort -u \
    | while read -r lib; do
        mkdir -p "$root$(dirname "$lib")"
        cp -L "$lib" "$root$lib"
      done
  # The packages the runtime (jlinked from the JDK's jmods) and each copied library came from. /lib is /usr/lib on a
  # merged-/usr Debian, and dpkg knows some files by one name, some by the other.
  owner() {
    local file=$1 path found
    for path in "$file" "$(readlink -f "$file")" "/usr$file"; do
      found=$(dpkg-query -S "$path" 2>/dev/null | head -1 | sed 's/: .*//')
      [[ -n "$found" ]] && { echo "$found"; return 0; }
    done
    log "no Debian package owns $file"; return 1
  }
  packages=$( { owner "$java_home/jmods/java.base.jmod"
      find "$root" -type f -path '*/lib*' ! -path "$root/opt/*" | sed "s|^$root||" | while read -r lib; do owner "$lib"; done
    } | sort -u)
  for package in $packages; do
    dpkg-query -W -f="$status_format" "$package" | sed '/^[A-Za-z-]*: $/d' > "$root/var/lib/dpkg/status.d/${package%%:*}"
  done
  users "$root"
  "$root/opt/java/bin/java" -version >/dev/null 2>&1 || { log "the jlinked runtime does not start"; exit 1; }
  runtime_alone "$work"
  rm -rf "$target" && mv "$work" "$target"
  log "built the provider base ($(du -sh "$target/root" | cut -f1), Java $java_version) in $(( $(date +%s) - started ))s"
fi
ln -sfn "$target" "$link.tmp" && mv -T "$link.tmp" "$link"
log "provider base image root ready: $link/root"

# linux/arm64, from Debian's arm64 packages of this machine's release. The mirrors can be changed with DEBIAN_MIRROR and
# DEBIAN_SECURITY_MIRROR.
arm64_link="$HACK_CACHE/images/provider-base-arm64"
arm64_target=$(find "$HACK_CACHE/images" -mindepth 1 -maxdepth 1 -type d -name "jre-*-arm64-$script_hash" | sort | tail -1)
if [[ -z "$arm64_target" || ! -d "$arm64_target/root" ]]; then
  started=$(date +%s)
  work=$(mktemp -d "$HACK_CACHE/images/.jre-arm64.XXXXXX")
  trap 'rm -rf "$work"' EXIT
  root="$work/root" debs="$work/debs" apt_dir="$work/apt" packages_dir="$work/packages"
  skeleton "$root"
  mkdir -p "$debs" "$packages_dir" "$apt_dir/lists/partial" "$apt_dir/archives/partial" "$apt_dir/jlink"
  : > "$apt_dir/status"
  codename=$(. /etc/os-release && echo "$VERSION_CODENAME")
  mirror="${DEBIAN_MIRROR:-http://deb.debian.org/debian}"
  security_mirror="${DEBIAN_SECURITY_MIRROR:-http://deb.debian.org/debian-security}"
  signed="arch=arm64,amd64 signed-by=/usr/share/keyrings/debian-archive-keyring.gpg"
  printf 'deb [%s] %s %s main\n' "$signed" "$mirror" "$codename" "$signed" "$mirror" "$codename-updates" \
    "$signed" "$security_mirror" "$codename-security" > "$apt_dir/sources.list"
  # A private apt state: this machine's own apt configuration and packages are neither read nor changed.
  apt_options=(-q -o "Dir::Etc::SourceList=$apt_dir/sources.list" -o Dir::Etc::SourceParts=/nonexistent
    -o "Dir::State::Lists=$apt_dir/lists" -o "Dir::State::status=$apt_dir/status" -o "Dir::Cache=$apt_dir"
    -o "Dir::Cache::archives=$apt_dir/archives" -o APT::Architecture=arm64 -o APT::Architectures::=arm64
    -o APT::Architectures::=amd64 -o APT::Sandbox::User=root -o Debug::NoLocking=1)
  apt_run() {
    local what=$1; shift
    "$@" > "$apt_dir/apt.log" 2>&1 || {
      log "cannot $what from Debian $codename ($mirror, $security_mirror; set DEBIAN_MIRROR or DEBIAN_SECURITY_MIRROR):"
      cat "$apt_dir/apt.log" >&2; return 1; }
  }
  apt_run "read the package indexes" apt-get "${apt_options[@]}" --error-on=any update
  # The same packages as the amd64 root: the JDK whose jmods jlink used and the libraries it holds (a closed set:
  # ldd lists libraries of libraries).
  jdk_package=$(ls "$link/root/var/lib/dpkg/status.d" | grep '^openjdk-')
  libraries=$(ls "$link/root/var/lib/dpkg/status.d" | grep -v '^openjdk-')
  version=$(apt-cache "${apt_options[@]}" show --no-all-versions "$jdk_package:arm64" 2>/dev/null | awk '/^Version:/ {print $2}')
  [[ -n "$version" ]] || { log "Debian $codename has no $jdk_package for arm64 ($mirror, $security_mirror)"; exit 1; }
  # shellcheck disable=SC2086
  (cd "$debs" && apt_run "download the arm64 packages" apt-get "${apt_options[@]}" download "$jdk_package:arm64" \
    $(printf '%s:arm64 ' $libraries))
  # jlink links another platform's jmods when it is of their very version: an amd64 JDK of the arm64 one's version.
  (cd "$apt_dir/jlink" && apt_run "download the amd64 JDK $version (for its jlink)" apt-get "${apt_options[@]}" download \
    "$jdk_package:amd64=$version" "${jdk_package/-jdk-/-jre-}:amd64=$version")
  for deb in "$apt_dir"/jlink/*.deb; do dpkg-deb -x "$deb" "$apt_dir/jlink/tree"; done
  # Debian's JDK keeps its configuration in /etc: point those links into the extracted tree.
  find "$apt_dir/jlink/tree" -type l -lname '/*' | while read -r l; do
    [[ -e "$apt_dir/jlink/tree$(readlink "$l")" ]] && ln -sfn "$apt_dir/jlink/tree$(readlink "$l")" "$l"
  done
  for deb in "$debs"/*.deb; do dpkg-deb -x "$deb" "$packages_dir/$(dpkg-deb -f "$deb" Package)"; done
  jlink=$(find "$apt_dir/jlink/tree" -path '*/bin/jlink' -type f | head -1)
  jmods=$(dirname "$(find "$packages_dir/$jdk_package" -name java.base.jmod | head -1)")
  # Java's debug attributes only: this machine's objcopy cannot read arm64 files (Debian's native libraries carry no
  # debug sections anyway; they are in its -dbgsym packages).
  "$jlink" --module-path "$jmods" "${jlink_options[@]}" --strip-java-debug-attributes --output "$root/opt/java"
  cp -L "$link/root/opt/java/lib/security/cacerts" "$root/opt/java/lib/security/cacerts"
  # Every library the runtime's ELF files need (NEEDED) and the dynamic loader (INTERP), and theirs in turn, from
  # the packages, at their paths there (the loader's default directories); the runtime's own are found in place.
  declare -A seen=() owners=()
  queue=()
  while IFS= read -r -d '' file; do queue+=("$file"); done < <(runtime_executables "$root")
  while ((${#queue[@]})); do
    file=${queue[0]} && queue=("${queue[@]:1}")
    [[ -z "${seen[$file]:-}" ]] || continue
    seen[$file]=1
    readelf -h "$file" | grep -q 'Machine: *AArch64' || { log "$file is not an arm64 ELF file"; exit 1; }
    for name in $(readelf -d "$file" | sed -n 's/.*(NEEDED).*\[\(.*\)\]$/\1/p') \
        $(readelf -l "$file" | sed -n 's/.*program interpreter: \(.*\)\]$/\1/p'); do
      own=$(find "$root/opt/java" -name "$name" -print -quit)
      [[ -z "$own" ]] || { queue+=("$own"); continue; }
      if [[ $name == /* ]]; then paths=("${name#/}"); else paths=({lib,usr/lib}/aarch64-linux-gnu/"$name"); fi
      found=""
      for package_root in "$packages_dir"/*; do
        for path in "${paths[@]}"; do
          # (a link out of the package would copy this machine's amd64 file)
          [[ -e "$package_root/$path" && $(readlink -f "$package_root/$path") == "$package_root"/* ]] \
            && found=$path && break 2
        done
      done
      [[ -n "$found" ]] || { log "no arm64 package of $libraries has $name, which $file needs"; exit 1; }
      [[ -e "$root/$found" ]] || { mkdir -p "$(dirname "$root/$found")" && cp -L "$package_root/$found" "$root/$found"; }
      owners[$(basename "$package_root")]=1
      queue+=("$root/$found")
    done
  done
  for package in "$jdk_package" "${!owners[@]}"; do
    dpkg-deb --showformat="$status_format" -W "$debs/${package}_"*_arm64.deb | sed '/^[A-Za-z-]*: $/d' \
      > "$root/var/lib/dpkg/status.d/$package"
  done
  users "$root"
  runtime_alone "$work"
  runtime_version=$(sed -n 's/^JAVA_RUNTIME_VERSION="\(.*\)"/\1/p' "$root/opt/java/release")
  rm -rf "$apt_dir" "$packages_dir"
  arm64_target="$HACK_CACHE/images/jre-${runtime_version:-$version}-arm64-$script_hash"
  rm -rf "$arm64_target" && mv "$work" "$arm64_target"
  trap - EXIT
  log "built the arm64 provider base ($(du -sh "$arm64_target/root" | cut -f1), Java ${runtime_version:-$version}, ${#owners[@]} library packages) in $(( $(date +%s) - started ))s"
fi
ln -sfn "$arm64_target" "$arm64_link.tmp" && mv -T "$arm64_link.tmp" "$arm64_link"
log "arm64 provider base image root ready: $arm64_link/root"
