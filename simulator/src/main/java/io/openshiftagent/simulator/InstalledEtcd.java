package io.openshiftagent.simulator;

import com.fasterxml.jackson.databind.JsonNode;
import io.fabric8.kubernetes.client.utils.Serialization;
import io.openshiftagent.testsupport.FreePorts;
import io.openshiftagent.testsupport.TestPaths;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;
import java.util.function.Supplier;
import java.util.stream.Collectors;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The real etcd cluster of one installed cluster: one etcd process ({@code
 * hack/build-kube-binaries.sh}) per control-plane host, on loopback, each member named after its
 * Node. Members join as OpenShift's etcd operator makes them join (all at once at the bootstrap;
 * later with {@code etcdctl member add}, then the new process started); only {@code etcdctl member
 * remove} takes one out. What it says comes from the real {@code etcdctl} ({@code
 * hack/build-kwok.sh}). Plain HTTP: the members' certificates are not what is tested here.
 */
final class InstalledEtcd implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(InstalledEtcd.class);
  private static final long READY_TIMEOUT_MS = 30_000;

  /** A member as {@code etcdctl member list} shows it; an added, unstarted member has no name. */
  record Member(String name, String hexId) {}

  /** One host's etcd: its URLs and directory, and its process while it runs. */
  private static final class Host {
    final String clientUrl = "http://127.0.0.1:" + FreePorts.next();
    final String peerUrl = "http://127.0.0.1:" + FreePorts.next();
    final Path dataDir;
    volatile Process process;

    Host(Path dataDir) {
      this.dataDir = dataDir;
    }

    boolean running() {
      return process != null && process.isAlive();
    }
  }

  private final Path dir;
  private final String token;
  private final Map<String, Host> hosts = new ConcurrentHashMap<>();

  /** Data and logs under {@code dir}; {@code token}, the cluster's name, keeps members apart. */
  InstalledEtcd(Path dir, String token) {
    this.dir = dir;
    this.token = token;
  }

  /** The installer's bootstrap: every control-plane host a member of a new cluster, at once. */
  synchronized void bootstrap(Collection<String> nodes) {
    for (String node : nodes) {
      hosts.put(node, new Host(freshDir(node)));
    }
    String initial =
        hosts.entrySet().stream()
            .map(h -> h.getKey() + "=" + h.getValue().peerUrl)
            .collect(Collectors.joining(","));
    hosts.forEach((name, host) -> launch(name, host, initial, "new"));
    hosts.forEach(this::awaitHealthy);
    LOG.info("etcd of {} bootstrapped with {}", token, hosts.keySet());
  }

  /**
   * Adds a host as OpenShift's operator does: {@code etcdctl member add} (refused by etcd while it
   * would cost quorum), then its etcd started with the member list etcd answered.
   */
  synchronized void add(String node) {
    Host host = new Host(freshDir(node));
    String answer = memberAdd(node, host);
    String initial =
        answer
            .lines()
            .filter(l -> l.startsWith("ETCD_INITIAL_CLUSTER="))
            .map(l -> l.substring("ETCD_INITIAL_CLUSTER=".length()).replace("\"", ""))
            .findFirst()
            .orElseThrow(() -> new IllegalStateException("etcdctl member add said: " + answer));
    hosts.put(node, host);
    launch(node, host, initial, "existing");
    awaitHealthy(node, host);
    LOG.info("etcd member {} of {} added and started", node, token);
  }

  /**
   * {@code etcdctl member add}, tried again while etcd answers "unhealthy cluster": its leader adds
   * a member only once it has been connected to a quorum for 5 s, e.g. not right after a start.
   */
  private String memberAdd(String node, Host host) {
    return retry(
        () ->
            run(
                "member",
                "add",
                node,
                "--peer-urls=" + host.peerUrl,
                "--endpoints=" + String.join(",", runningClientUrls())),
        failed -> failed.getMessage().contains("unhealthy cluster"));
  }

  /** Waits until the member serves: its own health, which needs the cluster's quorum. */
  private void awaitHealthy(String name, Host host) {
    retry(
        () -> run("endpoint", "health", "--endpoints=" + host.clientUrl), notYet -> host.running());
  }

  /** Calls until it returns, while {@code passing} says its failure may pass, for 30 s at most. */
  private static String retry(Supplier<String> call, Predicate<IllegalStateException> passing) {
    long deadline = System.currentTimeMillis() + READY_TIMEOUT_MS;
    while (true) {
      try {
        return call.get();
      } catch (IllegalStateException e) {
        if (!passing.test(e) || System.currentTimeMillis() > deadline) {
          throw e;
        }
      }
      try {
        Thread.sleep(250);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new IllegalStateException("interrupted waiting for etcd", e);
      }
    }
  }

  /** Stops a host's etcd (its host went away, or its etcd fails); its data stays. */
  synchronized void stop(String node) {
    Host host = hosts.get(node);
    if (host != null && host.running()) {
      host.process.destroyForcibly().onExit().join();
      LOG.info("etcd member {} of {} stopped", node, token);
    }
  }

  /** Starts a stopped host's etcd again from its data: it rejoins as the member it was. */
  synchronized void restart(String node) {
    Host host = hosts.get(node);
    if (host != null && !host.running()) {
      launch(node, host, node + "=" + host.peerUrl, "existing");
      awaitHealthy(node, host);
    }
  }

  /** Forgets a host whose member etcd removed, stopping its process if it still runs. */
  synchronized void forget(String node) {
    stop(node);
    hosts.remove(node);
  }

  synchronized boolean running(String node) {
    Host host = hosts.get(node);
    return host != null && host.running();
  }

  /** The hosts that have (or had, until etcd removes their member) an etcd. */
  synchronized List<String> hosts() {
    return List.copyOf(hosts.keySet());
  }

  /** The client URL of a host's etcd, or null. */
  synchronized String clientUrl(String node) {
    Host host = hosts.get(node);
    return host == null ? null : host.clientUrl;
  }

  /** The client URLs of the etcd processes that run (not waiting for a member being added). */
  List<String> runningClientUrls() {
    return hosts.values().stream().filter(Host::running).map(h -> h.clientUrl).toList();
  }

  /**
   * The members, as {@code etcdctl member list -w json} shows them; throws when etcd does not
   * answer (none of its processes runs, or it has no quorum).
   */
  List<Member> members() {
    JsonNode list =
        Serialization.unmarshal(run("member", "list", "-w", "json", endpoints()), JsonNode.class);
    List<Member> members = new ArrayList<>();
    if (list.path("members").isEmpty()) {
      // etcd that answers lists at least the member that answered.
      throw new IllegalStateException("etcdctl listed no member: " + list);
    }
    for (JsonNode m : list.path("members")) {
      members.add(
          new Member(m.path("name").asText(""), m.path("ID").bigIntegerValue().toString(16)));
    }
    return members;
  }

  /** Runs the real etcdctl against the etcd processes that run; its output. */
  String etcdctl(String... args) {
    List<String> all = new ArrayList<>(List.of(args));
    all.add(endpoints());
    return run(all.toArray(String[]::new));
  }

  private String endpoints() {
    if (runningClientUrls().isEmpty()) {
      throw new IllegalStateException("no etcd member of " + token + " runs");
    }
    return "--endpoints=" + String.join(",", runningClientUrls());
  }

  private static String run(String... args) {
    List<String> command = new ArrayList<>();
    command.add(TestPaths.tool("etcdctl").toString());
    command.add("--command-timeout=5s");
    command.addAll(List.of(args));
    try {
      Process p = new ProcessBuilder(command).start();
      // Its log (warnings such as a retry on a member that went away) is on stderr, kept apart
      // from the answer on stdout.
      CompletableFuture<String> err = CompletableFuture.supplyAsync(() -> read(p.getErrorStream()));
      String out = read(p.getInputStream());
      if (!p.waitFor(30, TimeUnit.SECONDS) || p.exitValue() != 0) {
        throw new IllegalStateException(
            String.join(" ", command) + " failed: " + err.join().strip() + " " + out.strip());
      }
      return out;
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted running etcdctl", e);
    }
  }

  private static String read(InputStream in) {
    try {
      return new String(in.readAllBytes(), StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private void launch(String name, Host host, String initialCluster, String state) {
    Path etcd = TestPaths.kubeBinaries().resolve("etcd");
    List<String> command =
        List.of(
            etcd.toString(),
            "--name=" + name,
            "--data-dir=" + host.dataDir,
            "--listen-client-urls=" + host.clientUrl,
            "--advertise-client-urls=" + host.clientUrl,
            "--listen-peer-urls=" + host.peerUrl,
            "--initial-advertise-peer-urls=" + host.peerUrl,
            "--initial-cluster=" + initialCluster,
            "--initial-cluster-state=" + state,
            "--initial-cluster-token=" + token,
            "--log-level=warn");
    try {
      host.process =
          new ProcessBuilder(command)
              .redirectErrorStream(true)
              .redirectOutput(ProcessBuilder.Redirect.appendTo(dir.resolve(name + ".log").toFile()))
              .start();
    } catch (IOException e) {
      throw new UncheckedIOException("cannot start etcd member " + name, e);
    }
  }

  /** A new, empty data directory for a host (a reused host joins as a new member). */
  private Path freshDir(String node) {
    try {
      Files.createDirectories(dir);
      Path data = Files.createTempDirectory(dir, node + "-");
      return data.resolve("data");
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  @Override
  public String toString() {
    return "etcd of " + token;
  }

  @Override
  public synchronized void close() {
    List.copyOf(hosts.keySet()).forEach(this::stop);
  }
}
