package io.openshiftagent.simulator.demo;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.openshiftagent.simulator.ApiVersions;
import io.openshiftagent.simulator.Fields;
import io.openshiftagent.simulator.SimulatedDurations;
import io.openshiftagent.simulator.World;
import io.openshiftagent.testsupport.PublishedReleases;
import io.openshiftagent.testsupport.TestPaths;
import java.io.IOException;
import java.io.InputStream;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;
import org.slf4j.LoggerFactory;

/**
 * The project's main job on a laptop: starts the local world, applies a highly available cluster (3
 * control-plane Machines, 2 workers, LiveISO) with kubectl, shows its progress live until it is
 * Available, then scales the workers, upgrades OpenShift and deletes the cluster, saying what each
 * step does and how long it took. Run by {@code hack/demo.sh}.
 */
public final class Demo {
  private static final String NAMESPACE = "demo";
  private static final String CLUSTER = "demo";
  private static final String UPGRADE_TO = "4.20.1";
  private static final String WORKERS = CLUSTER + "-worker";

  /**
   * How long a step may take. On the shared world, beside the other classes' clusters and the
   * delivery tests, the first step's cluster was still not Available after 5 minutes; the
   * end-to-end scenarios' bound is 8 minutes for the same reason.
   */
  private static final Duration STEP_TIMEOUT = Duration.ofMinutes(8);

  private final World world;
  private final KubernetesClient hub;
  private final Path kubeconfig;
  private final Path workDir;
  private final LiveView view;

  private Demo(World world, Path workDir, PrintStream out, boolean terminal) throws IOException {
    this.world = world;
    this.hub = world.hub();
    this.workDir = workDir;
    this.kubeconfig = workDir.resolve("hub.kubeconfig");
    Files.writeString(kubeconfig, world.hubEnvironment().kubeConfigYaml());
    this.view = new LiveView(hub, NAMESPACE, out, terminal);
  }

  /**
   * Exits 0 when every step succeeded, 1 when one did not or the world could not start: then
   * everything started is stopped (the shutdown hooks, {@link World}) and the cause is the last
   * thing printed.
   */
  public static void main(String[] args) {
    DemoOptions options;
    try {
      options = DemoOptions.parse(args);
    } catch (IllegalArgumentException e) {
      System.err.println(e.getMessage());
      System.exit(2);
      return;
    }
    int exit;
    try {
      exit = run(options) ? 0 : 1;
    } catch (Throwable e) {
      LoggerFactory.getLogger(Demo.class).error("the demo failed", e);
      System.out.println();
      System.out.println(
          "Demo FAILED; everything it started stops as it exits. The world's log: "
              + Path.of("target", "demo", "world.log").toAbsolutePath()
              + ". The cause:");
      System.out.println(causes(e));
      exit = 1;
    }
    System.exit(exit);
  }

  private static boolean run(DemoOptions options) throws Exception {
    if (options.help()) {
      System.out.print(DemoOptions.USAGE);
      return true;
    }
    Path workDir = Path.of("target", "demo").toAbsolutePath();
    Files.createDirectories(workDir);
    PrintStream out = System.out;
    out.println(
        "Starting the local world. Real: a hub API server (kube-apiserver "
            + TestPaths.KUBERNETES_VERSION
            + "), the Cluster API manager, CAPM3 and the baremetal-operator (its test mode: no"
            + " Ironic), assisted-service and its PostgreSQL, our two providers. Simulated: the"
            + " hosts' hardware and agents, the installed OpenShift clusters' contents…");
    long started = System.nanoTime();
    Duration step = options.step();
    SimulatedDurations durations = new SimulatedDurations(step.multipliedBy(3), step);
    boolean ok;
    try (World world = World.start(durations, workDir)) {
      // Ctrl-C: stop the Cluster API manager and the providers too, not only this JVM.
      Runtime.getRuntime().addShutdownHook(new Thread(world::close, "demo-stop"));
      out.printf("World ready in %.1f s.%n", (System.nanoTime() - started) / 1e9);
      ok = play(world, workDir, out, options.terminal(), options.keep());
    }
    out.println(ok ? "Demo finished: every step succeeded." : "Demo FAILED (see above).");
    return ok;
  }

  /** The exception and each of its causes, one after the other: what went wrong, last. */
  static String causes(Throwable e) {
    StringBuilder text = new StringBuilder();
    for (Throwable cause = e; cause != null; cause = cause.getCause()) {
      if (!text.isEmpty()) {
        text.append("\ncaused by: ");
      }
      text.append(cause);
      if (cause.getCause() == cause) {
        break;
      }
    }
    return text.toString().strip();
  }

  /**
   * Tells the demo's story on a running world: apply, scale, upgrade, delete (or, with {@code
   * keep}, stop before deleting and wait for Ctrl-C).
   *
   * @return whether every step reached its goal in time
   */
  public static boolean play(
      World world, Path workDir, PrintStream out, boolean terminal, boolean keep) throws Exception {
    Demo demo = new Demo(world, workDir, out, terminal);
    try {
      return demo.run(keep);
    } finally {
      demo.view.close();
    }
  }

  private boolean run(boolean keep) throws Exception {
    view.say("World ready. To look around: export KUBECONFIG=" + kubeconfig);
    kubectl("create", "namespace", NAMESPACE);

    Path sample = workDir.resolve("ha-cluster.yaml");
    try (InputStream in = Demo.class.getResourceAsStream("/demo/ha-cluster.yaml")) {
      Files.write(sample, in.readAllBytes());
    }
    kubectl("apply", "-n", NAMESPACE, "-f", sample.toString());
    if (!await(
        "the control plane and the Cluster Available, 5 Machines Running with Nodes",
        s ->
            Fields.conditionTrue(s.cluster(), "Available")
                && Fields.conditionTrue(s.controlPlane(), "Available")
                && runningWithNode(s) == 5)) {
      return false;
    }
    // The release assisted-service installed, resolved to its digest (docs/release-images.md).
    String imageSet =
        Fields.string(
            hub.genericKubernetesResources(ApiVersions.HIVE_EXTENSION, "AgentClusterInstall")
                .inNamespace(NAMESPACE)
                .withName(CLUSTER)
                .get(),
            "spec",
            "imageSetRef",
            "name");
    kubectl(
        "get",
        "clusterimageset/" + imageSet,
        "-o",
        "custom-columns=NAME:.metadata.name,RELEASE:.spec.releaseImage");

    kubectl("scale", "-n", NAMESPACE, "machinedeployment/" + CLUSTER + "-worker", "--replicas=3");
    if (!await("a third worker Running with its Node", s -> runningWithNode(s) == 6)) {
      return false;
    }

    kubectl(
        "patch",
        "-n",
        NAMESPACE,
        "openshiftassistedcontrolplane/" + CLUSTER,
        "--type=merge",
        "-p",
        "{\"spec\":{\"distributionVersion\":\"" + UPGRADE_TO + "\"}}");
    if (!await(
        "the control plane to report OpenShift " + UPGRADE_TO,
        s ->
            UPGRADE_TO.equals(Fields.string(s.controlPlane(), "status", "distributionVersion"))
                && Fields.conditionTrue(s.controlPlane(), "Available"))) {
      return false;
    }
    // The release the Cluster Version Operator was asked for, by digest.
    kubectl(
        "get",
        "-n",
        NAMESPACE,
        "openshiftassistedcontrolplane/" + CLUSTER,
        "-o",
        "jsonpath=upgraded to {.status.releaseImage.image}{\"\\n\"}");
    if (!workersFollowTheUpgradeInPlace()) {
      return false;
    }

    if (keep) {
      keptWorldGuide(kubeconfig).lines().forEach(view::say);
      Thread.currentThread().join();
    }

    kubectl("delete", "-n", NAMESPACE, "cluster/" + CLUSTER, "--wait=false");
    return await(
        "the Cluster and everything it owned gone, every host free again",
        s ->
            s.cluster() == null
                && s.controlPlane() == null
                && s.machines().isEmpty()
                && s.agents().isEmpty()
                && s.hosts().stream().allMatch(h -> Fields.get(h, "spec", "consumerRef") == null));
  }

  /**
   * What the world kept by {@code --keep} takes, and how: a user's own manifests, as on a hub with
   * Metal3 and mirrors (README, "Try it").
   */
  static String keptWorldGuide(Path kubeconfig) {
    String network = World.machineNetwork();
    String prefix = network.substring(0, network.lastIndexOf('.') + 1);
    return """
        Keeping the world running (--keep); Ctrl-C stops it. It takes your own clusters, as a hub \
        with Metal3 and mirrors does:
          export KUBECONFIG=%s
          kubectl create namespace my-cluster
          kubectl apply -n my-cluster -f my-cluster.yaml   # e.g. simulator/src/test/resources/demo/my-cluster.yaml
        - BareMetalHosts with their BMC Secrets, in any namespace: its baremetal-operator starts \
        as the first host appears there (test mode: any BMC address, no Ironic).
        - A release by version alone (spec.distributionVersion): it resolves to its quay.io \
        digest through the hub's mirror, this world's registry, which holds OpenShift %s \
        (x86_64) and OKD %s. Any other version is ReleaseImageNotFound.
        - The hosts' network (machine CIDR) is %s: gateway and DNS at %s1, hosts from %s10 \
        up. Put apiVIPs and ingressVIPs in it below that (e.g. %s5 and %s6); the lab's DNS \
        names api, api-int and *.apps of the cluster's domain at them.
        - sshAuthorizedKey must be a real public key (assisted-service parses it); the pull \
        secret may be any."""
        .formatted(
            kubeconfig,
            PublishedReleases.ranges(false),
            PublishedReleases.ranges(true),
            network,
            prefix,
            prefix,
            prefix,
            prefix);
  }

  /**
   * OpenShift updated the workers' kubelets in place; the MachineDeployment is told their version
   * (without one, Cluster API compares each kubelet with nothing and never calls its Machines up to
   * date). Cluster API's in-place update, through the control plane's hooks, moves the same
   * Machines to it one at a time (maxSurge 0: no extra host needed); nothing is replaced.
   */
  private boolean workersFollowTheUpgradeInPlace() throws Exception {
    if (!await(
        "the workers' Machines to report one kubelet version",
        s -> kubeletVersions(workers(s)).size() == 1)) {
      return false;
    }
    List<GenericKubernetesResource> before = workers(view.snapshot());
    String kubelet = kubeletVersions(before).iterator().next();
    Map<String, String> uids = uids(before);
    kubectl(
        "patch",
        "-n",
        NAMESPACE,
        "machinedeployment/" + WORKERS,
        "--type=merge",
        "-p",
        ("{\"spec\":{\"rollout\":{\"strategy\":{\"type\":\"RollingUpdate\",\"rollingUpdate\":"
                + "{\"maxSurge\":0,\"maxUnavailable\":1}}},"
                + "\"template\":{\"spec\":{\"version\":\"%s\"}}}}")
            .formatted(kubelet));
    boolean updated =
        await(
            "the same %d worker Machines at %s in place, UpToDate, the MachineDeployment not RollingOut"
                .formatted(uids.size(), kubelet),
            s -> {
              List<GenericKubernetesResource> now = workers(s);
              GenericKubernetesResource md =
                  hub.genericKubernetesResources(ApiVersions.CAPI, "MachineDeployment")
                      .inNamespace(NAMESPACE)
                      .withName(WORKERS)
                      .get();
              // The MachineDeployment's own counts too, which clusterctl shows: they follow the
              // Machines' conditions a moment later.
              String replicas = String.valueOf(uids.size());
              return uids(now).equals(uids)
                  && md != null
                  && replicas.equals(Fields.string(md, "status", "upToDateReplicas"))
                  && replicas.equals(Fields.string(md, "status", "availableReplicas"))
                  && now.stream()
                      .allMatch(
                          m ->
                              kubelet.equals(Fields.string(m, "spec", "version"))
                                  && Fields.conditionTrue(m, "UpToDate"))
                  && Fields.conditions(md).stream()
                      .anyMatch(
                          c ->
                              "RollingOut".equals(c.get("type"))
                                  && "False".equals(c.get("status")));
            });
    clusterctl("describe", "cluster", CLUSTER, "-n", NAMESPACE);
    return updated;
  }

  private static List<GenericKubernetesResource> workers(ProgressTable.Snapshot s) {
    return s.machines().stream()
        .filter(m -> WORKERS.equals(Fields.label(m, "cluster.x-k8s.io/deployment-name")))
        .toList();
  }

  /** The kubelet versions of the Machines' Nodes; empty while one has none yet. */
  private static Set<String> kubeletVersions(List<GenericKubernetesResource> machines) {
    Set<String> versions = new HashSet<>();
    for (GenericKubernetesResource m : machines) {
      String version = Fields.string(m, "status", "nodeInfo", "kubeletVersion");
      if (version == null) {
        return Set.of();
      }
      versions.add(version);
    }
    return versions;
  }

  private static Map<String, String> uids(List<GenericKubernetesResource> machines) {
    Map<String, String> uids = new TreeMap<>();
    machines.forEach(m -> uids.put(m.getMetadata().getName(), m.getMetadata().getUid()));
    return uids;
  }

  private static long runningWithNode(ProgressTable.Snapshot s) {
    return s.machines().stream()
        .filter(m -> "Running".equals(Fields.string(m, "status", "phase")))
        .filter(m -> Fields.string(m, "status", "nodeRef", "name") != null)
        .count();
  }

  /** Waits, watching the live view, until {@code done} holds; says how long it took. */
  private boolean await(String what, Predicate<ProgressTable.Snapshot> done)
      throws InterruptedException {
    view.say("Waiting for " + what + "…");
    long started = System.nanoTime();
    long deadline = started + STEP_TIMEOUT.toNanos();
    while (!done.test(view.snapshot())) {
      if (System.nanoTime() > deadline) {
        view.say("Gave up after " + STEP_TIMEOUT.toMinutes() + " min waiting for " + what);
        world.upstreamManagers().forEach(m -> view.say(m.name() + " log: " + m.log()));
        return false;
      }
      Thread.sleep(100);
    }
    view.say("Done in %.1f s: %s".formatted((System.nanoTime() - started) / 1e9, what));
    return true;
  }

  /** Runs the real kubectl against the hub, as a user would, and shows the command and output. */
  private void kubectl(String... args) throws IOException, InterruptedException {
    List<String> command = new ArrayList<>();
    command.add(TestPaths.kubectl().toString());
    command.add("--kubeconfig=" + kubeconfig);
    command.addAll(List.of(args));
    view.say("$ kubectl " + String.join(" ", args));
    Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
    String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    if (!process.waitFor(1, TimeUnit.MINUTES) || process.exitValue() != 0) {
      throw new IllegalStateException("kubectl " + String.join(" ", args) + " failed:\n" + output);
    }
    output.lines().forEach(line -> view.say("  " + line));
  }

  /** Runs the real clusterctl against the hub, as a user would; shows the command and output. */
  private void clusterctl(String... args) throws IOException, InterruptedException {
    List<String> command = new ArrayList<>();
    command.add(TestPaths.tool("clusterctl").toString());
    command.addAll(List.of(args));
    command.add("--kubeconfig=" + kubeconfig);
    view.say("$ clusterctl " + String.join(" ", args));
    ProcessBuilder builder = new ProcessBuilder(command).redirectErrorStream(true);
    Path home = workDir.resolve("clusterctl-home");
    builder.environment().put("CLUSTERCTL_DISABLE_VERSIONCHECK", "true");
    builder.environment().put("HOME", home.toString());
    builder.environment().put("XDG_CONFIG_HOME", home.resolve(".config").toString());
    Process process = builder.start();
    String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    if (!process.waitFor(1, TimeUnit.MINUTES) || process.exitValue() != 0) {
      throw new IllegalStateException(
          "clusterctl " + String.join(" ", args) + " failed:\n" + output);
    }
    output.lines().forEach(line -> view.say("  " + line));
  }

  /** The demo's command line. */
  record DemoOptions(boolean help, boolean keep, boolean terminal, Duration step) {
    /** The usage text, also printed by hack/demo.sh itself before it builds anything. */
    static final String USAGE = usage();

    private static String usage() {
      try (InputStream in = Demo.class.getResourceAsStream("/demo/usage.txt")) {
        return new String(in.readAllBytes(), StandardCharsets.UTF_8);
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
    }

    static DemoOptions parse(String[] args) {
      boolean help = false;
      boolean keep = false;
      boolean terminal = System.console() != null;
      Duration step = Duration.ofMillis(300);
      for (int i = 0; i < args.length; i++) {
        switch (args[i]) {
          case "--help", "-h" -> help = true;
          case "--keep" -> keep = true;
          case "--plain" -> terminal = false;
          case "--step-millis" -> {
            if (i + 1 == args.length) {
              throw new IllegalArgumentException("--step-millis needs a value\n" + USAGE);
            }
            step = Duration.ofMillis(Long.parseLong(args[++i]));
          }
          default -> throw new IllegalArgumentException("unknown option " + args[i] + "\n" + USAGE);
        }
      }
      return new DemoOptions(help, keep, terminal, step);
    }
  }
}
