package io.openshiftagent.simulator.e2e;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fabric8.kubernetes.api.model.SecretBuilder;
import io.fabric8.kubernetes.api.model.rbac.PolicyRule;
import io.fabric8.kubernetes.api.model.rbac.RoleRef;
import io.fabric8.kubernetes.api.model.rbac.Subject;
import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.openshiftagent.simulator.ProviderServiceAccount;
import io.openshiftagent.simulator.SimulatedDurations;
import io.openshiftagent.simulator.World;
import io.openshiftagent.testsupport.AuditLog;
import io.openshiftagent.testsupport.ProviderJar;
import io.openshiftagent.testsupport.SecretScanner;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.IntConsumer;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Least privilege, in a namespaced install: each provider runs as its own ServiceAccount under the
 * RBAC of {@code config/} (the hub authorizes with RBAC), watching only the two clusters'
 * namespaces ({@code --namespace}) where alone its namespaced rules are bound ({@code
 * config/namespaced}; its cluster-scoped rules stay cluster-wide), electing its leader as its
 * Deployment does, through two HA installations (LiveISO and DiskImage) and their deletion. The
 * hub's audit log then says that no request of either provider was refused, and that each granted
 * rule (API group, resource, verb, name; in any namespace it is bound in) served at least one
 * request, but the few in {@link #UNREACHED} that only paths off this flow need and the few in
 * {@link #BY_TIMING} whose use depends on timing (a write conflict, a rewrite by assisted-service):
 * nothing else is granted that the providers do not use. Last, the hub refuses each ServiceAccount
 * a write outside those namespaces.
 */
@Tag(E2eWorld.HUB_OF_ITS_OWN)
// Where it starts among the worlds of their own, two lanes of about equal length (WorldClassOrder).
@Order(5)
class LeastPrivilegeTest {
  private static final Logger LOG = LoggerFactory.getLogger(LeastPrivilegeTest.class);

  /**
   * Granted rules this flow does not use, each with the path that needs it. The owners' {@code
   * finalizers} are no request: the OwnerReferencesPermissionEnforcement admission plugin (on in
   * this hub, as in OpenShift) checks them when an owner reference blocks the owner's deletion.
   */
  private static final Map<ProviderJar, Map<String, String>> UNREACHED =
      new EnumMap<>(
          Map.of(
              ProviderJar.BOOTSTRAP,
              withMetricsServer(
                  Map.of(
                      "bootstrap.cluster.x-k8s.io openshiftassistedconfigs/finalizers update",
                      "owner references to the config (admission check)",
                      "agent-install.openshift.io agents get",
                      "whether another Agent already holds a hostname",
                      "core secrets patch",
                      "our labels on the data Secret of a config taken over from the Go provider",
                      "core secrets get",
                      "a host's metaData Secret, read when the node registration references metadata"
                          + " (the CA bundle Secret, outside the watched namespaces, is read through"
                          + " a Role on it alone)",
                      "agent-install.openshift.io infraenvs patch",
                      "the boot mode, agent labels and approval claim of an InfraEnv taken over from"
                          + " the Go provider")),
              ProviderJar.CONTROLPLANE,
              withMetricsServer(
                  Map.ofEntries(
                      Map.entry(
                          "controlplane.cluster.x-k8s.io openshiftassistedcontrolplanes/finalizers update",
                          "owner references to the control plane (admission check)"),
                      Map.entry(
                          "bootstrap.cluster.x-k8s.io openshiftassistedconfigs delete",
                          "a Machine whose creation failed halfway: its config is rolled back"),
                      Map.entry(
                          "infrastructure.cluster.x-k8s.io * delete",
                          "the same rollback for the cloned infrastructure machine"),
                      Map.entry(
                          "bootstrap.cluster.x-k8s.io openshiftassistedconfigs patch",
                          "a change of the control plane's or its machine template's labels and"
                              + " annotations, propagated in place"),
                      Map.entry(
                          "infrastructure.cluster.x-k8s.io * patch",
                          "a change of the machine template's labels and annotations, propagated in"
                              + " place"),
                      Map.entry(
                          "cluster.x-k8s.io machines get",
                          "orphan configs and infrastructure machines"),
                      Map.entry(
                          "hive.openshift.io clusterimagesets patch", "an upgrade's release image"),
                      Map.entry(
                          "hive.openshift.io clusterdeployments patch",
                          "re-linking a ClusterDeployment to its AgentClusterInstall, or a"
                              + " spec.config change before the installation"),
                      Map.entry(
                          "extensions.hive.openshift.io agentclusterinstalls patch",
                          "day-2 changes of the installation (scale, API VIPs, manifests)"),
                      Map.entry(
                          "core configmaps delete",
                          "the mirror-registry manifests, with their control plane (each read"
                              + " first: deleted only when it is the control plane's)"),
                      Map.entry("core configmaps create", "the mirror-registry manifests"),
                      Map.entry("core configmaps update", "changed mirror-registry input")))));

  /**
   * The metrics server's grants, in both providers: the world's providers serve their metrics over
   * plain HTTP (the tests read them without a token) on a hub that is not OpenShift.
   */
  private static Map<String, String> withMetricsServer(Map<String, String> grants) {
    Map<String, String> all = new LinkedHashMap<>(grants);
    all.put(
        "authentication.k8s.io tokenreviews create", "a scrape of /metrics with a bearer token");
    all.put(
        "authorization.k8s.io subjectaccessreviews create",
        "whether that scraper may get /metrics");
    all.put("config.openshift.io apiservers list", "an OpenShift hub's TLS profile");
    all.put("config.openshift.io apiservers watch", "a change of that profile");
    return all;
  }

  /**
   * Granted rules whose use in this flow depends on timing, so they may be used or not: a write
   * conflict (HTTP 409; java-operator-sdk re-reads a primary from the API server when its finalizer
   * patch conflicts, ReconciliationDispatcher.conflictRetryingPatch), or assisted-service rewriting
   * the admin kubeconfig (about 10 s after its first version, once the installer has uploaded the
   * ingress CA) after our copy was published from the first version.
   */
  private static final Map<ProviderJar, Map<String, String>> BY_TIMING =
      new EnumMap<>(
          Map.of(
              ProviderJar.BOOTSTRAP,
              Map.of(
                  "agent-install.openshift.io infraenvs get",
                  "the InfraEnv re-read when its create conflicts",
                  "bootstrap.cluster.x-k8s.io openshiftassistedconfigs get",
                  "the config re-read when its finalizer patch or approval claim conflicts"),
              ProviderJar.CONTROLPLANE,
              Map.of(
                  "controlplane.cluster.x-k8s.io openshiftassistedcontrolplanes get",
                  "the control plane re-read when its finalizer patch conflicts",
                  "core secrets patch",
                  "<cluster>-kubeconfig, when assisted-service rewrote the admin kubeconfig after we"
                      + " published it")));

  /** The clusters' namespaces: the only ones the providers watch and are granted rules in. */
  private static final Map<String, String> NAMESPACES =
      Map.of("LiveISO", "least-privilege-liveiso", "DiskImage", "least-privilege-diskimage");

  private static World world;
  private static final List<ClusterScenario> clusters = new ArrayList<>();
  private static final SecretLeaks secrets = new SecretLeaks();

  @BeforeAll
  static void startWorld() throws Exception {
    world =
        World.start(
            World.Options.of(
                    SimulatedDurations.nearZero(),
                    Path.of("target", "world", LeastPrivilegeTest.class.getSimpleName()))
                .withLeaderElection(true)
                .withHubOfItsOwn()
                .withWatchedNamespaces(List.copyOf(NAMESPACES.values())));
  }

  /** Deletes what a failed test left, then stops the world and its hub. */
  @AfterAll
  static void stopWorld() {
    try {
      for (ClusterScenario cluster : clusters) {
        if (cluster.cluster() != null) {
          cluster.deleteCluster();
        }
      }
    } finally {
      if (world != null) {
        world.close();
      }
    }
  }

  @Test
  void providersInstallAndDeleteClustersAsTheirServiceAccountsUsingEveryGrantedRule() {
    for (String bootMode : List.of("LiveISO", "DiskImage")) {
      ClusterScenario cluster =
          new ClusterScenario(world, NAMESPACES.get(bootMode), "test-multinode", secrets);
      clusters.add(cluster);
      cluster.enrolHosts(5);
      cluster.apply("/e2e/ha.yaml", Map.of("BOOT_MODE", bootMode, "WORKERS", "2"));
    }
    for (ClusterScenario cluster : clusters) {
      awaitOrDump(cluster::awaitInstalled, 5);
    }
    for (ClusterScenario cluster : clusters) {
      cluster.deleteCluster();
    }
    // Both give up their leader Lease on a clean stop: that is part of their use of the Lease.
    world.stopProviders();

    List<AuditLog.Request> requests = AuditLog.read(world.hubAuditLog());
    Map<ProviderJar, Set<String>> unused = new EnumMap<>(ProviderJar.class);
    for (ProviderJar jar : ProviderJar.values()) {
      ProviderServiceAccount account = world.serviceAccount(jar);
      List<AuditLog.Request> ours =
          requests.stream().filter(r -> r.user().equals(account.username())).toList();
      assertThat(ours).as("requests of %s", account.username()).isNotEmpty();
      assertThat(ours.stream().filter(r -> r.code() == 401 || r.code() == 403))
          .as("requests of %s refused", account.username())
          .isEmpty();
      Map<String, Long> uses = usesOfEachRule(usesOfEachGrant(world.hub(), account, ours));
      LOG.info(
          "{}: {} requests, {} granted rules; uses of each:\n{}",
          jar.command,
          ours.size(),
          uses.size(),
          table(uses));
      assertThat(uses.keySet())
          .as("rules granted to %s that timing decides the use of", jar.command)
          .containsAll(BY_TIMING.get(jar).keySet());
      unused.put(
          jar,
          uses.entrySet().stream()
              .filter(use -> use.getValue() == 0)
              .map(Map.Entry::getKey)
              .filter(rule -> !BY_TIMING.get(jar).containsKey(rule))
              .collect(Collectors.toCollection(TreeSet::new)));
    }
    for (ProviderJar jar : ProviderJar.values()) {
      assertThat(unused.get(jar))
          .as("rules granted to %s that no request used", jar.command)
          .isEqualTo(new TreeSet<>(UNREACHED.get(jar).keySet()));
    }
    // Nor did a secret of the clusters (remembered when each was installed) reach a log, an
    // Event or a condition.
    Path logs = Path.of("target", "world", LeastPrivilegeTest.class.getSimpleName());
    SecretLeaks.Scan scan =
        secrets.findIn(
            logs, world.hub(), clusters.stream().map(ClusterScenario::namespace).toList());
    assertThat(scan.logs()).as("logs scanned for secrets under " + logs).isGreaterThanOrEqualTo(2);
    SecretScanner.assertNone(scan.findings());
    for (ProviderJar jar : ProviderJar.values()) {
      writesOutsideTheWatchedNamespacesAreRefused(world.serviceAccount(jar));
    }
  }

  /**
   * The hub refuses the ServiceAccount a Secret in a namespace it does not watch, and a list of
   * Secrets across the hub (after the audit log was read: these refusals are the test's).
   */
  private static void writesOutsideTheWatchedNamespacesAreRefused(ProviderServiceAccount account) {
    String elsewhere = world.hubEnvironment().createNamespace("not-watched");
    try (KubernetesClient provider =
        new KubernetesClientBuilder()
            .withConfig(
                Config.fromKubeconfig(account.kubeconfig(world.hubEnvironment().kubeConfigYaml())))
            .build()) {
      assertThatThrownBy(
              () ->
                  provider
                      .secrets()
                      .inNamespace(elsewhere)
                      .resource(
                          new SecretBuilder()
                              .withNewMetadata()
                              .withName("written-by-" + account.name())
                              .endMetadata()
                              .build())
                      .create())
          .as("%s creates a Secret in %s", account.username(), elsewhere)
          .isInstanceOfSatisfying(
              KubernetesClientException.class, e -> assertThat(e.getCode()).isEqualTo(403));
      assertThatThrownBy(() -> provider.secrets().inAnyNamespace().list())
          .as("%s lists the hub's Secrets", account.username())
          .isInstanceOfSatisfying(
              KubernetesClientException.class, e -> assertThat(e.getCode()).isEqualTo(403));
    }
    assertThat(world.hub().secrets().inNamespace(elsewhere).list().getItems())
        .noneMatch(s -> s.getMetadata().getName().startsWith("written-by-"));
  }

  /**
   * The uses of each rule, whichever namespace it is bound in: a namespaced rule is granted once
   * per watched namespace, and one cluster's flow may use it where the other's does not.
   */
  private static Map<String, Long> usesOfEachRule(Map<Grant, Long> uses) {
    Map<String, Long> rules = new LinkedHashMap<>();
    uses.forEach((grant, count) -> rules.merge(grant.rule(), count, Long::sum));
    return rules;
  }

  private static void awaitOrDump(IntConsumer await, int machines) {
    try {
      await.accept(machines);
    } catch (AssertionError e) {
      throw new AssertionError(
          e.getMessage()
              + clusters.stream().map(c -> "\n\n" + c.dump()).collect(Collectors.joining()),
          e);
    }
  }

  /**
   * One granted permission: a verb on a resource (with its subresource) of an API group, limited to
   * one object when the rule names some, in one namespace when a RoleBinding grants it.
   *
   * @param namespace where the grant applies; empty: everywhere (a ClusterRoleBinding)
   * @param name the one object it allows; empty: any
   */
  record Grant(String namespace, String apiGroup, String resource, String verb, String name) {
    boolean allows(AuditLog.Request request) {
      return (namespace.isEmpty() || namespace.equals(request.namespace()))
          && (apiGroup.equals("*") || apiGroup.equals(request.apiGroup()))
          && (resource.equals("*") || resource.equals(request.resource()))
          && (verb.equals("*") || verb.equals(request.verb()))
          && (name.isEmpty() || name.equals(request.name()));
    }

    /** The rule, without the namespace it is bound in. */
    String rule() {
      return (apiGroup.isEmpty() ? "core" : apiGroup)
          + " "
          + resource
          + (name.isEmpty() ? "" : "/" + name)
          + " "
          + verb;
    }

    @Override
    public String toString() {
      return rule() + (namespace.isEmpty() ? "" : " in " + namespace);
    }
  }

  /**
   * Every permission the hub's bindings give the ServiceAccount, with how many of its requests it
   * allowed. Reads the bindings and roles as applied, not the files.
   */
  private static Map<Grant, Long> usesOfEachGrant(
      KubernetesClient hub, ProviderServiceAccount account, List<AuditLog.Request> requests) {
    List<Grant> grants = new ArrayList<>();
    for (var binding : hub.rbac().clusterRoleBindings().list().getItems()) {
      if (bindsTo(binding.getSubjects(), account)) {
        grants.addAll(grants("", rules(hub, binding.getRoleRef(), "")));
      }
    }
    for (var binding : hub.rbac().roleBindings().inAnyNamespace().list().getItems()) {
      if (bindsTo(binding.getSubjects(), account)) {
        String namespace = binding.getMetadata().getNamespace();
        grants.addAll(grants(namespace, rules(hub, binding.getRoleRef(), namespace)));
      }
    }
    assertThat(grants).as("what is granted to %s", account.username()).isNotEmpty();
    Map<Grant, Long> uses = new LinkedHashMap<>();
    for (Grant grant : grants) {
      uses.put(grant, requests.stream().filter(grant::allows).count());
    }
    return uses;
  }

  private static boolean bindsTo(List<Subject> subjects, ProviderServiceAccount account) {
    return subjects != null
        && subjects.stream()
            .anyMatch(
                s ->
                    s.getKind().equals("ServiceAccount")
                        && s.getName().equals(account.name())
                        && account.namespace().equals(s.getNamespace()));
  }

  private static List<PolicyRule> rules(KubernetesClient hub, RoleRef ref, String namespace) {
    return ref.getKind().equals("ClusterRole")
        ? hub.rbac().clusterRoles().withName(ref.getName()).require().getRules()
        : hub.rbac().roles().inNamespace(namespace).withName(ref.getName()).require().getRules();
  }

  private static List<Grant> grants(String namespace, List<PolicyRule> rules) {
    List<Grant> grants = new ArrayList<>();
    for (PolicyRule rule : rules) {
      assertThat(rule.getNonResourceURLs()).as("non-resource URLs are not granted").isNullOrEmpty();
      List<String> names =
          rule.getResourceNames() == null || rule.getResourceNames().isEmpty()
              ? List.of("")
              : rule.getResourceNames();
      for (String group : rule.getApiGroups()) {
        for (String resource : rule.getResources()) {
          for (String verb : rule.getVerbs()) {
            for (String name : names) {
              grants.add(new Grant(namespace, group, resource, verb, name));
            }
          }
        }
      }
    }
    return grants;
  }

  private static String table(Map<String, Long> uses) {
    return uses.entrySet().stream()
        .map(use -> String.format("  %6d  %s", use.getValue(), use.getKey()))
        .collect(Collectors.joining("\n"));
  }
}
