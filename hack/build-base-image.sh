#!/usr/bin/env bash
# Builds the root filesystem our provider images start from, for Jib (the providers' `mvn package` builds their
# images with it, daemonless, FROM scratch plus this directory): a Java runtime made with jlink from the build's own
# JDK (only the modules the providers use), the shared libraries it links against taken from this machine's Debian
# packages (ldd), the non-root user 185, and /tmp. No registry is needed: there is none to pull a base image from.
# What it holds is written down as scanners read it: /etc/os-release and one dpkg status file per Debian package a file
# came from (/var/lib/dpkg/status.d/<package>, as distroless images do), with that package's version.
# Cached in $HACK_CACHE/images/jre-<java version>-<hash of this script>/root; built in a temporary directory and
# moved into place; beside root/, jre/ holds the runtime alone. Idempotent.
source "$(dirname "$0")/lib.sh"

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
  mkdir -p "$root/opt" "$root/tmp" "$root/etc" "$root/deployments"
  chmod 1777 "$root/tmp"
  # The providers' modules (jdeps over their jars, plus the TLS, DNS and management providers loaded by name).
  "$java_home/bin/jlink" --module-path "$java_home/jmods" \
    --add-modules java.base,java.logging,java.management,java.naming,java.net.http,java.sql,java.xml,java.desktop,java.security.jgss,java.instrument,jdk.crypto.ec,jdk.crypto.cryptoki,jdk.management,jdk.unsupported,jdk.naming.dns,jdk.zipfs \
    --strip-debug --no-man-pages --no-header-files --compress=2 --output "$root/opt/java"
  # The trust store: Debian's JDK links it to /etc/ssl/certs/java/cacerts; copy the file itself.
  cp -L "$java_home/lib/security/cacerts" "$root/opt/java/lib/security/cacerts"
  # Every shared library the runtime's executables and libraries need, with the dynamic loader, from this machine
  # (not the runtime's own, which ldd finds in place);
  # not those of AWT's native libraries (java.desktop is here for java.beans, which YAML parsing uses; nothing draws).
  find "$root/opt/java" -type f \( -name '*.so' -o -perm -u+x \) \
    ! -name 'libawt_xawt.so' ! -name 'libawt.so' ! -name 'libfontmanager.so' ! -name 'liblcms.so' \
    ! -name 'libjavajpeg.so' ! -name 'libsplashscreen.so' ! -name 'libjsound.so' ! -name 'libmlib_image.so' -print0 \
    | xargs -0 ldd 2>/dev/null | awk '/=> \// {print $3} /^[ \t]*\/lib/ {print $1}' | grep -v "^$root/" | sort -u \
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
  mkdir -p "$root/var/lib/dpkg/status.d"
  for package in $packages; do
    dpkg-query -W -f='Package: ${Package}\nStatus: install ok installed\nPriority: ${Priority}\nSection: ${Section}\nInstalled-Size: ${Installed-Size}\nMaintainer: ${Maintainer}\nArchitecture: ${Architecture}\nMulti-Arch: ${Multi-Arch}\nSource: ${Source}\nVersion: ${Version}\nDescription: ${binary:Summary}\n' \
      "$package" | sed '/^[A-Za-z-]*: $/d' > "$root/var/lib/dpkg/status.d/${package%%:*}"
  done
  cp -L /etc/os-release "$root/etc/os-release"
  printf 'root:x:0:0:root:/root:/sbin/nologin\nprovider:x:185:0:provider:/deployments:/sbin/nologin\n' > "$root/etc/passwd"
  printf 'root:x:0:\n' > "$root/etc/group"
  "$root/opt/java/bin/java" -version >/dev/null 2>&1 || { log "the jlinked runtime does not start"; exit 1; }
  # The runtime alone, for an image built FROM a base of the user's choosing that brings its own C library
  # (-Dprovider.image.root=.../jre; docs/operations.md, "Container images").
  mkdir -p "$work/jre/opt" "$work/jre/var/lib/dpkg/status.d"
  cp -a "$root/opt/java" "$work/jre/opt/"
  cp "$root/var/lib/dpkg/status.d/openjdk-"* "$work/jre/var/lib/dpkg/status.d/"
  rm -rf "$target" && mv "$work" "$target"
  log "built the provider base ($(du -sh "$target/root" | cut -f1), Java $java_version) in $(( $(date +%s) - started ))s"
fi
ln -sfn "$target" "$link.tmp" && mv -T "$link.tmp" "$link"
log "provider base image root ready: $link/root"
