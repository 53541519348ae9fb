package io.openshiftagent.simulator.demo;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.Node;
import io.openshiftagent.simulator.ApiVersions;
import io.openshiftagent.simulator.Fields;
import io.openshiftagent.simulator.e2e.ClusterScenario;
import io.openshiftagent.simulator.e2e.E2eWorld;
import io.openshiftagent.testsupport.PublishedReleases;
import io.openshiftagent.testsupport.ReleaseRegistry;
import io.openshiftagent.testsupport.TestPaths;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.parallel.ResourceAccessMode;
import org.junit.jupiter.api.parallel.ResourceLock;

/**
 * The README's demo ({@code hack/demo.sh}), told on the shared world exactly as the script tells
 * it, with its output kept: every step must reach its goal, and the output must say so. Beside it,
 * in the same world, what {@code hack/demo.sh --keep} offers: a cluster written for a real hub,
 * applied with kubectl as its user would.
 */
@ResourceLock(value = E2eWorld.WORLD, mode = ResourceAccessMode.READ)
// Among the longest classes on the shared world: started first, so that the phase does not end on
// it.
@Order(1)
// One cluster at a time: the shared world's two cores already carry the other classes' clusters.
class DemoTest {
  @RegisterExtension static final E2eWorld world = new E2eWorld();

  /** The user's manifest: its release is published, and no test names it. */
  private static final String USER_MANIFEST = "/demo/my-cluster.yaml";

  private static final String USER_RELEASE = "4.18.27";

  @Test
  void theDemoInstallsScalesUpgradesAndDeletesItsCluster() throws Exception {
    Path workDir = Path.of("target", "world", "DemoTest").toAbsolutePath();
    Files.createDirectories(workDir);
    ByteArrayOutputStream buffer = new ByteArrayOutputStream();
    boolean ok;
    try (PrintStream out = new PrintStream(buffer, true, StandardCharsets.UTF_8)) {
      ok = Demo.play(world.world(), workDir, out, false, false);
    }
    String output = buffer.toString(StandardCharsets.UTF_8);
    System.out.println(output);

    // The step that gave up, and what it saw, in the failure itself: CI shows only its head.
    assertThat(ok)
        .as(() -> "every step of the demo succeeded; it ended:\n" + tail(output))
        .isTrue();
    assertThat(output)
        .contains("$ kubectl apply -n demo -f")
        .contains("Done in")
        .contains("5 Machines Running with Nodes")
        .contains("a third worker Running with its Node")
        .contains("the control plane to report OpenShift 4.20.1")
        .contains("RELEASE")
        .containsPattern(
            "(?m)^(?!.*upgraded to).*quay.io/openshift-release-dev/ocp-release@sha256:[0-9a-f]{64}")
        .containsPattern(
            "upgraded to quay.io/openshift-release-dev/ocp-release@sha256:[0-9a-f]{64}")
        // The workers OpenShift upgraded in place: their MachineDeployment's version raised, the
        // same Machines taken to it by Cluster API's in-place update (our control plane's hooks),
        // and clusterctl shows all three up to date.
        .containsPattern(
            "Done in [0-9.]+ s: the same 3 worker Machines at v[0-9.]+ in place, UpToDate, the"
                + " MachineDeployment not RollingOut")
        // NAME, REPLICAS, AVAILABLE, READY, UP TO DATE, STATUS.
        .containsPattern("MachineDeployment demo/demo-worker, v[0-9.]+ +3/3 +3 +3 +3 +True ")
        .contains("every host free again")
        .contains("MACHINE")
        .doesNotContain("Gave up");
  }

  /**
   * What {@code --keep} tells a user names what this world takes: the kubeconfig, the machine
   * network the manifest's VIPs are in, the release ranges that hold the manifest's version.
   */
  @Test
  void theKeptWorldsGuideSaysWhatItTakes() throws IOException {
    Path kubeconfig = Path.of("/somewhere/hub.kubeconfig");
    String guide = Demo.keptWorldGuide(kubeconfig);
    System.out.println(guide);
    String manifest = userManifest();

    assertThat(guide)
        .contains("export KUBECONFIG=" + kubeconfig)
        .contains("kubectl apply -n my-cluster -f")
        .contains("machine CIDR) is 192.168.222.0/24")
        .contains("4.18.0–4.18.49")
        .contains("4.22.0-okd-scos.0–4.22.0-okd-scos.8")
        .contains("ReleaseImageNotFound");
    assertThat(manifest)
        .contains("- 192.168.222.5")
        .contains("- 192.168.222.6")
        .contains("distributionVersion: " + USER_RELEASE)
        .doesNotContain("annotations:");
    assertThat(PublishedReleases.all()).contains(USER_RELEASE + "-x86_64");
  }

  /**
   * A cluster written for a real hub (its own namespace, its own BareMetalHosts, a published
   * release named by version, nothing a real hub would not need), applied with kubectl into the
   * world the demo keeps, beside the demo's cluster: its hosts register (the namespace's
   * baremetal-operator starts as they appear), its release resolves through the hub's mirror, it
   * installs; its Nodes are as its {@code nodeRegistration} asks; it scales; its deletion frees
   * every host. A version never published is {@code ReleaseImageNotFound}.
   */
  @Test
  void aClusterWrittenForARealHubInstallsInTheKeptWorld() throws Exception {
    ClusterScenario cluster = world.scenario("my-cluster", "my-cluster");
    String namespace = cluster.namespace();
    assertThatThrownBy(() -> world.world().bareMetalOperator(namespace))
        .as("no baremetal-operator before the user's hosts appear")
        .hasMessageContaining("no baremetal-operator in " + namespace);
    Path file = Files.createTempFile("my-cluster", ".yaml");
    Files.writeString(file, userManifest());

    kubectl("apply", "-n", namespace, "-f", file.toString());
    cluster.awaitInstalled(4);

    world.world().bareMetalOperator(namespace);
    // Read from the installed cluster's ClusterVersion at the control plane's next look at it.
    cluster.await(
        "the installed OpenShift version reported",
        () ->
            USER_RELEASE.equals(
                Fields.string(cluster.controlPlane(), "status", "distributionVersion")));
    GenericKubernetesResource controlPlane = cluster.controlPlane();
    assertThat(controlPlane.getMetadata().getAnnotations())
        .as("the user's annotations: none (kubectl apply keeps its own)")
        .containsOnlyKeys("kubectl.kubernetes.io/last-applied-configuration");
    ReleaseRegistry.Release release = ReleaseRegistry.shared().release(USER_RELEASE, "x86_64");
    assertThat(Fields.string(controlPlane, "status", "releaseImage", "image"))
        .as("the release, resolved through the hub's mirror to the source's digest")
        .isEqualTo("quay.io/openshift-release-dev/ocp-release@" + release.digest());
    assertThat(Fields.string(controlPlane, "status", "releaseImage", "resolvedFrom"))
        .isEqualTo(release.tag());
    assertThat(Fields.string(controlPlane, "status", "distributionVersion"))
        .isEqualTo(USER_RELEASE);
    cluster.assertNodesAsTheGoProviderNamesThem();
    assertWorkersInTheirZone(cluster, 1);

    kubectl("scale", "-n", namespace, "machinedeployment/my-cluster-workers", "--replicas=2");
    cluster.await("a second worker Running with its Node", () -> cluster.isInstalled(5));
    cluster.assertNodesAsTheGoProviderNamesThem();
    assertWorkersInTheirZone(cluster, 2);

    kubectl("delete", "-n", namespace, "cluster/my-cluster", "--wait=false");
    cluster.await(
        "the Cluster gone and every host free",
        () ->
            cluster.cluster() == null
                && cluster.machines().isEmpty()
                && cluster.list(ApiVersions.METAL3, "BareMetalHost").stream()
                    .allMatch(ClusterScenario::isFree));
    assertThat(cluster.list(ApiVersions.METAL3, "BareMetalHost")).hasSize(5);

    ClusterScenario typo = world.scenario("my-typo", "my-cluster");
    Path typoFile = Files.createTempFile("my-typo", ".yaml");
    Files.writeString(
        typoFile,
        withoutKinds(
            userManifest()
                .replace("distributionVersion: " + USER_RELEASE, "distributionVersion: 4.18.50"),
            Set.of("BareMetalHost", "MachineDeployment")));
    kubectl("apply", "-n", typo.namespace(), "-f", typoFile.toString());
    // The reason and the message of one read: as one write left them.
    AtomicReference<Map<String, Object>> notFound = new AtomicReference<>();
    typo.await(
        "ReleaseImageResolved False, ReleaseImageNotFound",
        () -> {
          notFound.set(
              Fields.findCondition(typo.controlPlane(), "ReleaseImageResolved").orElse(Map.of()));
          return "ReleaseImageNotFound".equals(notFound.get().get("reason"));
        });
    assertThat((String) notFound.get().get("message"))
        .contains("quay.io/openshift-release-dev/ocp-release:4.18.50-x86_64")
        .contains("mirror " + ReleaseRegistry.shared().host());
    typo.deleteCluster();
  }

  private static void assertWorkersInTheirZone(ClusterScenario cluster, int workers) {
    List<Node> zoned =
        cluster.workerMachines().stream()
            .map(m -> Fields.string(m, "status", "nodeRef", "name"))
            .map(name -> cluster.workload().nodes().withName(name).get())
            .filter(
                n -> "r1".equals(n.getMetadata().getLabels().get("topology.kubernetes.io/zone")))
            .toList();
    assertThat(zoned).as("worker Nodes labelled as kubeletExtraLabels asks").hasSize(workers);
  }

  /** The manifest's documents but those of {@code kinds}. */
  private static String withoutKinds(String manifest, Set<String> kinds) {
    return Arrays.stream(manifest.split("(?m)^---$"))
        .filter(doc -> kinds.stream().noneMatch(kind -> doc.contains("\nkind: " + kind + "\n")))
        .collect(Collectors.joining("---"));
  }

  private static String userManifest() throws IOException {
    try (InputStream in = DemoTest.class.getResourceAsStream(USER_MANIFEST)) {
      return new String(in.readAllBytes(), StandardCharsets.UTF_8);
    }
  }

  /** The real kubectl against the hub, as the user runs it; fails with its output. */
  private static String kubectl(String... args) throws IOException, InterruptedException {
    // This JVM's hub: an earlier run's file names another.
    Path kubeconfig = world.workDir().toAbsolutePath().resolve("user.kubeconfig");
    Files.writeString(kubeconfig, world.world().hubEnvironment().kubeConfigYaml());
    List<String> command = new ArrayList<>();
    command.add(TestPaths.kubectl().toString());
    command.add("--kubeconfig=" + kubeconfig);
    command.addAll(List.of(args));
    Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
    String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertThat(process.waitFor(1, TimeUnit.MINUTES)).isTrue();
    assertThat(process.exitValue()).as("kubectl %s: %s", String.join(" ", args), output).isZero();
    System.out.println("$ kubectl " + String.join(" ", args) + "\n" + output);
    return output;
  }

  private static String tail(String output) {
    List<String> lines = output.lines().toList();
    return String.join("\n", lines.subList(Math.max(0, lines.size() - 30), lines.size()));
  }
}
