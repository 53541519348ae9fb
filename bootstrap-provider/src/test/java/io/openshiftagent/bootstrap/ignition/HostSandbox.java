package io.openshiftagent.bootstrap.ignition;

import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * Runs our host scripts for real (bash, jq, grep, sed, awk, mount) as a host would at boot, in a
 * private mount namespace where {@code /etc} is the machine's with our writes kept aside (an
 * overlay, so the machine's own stays untouched) and {@code /run} is empty. What a test cannot give
 * is played at the edges, by commands found first on the PATH: the config drive is a directory that
 * {@code mount -L config-2} binds (or none), {@code hostnamectl set-hostname} writes {@code
 * /etc/hostname}, and {@code systemctl cat kubelet.service} prints the kubelet unit given.
 */
final class HostSandbox implements AutoCloseable {
  private static final ObjectMapper JSON = new ObjectMapper();

  private final Path dir = Files.createTempDirectory("host-sandbox");
  private final Path configDrive = dir.resolve("config-drive");
  private final Path state = dir.resolve("state");
  private final Path bin = dir.resolve("bin");

  HostSandbox(String kubeletUnit) throws IOException {
    Files.createDirectories(state);
    Files.createDirectories(bin);
    Files.writeString(dir.resolve("kubelet.service"), kubeletUnit);
    executable(
        "mount",
        """
        #!/bin/bash
        if [ "$1 $2 $3 $4" = "-o ro -L config-2" ]; then
          [ -d "%s" ] || { echo 'mount: no filesystem labelled config-2' >&2; exit 32; }
          exec /usr/bin/mount --bind -o ro "%s" "$5"
        fi
        exec /usr/bin/mount "$@"
        """
            .formatted(configDrive, configDrive));
    executable(
        "hostnamectl",
        """
        #!/bin/bash
        [ "$1" = set-hostname ] && printf '%s\\n' "$2" > /etc/hostname
        """);
    executable(
        "systemctl",
        """
        #!/bin/bash
        case "$1" in
          cat) cat "%s"; for f in /etc/systemd/system/kubelet.service.d/*.conf; do
                 if [ -f "$f" ]; then echo; echo "# $f"; cat "$f"; fi; done ;;
          daemon-reload) echo reloaded >> /run/daemon-reloads ;;
        esac
        """
            .formatted(dir.resolve("kubelet.service")));
  }

  /** The host has a config drive with this {@code meta_data.json}. */
  HostSandbox configDrive(Map<String, ?> metaData) throws IOException {
    Path latest = configDrive.resolve("openstack/latest");
    Files.createDirectories(latest);
    Files.writeString(latest.resolve("meta_data.json"), JSON.writeValueAsString(metaData));
    return this;
  }

  /**
   * Boots once: runs {@code scripts} in order in a fresh namespace whose {@code /etc} holds what
   * earlier boots wrote, and returns the files the boots wrote to {@code /etc} and {@code /run}.
   */
  Map<String, String> boot(List<String> scripts) throws IOException, InterruptedException {
    List<String> lines = new ArrayList<>();
    lines.add("set -e");
    lines.add("mkdir -p " + state + "/etc " + state + "/work");
    lines.add(
        "mount -t overlay overlay -o lowerdir=/etc,upperdir="
            + state
            + "/etc,workdir="
            + state
            + "/work /etc");
    lines.add("mount -t tmpfs none /run");
    lines.add("export PATH=" + bin + ":/usr/bin:/bin:/usr/sbin:/sbin");
    for (int i = 0; i < scripts.size(); i++) {
      Path script = dir.resolve("script-" + i);
      Files.writeString(script, scripts.get(i));
      // traced: a failed boot shows each command it ran
      lines.add("bash -x " + script);
    }
    lines.add("rm -rf " + state + "/run-copy && mkdir -p " + state + "/run-copy");
    lines.add("cp -a /run/. " + state + "/run-copy/");
    Path runner = dir.resolve("boot.sh");
    Files.writeString(runner, String.join("\n", lines) + "\n");
    Process process =
        new ProcessBuilder("unshare", "-m", "--propagation", "private", "bash", runner.toString())
            .redirectErrorStream(true)
            .start();
    String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    if (!process.waitFor(60, TimeUnit.SECONDS) || process.exitValue() != 0) {
      throw new AssertionError("the boot failed:\n" + output);
    }
    Map<String, String> files = new HashMap<>();
    collect(state.resolve("etc"), "/etc", files);
    collect(state.resolve("run-copy"), "/run", files);
    return files;
  }

  private static void collect(Path root, String prefix, Map<String, String> files)
      throws IOException {
    if (!Files.isDirectory(root)) {
      return;
    }
    try (var paths = Files.walk(root)) {
      for (Path path : paths.filter(Files::isRegularFile).toList()) {
        files.put(prefix + "/" + root.relativize(path), Files.readString(path));
      }
    }
  }

  private void executable(String name, String content) throws IOException {
    Path path = bin.resolve(name);
    Files.writeString(path, content);
    Files.setPosixFilePermissions(path, PosixFilePermissions.fromString("rwxr-xr-x"));
  }

  @Override
  public void close() throws IOException {
    try (var paths = Files.walk(dir)) {
      for (Path path : paths.sorted(java.util.Comparator.reverseOrder()).toList()) {
        Files.deleteIfExists(path);
      }
    }
  }
}
