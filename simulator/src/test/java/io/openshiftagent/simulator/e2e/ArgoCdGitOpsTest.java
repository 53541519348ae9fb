package io.openshiftagent.simulator.e2e;

import static io.openshiftagent.simulator.Fields.conditions;
import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.client.utils.Serialization;
import io.openshiftagent.simulator.ApiVersions;
import io.openshiftagent.simulator.World;
import io.openshiftagent.testsupport.Command;
import io.openshiftagent.testsupport.TestPaths;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.parallel.Execution;
import org.junit.jupiter.api.parallel.ExecutionMode;
import org.junit.jupiter.api.parallel.ResourceAccessMode;
import org.junit.jupiter.api.parallel.ResourceLock;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * GitOps with the real Argo CD: a cluster's manifests, rendered from our HA template with
 * clusterctl, committed to a Git repository served by {@code git daemon}; Argo CD configured as
 * docs/getting-started.md says ({@code argocd-cm} patched with config/argocd/argocd-cm.yaml, the
 * Application of config/argocd/cluster-application.yaml). Argo CD's reports (sync status, health,
 * each resource's health) are recorded as it writes them and logged at each step.
 */
@ResourceLock(value = E2eWorld.WORLD, mode = ResourceAccessMode.READ)
class ArgoCdGitOpsTest {
  private static final Logger LOG = LoggerFactory.getLogger(ArgoCdGitOpsTest.class);
  private static final Duration TIMEOUT = ClusterScenario.TIMEOUT;
  private static final String CONTROL_PLANE = "OpenshiftAssistedControlPlane";

  @RegisterExtension static final E2eWorld world = new E2eWorld();

  private static ArgoCd argoCd;
  private static Path kubeconfig;

  /**
   * The failing installation's Application has been reported Degraded: the repo server, which both
   * Applications share, may be killed without changing what that test checks.
   */
  private static final CountDownLatch FAILING_REPORTED = new CountDownLatch(1);

  @BeforeAll
  static void installArgoCd() throws Exception {
    Path dir = Files.createDirectories(world.workDir().resolve("argocd"));
    kubeconfig =
        Files.writeString(
            dir.resolve("user.kubeconfig"), world.world().hubEnvironment().kubeConfigYaml());
    argoCd =
        ArgoCd.start(world.world().hub(), world.world().hubEnvironment().kubeConfigYaml(), dir);
    // docs/getting-started.md, "Installing from Git with Argo CD", step 1.
    kubectl(
        "-n",
        "argocd",
        "patch",
        "configmap",
        "argocd-cm",
        "--type",
        "merge",
        "--patch-file",
        TestPaths.repoRoot().resolve("config/argocd/argocd-cm.yaml"));
  }

  @AfterAll
  static void stopArgoCd() {
    if (argoCd != null) {
      argoCd.close();
    }
  }

  /**
   * Synced, Progressing while OpenShift installs, Healthy once installed, never out of sync while
   * our providers and Cluster API write; a scale-up committed to Git synced and reconciled; the
   * Application deleted with its cluster.
   */
  @Test
  @Execution(ExecutionMode.CONCURRENT)
  void clusterFromGitInstallsScalesAndIsDeletedWithItsApplication() throws Exception {
    String name = "gitops-ha";
    ClusterScenario cluster = world.scenario("argocd-ha", name);
    enrolBesideGit(cluster, 5);
    try (GitRepository git = repository(name);
        ApplicationTimeline app = argoCd.watch(name)) {
      String installed = commitAndCreateApplication(cluster, git, 1);

      ApplicationTimeline.Report synced =
          app.await("Synced to " + installed, 0, r -> synced(r, installed), TIMEOUT);
      app.step("synced");
      int afterSync = synced.index();
      ApplicationTimeline.Report healthy =
          app.await("Healthy", afterSync, r -> "Healthy".equals(r.health()), TIMEOUT);
      app.step("healthy");
      cluster.awaitInstalled(4);
      app.step("installed");
      List<ApplicationTimeline.Report> install = app.since(afterSync);
      assertThat(install)
          .as(
              "from the first sync to the installed cluster: in sync with %s, synced once",
              installed)
          .allMatch(r -> synced(r, installed) && r.syncs() == 1);
      assertThat(install.stream().map(ApplicationTimeline.Report::health).toList())
          .as("health while OpenShift installs")
          .containsSubsequence("Progressing", "Healthy")
          .doesNotContain("Degraded");
      assertThat(synced.health()).isIn("Missing", "Progressing");
      assertThat(healthy.resourceHealth(CONTROL_PLANE + " " + name)).startsWith("Synced Healthy");
      assertThat(app.last().is("Synced", "Healthy")).as(app.last().describe()).isTrue();

      int beforeScale = app.mark();
      Map<String, String> objectsBefore = uidsOfTheClustersObjects(cluster, name);
      String scaled =
          git.commit(
              Map.of(name + "/cluster.yaml", render(cluster.namespace(), name, 2)),
              name + ": 2 workers");
      syncWithTheRepoServerKilled(cluster, name);
      int afterScaleSync =
          app.await(
                  "Synced to " + scaled,
                  beforeScale,
                  r -> synced(r, scaled) && r.syncs() == 2,
                  TIMEOUT)
              .index();
      app.step("scale-up committed and synced");
      assertThat(uidsOfTheClustersObjects(cluster, name))
          .as("what the Application made before, by name and UID: nothing deleted or made again")
          .containsAllEntriesOf(objectsBefore);
      cluster.awaitInstalled(5);
      assertThat(cluster.workerMachines()).hasSize(2);
      // From the last report on: what Argo CD says now that both workers run.
      ApplicationTimeline.Report scaledUp =
          app.await(
              "Healthy with 2 workers",
              app.mark() - 1,
              r -> synced(r, scaled) && "Healthy".equals(r.health()),
              TIMEOUT);
      app.step("scaled up");
      // Argo CD's own MachineDeployment check looks at the phase only, which is Running as soon as
      // the new Machine exists: Progressing may be too short for a comparison to see it.
      LOG.info(
          "health reported while scaling: {}",
          app.since(afterScaleSync).stream().map(ApplicationTimeline.Report::health).toList());
      assertThat(app.since(afterScaleSync))
          .as("after the scale-up was synced: in sync with %s, no further sync", scaled)
          .allMatch(r -> synced(r, scaled) && r.syncs() == 2);
      assertThat(scaledUp.resourceHealth("MachineDeployment " + name + "-workers"))
          .startsWith("Synced Healthy");

      deleteApplication(cluster, app);
    }
  }

  /**
   * The installer reports an error: the control plane's Available condition says so, and Argo CD
   * shows the Application Degraded with that condition's message.
   */
  @Test
  @Execution(ExecutionMode.CONCURRENT)
  void failingInstallationIsDegradedWithTheControlPlanesMessage() throws Exception {
    String name = "gitops-failing";
    ClusterScenario cluster = world.scenario("argocd-failing", name);
    // The hosts' installers fail (a broken disk); the real service then fails the installation.
    world.world().failInstallers(cluster.namespace(), "failed to write the image to disk");
    enrolBesideGit(cluster, 3);
    try (GitRepository git = repository(name);
        ApplicationTimeline app = argoCd.watch(name)) {
      String revision = commitAndCreateApplication(cluster, git, 0);

      ApplicationTimeline.Report degraded;
      try {
        degraded = app.await("Degraded", 0, r -> "Degraded".equals(r.health()), TIMEOUT);
      } finally {
        FAILING_REPORTED.countDown();
      }
      app.step("installation failed");
      assertThat(degraded.sync()).isEqualTo("Synced");
      assertThat(degraded.revision()).isEqualTo(revision);
      Map<String, Object> available =
          conditions(cluster.controlPlane()).stream()
              .filter(c -> "Available".equals(c.get("type")))
              .findFirst()
              .orElseThrow();
      assertThat(available.get("reason")).isEqualTo("InstallationFailed");
      assertThat((String) available.get("message")).contains("cluster has hosts in error");
      assertThat(degraded.resourceHealth(CONTROL_PLANE + " " + name))
          .isEqualTo(
              "Synced Degraded (Available InstallationFailed: " + available.get("message") + ")");

      deleteApplication(cluster, app);
    }
  }

  /**
   * A commit's sync with the repo server SIGKILLed as it is asked to compare: the Application says
   * the comparison failed, and once the repo server is started again (as its Deployment would) the
   * commit is synced. Waits first for the other test's report that a shared repo server outage
   * would disturb.
   */
  private static void syncWithTheRepoServerKilled(ClusterScenario cluster, String name)
      throws Exception {
    assertThat(FAILING_REPORTED.await(TIMEOUT.toSeconds(), TimeUnit.SECONDS)).isTrue();
    argoCd.killRepoServer();
    Instant killed = Instant.now();
    try {
      refresh(name);
      cluster.await(
          "Application " + name + " to report its comparison failing",
          () -> comparisonError(name).isPresent());
      LOG.info("Argo CD's repo server killed during a sync: {}", comparisonError(name).orElse(""));
    } finally {
      argoCd.startRepoServer();
    }
    LOG.info(
        "Argo CD's repo server started again {} ms after it was killed",
        Duration.between(killed, Instant.now()).toMillis());
    refresh(name);
  }

  /** The message of the Application's ComparisonError condition, if it has one. */
  private static Optional<String> comparisonError(String name) {
    return conditions(
            world
                .world()
                .hub()
                .genericKubernetesResources(ArgoCd.API_VERSION, "Application")
                .inNamespace(ArgoCd.NAMESPACE)
                .withName(name)
                .get())
        .stream()
        .filter(c -> "ComparisonError".equals(c.get("type")))
        .map(c -> String.valueOf(c.get("message")))
        .findFirst();
  }

  /** The UIDs of the Cluster, its control plane and its MachineDeployment. */
  private static Map<String, String> uidsOfTheClustersObjects(
      ClusterScenario cluster, String name) {
    Map<String, String> uids = new TreeMap<>();
    for (String[] kind :
        List.of(
            new String[] {ApiVersions.CAPI, "Cluster"},
            new String[] {ApiVersions.CONTROL_PLANE, CONTROL_PLANE},
            new String[] {ApiVersions.CAPI, "MachineDeployment"})) {
      for (GenericKubernetesResource object : cluster.list(kind[0], kind[1])) {
        uids.put(kind[1] + " " + object.getMetadata().getName(), object.getMetadata().getUid());
      }
    }
    return uids;
  }

  private static boolean synced(ApplicationTimeline.Report report, String revision) {
    return "Synced".equals(report.sync()) && revision.equals(report.revision());
  }

  /**
   * Deletes the Application as a user does; Argo CD removes it once the objects it deleted are
   * gone, the Cluster first among them. Then the namespace holds exactly what the user created
   * beside Git (the pull secret, the hosts and their BMC credentials, and what the
   * baremetal-operator keeps for each host), every host released: what Argo CD does not delete
   * itself (it deletes only objects that nothing owns; Cluster API makes the Cluster the owner of
   * the worker templates) the hub's garbage collector deletes.
   */
  private static void deleteApplication(ClusterScenario cluster, ApplicationTimeline app)
      throws InterruptedException {
    kubectl("-n", "argocd", "delete", "application", app.name(), "--wait=false");
    app.awaitGone(TIMEOUT);
    app.step("Application deleted");
    assertThat(cluster.cluster()).as("the Cluster once the Application is gone").isNull();
    cluster.await(
        "only what the user created beside Git left in " + cluster.namespace(),
        () -> cluster.everythingInTheNamespace().equals(cluster.whatDeletingTheClusterMustLeave()));
    for (GenericKubernetesResource host : cluster.list(ApiVersions.METAL3, "BareMetalHost")) {
      assertThat(ClusterScenario.isFree(host))
          .as("host " + ClusterScenario.name(host) + " released")
          .isTrue();
    }
  }

  /** The hosts and the pull secret, created in the cluster's namespace beside Git. */
  private static void enrolBesideGit(ClusterScenario cluster, int hosts) {
    cluster.enrolHosts(hosts);
    cluster.apply("/e2e/pull-secret.yaml", Map.of());
  }

  private static GitRepository repository(String name) throws Exception {
    return GitRepository.serve(world.workDir().resolve("git-" + name), "clusters");
  }

  /**
   * Commits the cluster rendered with 3 control-plane Machines and {@code workers} into its folder
   * and creates its Application; returns the commit.
   */
  private static String commitAndCreateApplication(
      ClusterScenario cluster, GitRepository git, int workers) throws Exception {
    String name = cluster.clusterName();
    String revision =
        git.commit(
            Map.of(name + "/cluster.yaml", render(cluster.namespace(), name, workers)),
            name + ": 3 control-plane hosts, " + workers + " workers");
    createApplication(name, git.url(), name, cluster.namespace());
    return revision;
  }

  /**
   * The HA template rendered as a user does ({@code clusterctl generate cluster}), the release
   * resolved to its digest, with the repository override of a site whose releases are in its own
   * registry (the world's: the template names quay.io's, which this hub cannot reach).
   */
  private static String render(String namespace, String name, int workers) {
    String reference = "controlplane.cluster.x-k8s.io/release-image-reference: digest";
    String rendered = clusterctlGenerate(namespace, name, workers);
    Matcher line = Pattern.compile("(?m)^( *)" + Pattern.quote(reference) + "$").matcher(rendered);
    assertThat(line.find()).as("the rendered control plane asks for the digest").isTrue();
    return line.replaceFirst(
        "$1"
            + reference
            + "\n$1cluster.x-k8s.io/release-image-repository-override: "
            + Matcher.quoteReplacement(World.releaseRepositories().get("RELEASE_REPOSITORY")));
  }

  private static String clusterctlGenerate(String namespace, String name, int workers) {
    Path home = world.workDir().resolve("clusterctl-home");
    return Command.of(
            TestPaths.tool("clusterctl"),
            "generate",
            "cluster",
            name,
            "--kubeconfig=" + kubeconfig,
            "--target-namespace",
            namespace,
            "--from",
            TestPaths.repoRoot().resolve("templates/cluster-template.yaml"),
            "--control-plane-machine-count",
            "3",
            "--worker-machine-count",
            String.valueOf(workers))
        .env("CLUSTERCTL_DISABLE_VERSIONCHECK", "true")
        .env("HOME", home.toString())
        .env("XDG_CONFIG_HOME", home.resolve(".config").toString())
        .env(
            Map.of(
                "OPENSHIFT_VERSION",
                "4.20.0",
                "BASE_DOMAIN",
                "lab.example.com",
                "API_VIP",
                "192.168.222.40",
                "INGRESS_VIP",
                "192.168.222.41",
                "SSH_AUTHORIZED_KEY",
                "ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIPWCmCQBl8AFoeTGj8v52CkBt9PxUkUJ7Ss2++ELtgNq user@example",
                "IMAGE_URL",
                "https://example.com/rhcos-4.20.0-x86_64.qcow2",
                "IMAGE_CHECKSUM",
                "https://example.com/rhcos-4.20.0-x86_64.qcow2.sha256sum"))
        .ok();
  }

  /**
   * config/argocd/cluster-application.yaml with the values a user sets (name, repository, path,
   * namespace), applied with kubectl.
   */
  @SuppressWarnings("unchecked")
  private static void createApplication(String name, String repoUrl, String path, String namespace)
      throws Exception {
    GenericKubernetesResource application =
        Serialization.unmarshal(
            Files.readString(
                TestPaths.repoRoot().resolve("config/argocd/cluster-application.yaml")),
            GenericKubernetesResource.class);
    application.getMetadata().setName(name);
    Map<String, Object> spec = application.get("spec");
    Map<String, Object> source = (Map<String, Object>) spec.get("source");
    source.put("repoURL", repoUrl);
    source.put("path", path);
    ((Map<String, Object>) spec.get("destination")).put("namespace", namespace);
    Path file = world.workDir().resolve("argocd").resolve(name + "-application.yaml");
    Files.writeString(file, Serialization.asYaml(application));
    kubectl("apply", "-f", file);
  }

  /** What a Git webhook (or {@code argocd app get --refresh}) does: compare with Git now. */
  private static void refresh(String name) {
    kubectl(
        "-n",
        "argocd",
        "annotate",
        "application",
        name,
        "argocd.argoproj.io/refresh=normal",
        "--overwrite");
  }

  private static String kubectl(Object... args) {
    Object[] command = new Object[args.length + 2];
    command[0] = TestPaths.kubectl();
    command[1] = "--kubeconfig=" + kubeconfig;
    System.arraycopy(args, 0, command, 2, args.length);
    return Command.of(command).ok();
  }
}
