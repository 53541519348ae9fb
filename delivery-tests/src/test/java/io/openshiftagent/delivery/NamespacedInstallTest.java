package io.openshiftagent.delivery;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.NamespaceBuilder;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.api.model.authorization.v1.SubjectAccessReviewBuilder;
import io.fabric8.kubernetes.api.model.rbac.PolicyRule;
import io.fabric8.kubernetes.api.model.rbac.RoleRef;
import io.fabric8.kubernetes.api.model.rbac.Subject;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.openshiftagent.testsupport.Command;
import io.openshiftagent.testsupport.KubeApiServerEnvironment;
import io.openshiftagent.testsupport.TestPaths;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * A namespaced install by each path a user takes, as docs/operations.md ("A namespaced install")
 * says, watching the namespaces cluster-a and cluster-b, applied with the real clients to a real
 * API server: {@code kubectl apply -k config/namespaced}; {@code helm install --set
 * watchNamespace=cluster-a\,cluster-b}; the clusterctl components with {@code
 * OPENSHIFT_AGENT_WATCH_NAMESPACE} and {@code OPENSHIFT_AGENT_MANAGER_BINDING_KIND=RoleBinding} as
 * {@code clusterctl generate provider} processes them for {@code clusterctl init}, then the
 * documented {@code kubectl create rolebinding} in each watched namespace. The API server
 * (SubjectAccessReview) then decides, for each provider's ServiceAccount: every rule of scope
 * namespace of its table in docs/security.md is allowed in both watched namespaces and refused in
 * another namespace and across all; every rule of scope cluster is allowed; the bindings grant in a
 * watched namespace exactly the table's rows of scope namespace and cluster-wide exactly those of
 * scope cluster; and the managers watch those namespaces.
 */
class NamespacedInstallTest {
  private static final List<String> WATCHED = List.of("cluster-a", "cluster-b");
  private static final String ELSEWHERE = "someone-elses";

  /** The chart's assisted-service CA bundle Secret, in a namespace it does not watch. */
  private static final String CA_BUNDLE = "assisted-ca";

  @TempDir Path work;

  @ParameterizedTest
  @EnumSource(InstallPaths.class)
  void eachProviderMayWriteInTheWatchedNamespacesOnly(InstallPaths path) throws IOException {
    try (KubeApiServerEnvironment env =
        KubeApiServerEnvironment.startIndependent(
            List.of(TestPaths.upstreamCrds(), TestPaths.openshiftHubCrds()))) {
      KubernetesClient client = env.client();
      for (String ns : concat(WATCHED, List.of(ELSEWHERE))) {
        client
            .namespaces()
            .resource(new NamespaceBuilder().withNewMetadata().withName(ns).endMetadata().build())
            .create();
      }
      Path kubeconfig = Files.writeString(work.resolve("kubeconfig"), env.kubeConfigYaml());
      Clients clients =
          new Clients(
              kubeconfig,
              Files.writeString(work.resolve("clusterctl.yaml"), "{}\n"),
              Files.createDirectories(work.resolve("home")));
      List<Provider> providers = install(path, clients, kubeconfig);

      documentedScopesAreTheApiServers(clients);
      for (Provider provider : providers) {
        Deployment deployment =
            client
                .apps()
                .deployments()
                .inNamespace(provider.namespace())
                .withName(provider.deployment())
                .require();
        assertThat(managerArgs(deployment))
            .as("%s's manager", provider.deployment())
            .contains("--namespace=" + String.join(",", WATCHED));

        Set<String> namespaced = RbacTable.grants(provider.section(), RbacTable.Scope.NAMESPACE);
        Set<String> clusterScoped = RbacTable.grants(provider.section(), RbacTable.Scope.CLUSTER);
        for (String ns : WATCHED) {
          assertThat(grantedIn(client, provider, ns))
              .as("what %s is granted in %s", provider.user(), ns)
              .isEqualTo(namespaced);
          assertThat(refused(client, provider, namespaced, ns))
              .as("documented rules refused to %s in the watched %s", provider.user(), ns)
              .isEmpty();
        }
        assertThat(grantedIn(client, provider, ""))
            .as("what %s is granted cluster-wide", provider.user())
            .isEqualTo(clusterScoped);
        assertThat(refused(client, provider, clusterScoped, ""))
            .as("cluster-scoped rules refused to %s", provider.user())
            .isEmpty();
        assertThat(allowed(client, provider, namespaced, ELSEWHERE))
            .as("rules allowed to %s in %s, which it does not watch", provider.user(), ELSEWHERE)
            .isEmpty();
        assertThat(allowed(client, provider, namespaced, ""))
            .as("namespaced rules allowed to %s across all namespaces", provider.user())
            .isEmpty();
      }
      if (path == InstallPaths.HELM) {
        // The CA bundle outside the watched namespaces: that one Secret, and no other.
        Provider bootstrap = providers.get(0);
        assertThat(canGetSecret(client, bootstrap, ELSEWHERE, CA_BUNDLE)).isTrue();
        assertThat(canGetSecret(client, bootstrap, ELSEWHERE, "another")).isFalse();
      }
    }
  }

  /**
   * One provider as a path installs it: the ServiceAccount's namespace and name, its Deployment,
   * and its table in docs/security.md.
   */
  record Provider(String namespace, String serviceAccount, String deployment, String section) {
    String user() {
      return "system:serviceaccount:" + namespace + ":" + serviceAccount;
    }
  }

  private List<Provider> install(InstallPaths path, Clients clients, Path kubeconfig) {
    List<Provider> kustomized =
        List.of(
            new Provider(
                "openshift-agent-bootstrap-system",
                "bootstrap-openshift-agent-manager",
                "bootstrap-openshift-agent-controller-manager",
                RbacTable.BOOTSTRAP),
            new Provider(
                "openshift-agent-control-plane-system",
                "control-plane-openshift-agent-manager",
                "control-plane-openshift-agent-controller-manager",
                RbacTable.CONTROL_PLANE));
    switch (path) {
      case KUSTOMIZE -> {
        clients
            .kubectl(
                "apply", "--server-side", "-k", TestPaths.repoRoot().resolve("config/namespaced"))
            .ok();
        return kustomized;
      }
      case HELM -> {
        Command.run(
                Duration.ofMinutes(3),
                List.of(
                    TestPaths.tool("helm").toString(),
                    "install",
                    "capoa",
                    InstallPaths.CHART.toString(),
                    "--kubeconfig",
                    kubeconfig.toString(),
                    "--namespace",
                    "capoa-system",
                    "--create-namespace",
                    "--set",
                    "watchNamespace=" + String.join("\\,", WATCHED),
                    "--set",
                    "bootstrap.assistedService.caBundle.namespace=" + ELSEWHERE,
                    "--set",
                    "bootstrap.assistedService.caBundle.name=" + CA_BUNDLE))
            .ok();
        return List.of(
            new Provider("capoa-system", "capoa-bootstrap", "capoa-bootstrap", RbacTable.BOOTSTRAP),
            new Provider(
                "capoa-system",
                "capoa-controlplane",
                "capoa-controlplane",
                RbacTable.CONTROL_PLANE));
      }
      case CLUSTERCTL -> {
        Path config = clusterctlRepository();
        Path home = work.resolve("home");
        for (String type : List.of("--bootstrap", "--control-plane")) {
          // What clusterctl init applies: the components with their variables and namespace set.
          String components =
              Command.of(
                      TestPaths.tool("clusterctl"),
                      "--config=" + config,
                      "generate",
                      "provider",
                      type,
                      "openshift-agent:v" + Release.pomReleaseVersion())
                  .env("CLUSTERCTL_DISABLE_VERSIONCHECK", "true")
                  .env("XDG_CONFIG_HOME", home.resolve(".config").toString())
                  .env("HOME", home.toString())
                  .env("OPENSHIFT_AGENT_WATCH_NAMESPACE", String.join(",", WATCHED))
                  .env("OPENSHIFT_AGENT_MANAGER_BINDING_KIND", "RoleBinding")
                  .ok();
          clients.kubectl("apply", "--server-side", "-f", "-").stdin(components).ok();
        }
        // The step after clusterctl init (docs/operations.md), for each watched namespace.
        for (String ns : WATCHED) {
          for (Provider provider : kustomized) {
            clients
                .kubectl(
                    "create",
                    "rolebinding",
                    provider.serviceAccount(),
                    "-n",
                    ns,
                    "--clusterrole=" + provider.serviceAccount(),
                    "--serviceaccount=" + provider.namespace() + ":" + provider.serviceAccount())
                .ok();
          }
        }
        return kustomized;
      }
    }
    throw new IllegalArgumentException(path.toString());
  }

  /** A clusterctl configuration whose providers are this release's, from a local repository. */
  private Path clusterctlRepository() {
    try {
      String version = "v" + Release.pomReleaseVersion();
      Path release = Release.build(Release.pomReleaseVersion(), work.resolve("release"));
      StringBuilder config = new StringBuilder("providers:\n");
      for (String[] provider :
          new String[][] {
            {"bootstrap-openshift-agent", "BootstrapProvider", "bootstrap-components.yaml"},
            {
              "control-plane-openshift-agent",
              "ControlPlaneProvider",
              "control-plane-components.yaml"
            }
          }) {
        Path dir =
            Files.createDirectories(work.resolve("repository/" + provider[0] + "/" + version));
        Files.copy(release.resolve(provider[2]), dir.resolve(provider[2]));
        Files.copy(release.resolve("metadata.yaml"), dir.resolve("metadata.yaml"));
        config.append(
            "  - name: openshift-agent\n    type: %s\n    url: file://%s\n"
                .formatted(provider[1], dir.resolve(provider[2])));
      }
      return Files.writeString(work.resolve("clusterctl-repository.yaml"), config.toString());
    } catch (IOException e) {
      throw new java.io.UncheckedIOException(e);
    }
  }

  /**
   * The scope column of the docs' tables is the API server's: each resource of scope cluster is
   * cluster-scoped, each of scope namespace namespaced ({@code *} of a group and subresources
   * aside: their resource is what counts).
   */
  private static void documentedScopesAreTheApiServers(Clients clients) throws IOException {
    Set<String> clusterScoped =
        Set.of(
            clients
                .kubectl("api-resources", "--namespaced=false", "-o", "name")
                .ok()
                .trim()
                .split("\n"));
    Set<String> namespaced =
        Set.of(
            clients
                .kubectl("api-resources", "--namespaced=true", "-o", "name")
                .ok()
                .trim()
                .split("\n"));
    for (String section : List.of(RbacTable.BOOTSTRAP, RbacTable.CONTROL_PLANE)) {
      for (RbacTable.Scope scope : List.of(RbacTable.Scope.NAMESPACE, RbacTable.Scope.CLUSTER)) {
        for (String grant : RbacTable.grants(section, scope)) {
          String[] parts = grant.split(" ");
          String resource = parts[1].split("/")[0];
          if (resource.equals("*")) {
            continue;
          }
          String name = parts[0].isEmpty() ? resource : resource + "." + parts[0];
          assertThat(scope == RbacTable.Scope.CLUSTER ? clusterScoped : namespaced)
              .as("'%s' of '%s' is of scope %s on the API server", grant, section, scope)
              .contains(name);
        }
      }
    }
  }

  /**
   * The grants (group, resource, verb) the bindings give the provider in {@code namespace} (its
   * RoleBindings there), or cluster-wide ({@code ""}: its ClusterRoleBindings), as applied.
   */
  private static Set<String> grantedIn(
      KubernetesClient client, Provider provider, String namespace) {
    List<PolicyRule> rules = new ArrayList<>();
    if (namespace.isEmpty()) {
      for (var binding : client.rbac().clusterRoleBindings().list().getItems()) {
        if (bindsTo(binding.getSubjects(), provider)) {
          rules.addAll(rules(client, binding.getRoleRef(), ""));
        }
      }
    } else {
      for (var binding : client.rbac().roleBindings().inNamespace(namespace).list().getItems()) {
        if (bindsTo(binding.getSubjects(), provider)) {
          rules.addAll(rules(client, binding.getRoleRef(), namespace));
        }
      }
    }
    return RbacTable.grantsOf(rules);
  }

  private static boolean bindsTo(List<Subject> subjects, Provider provider) {
    return subjects != null
        && subjects.stream()
            .anyMatch(
                s ->
                    s.getKind().equals("ServiceAccount")
                        && s.getName().equals(provider.serviceAccount())
                        && provider.namespace().equals(s.getNamespace()));
  }

  private static List<PolicyRule> rules(KubernetesClient client, RoleRef ref, String namespace) {
    return ref.getKind().equals("ClusterRole")
        ? client.rbac().clusterRoles().withName(ref.getName()).require().getRules()
        : client.rbac().roles().inNamespace(namespace).withName(ref.getName()).require().getRules();
  }

  /** Of {@code grants}, those the API server refuses the provider in {@code namespace}. */
  private static Set<String> refused(
      KubernetesClient client, Provider provider, Set<String> grants, String namespace) {
    Set<String> refused = new TreeSet<>(grants);
    refused.removeAll(allowed(client, provider, grants, namespace));
    return refused;
  }

  /**
   * Of {@code grants}, those the API server allows the provider in {@code namespace} ({@code ""}:
   * across all namespaces), asked by SubjectAccessReview as the ServiceAccount with its groups.
   */
  private static Set<String> allowed(
      KubernetesClient client, Provider provider, Set<String> grants, String namespace) {
    Set<String> allowed = new TreeSet<>();
    for (String grant : grants) {
      String[] parts = grant.split(" ");
      String[] resource = parts[1].split("/", 2);
      boolean yes =
          client
              .authorization()
              .v1()
              .subjectAccessReview()
              .create(
                  new SubjectAccessReviewBuilder()
                      .withNewSpec()
                      .withUser(provider.user())
                      .withGroups(
                          "system:serviceaccounts",
                          "system:serviceaccounts:" + provider.namespace(),
                          "system:authenticated")
                      .withNewResourceAttributes()
                      .withGroup(parts[0])
                      .withResource(resource[0])
                      .withSubresource(resource.length > 1 ? resource[1] : null)
                      .withVerb(parts[2])
                      .withNamespace(namespace)
                      .endResourceAttributes()
                      .endSpec()
                      .build())
              .getStatus()
              .getAllowed();
      if (yes) {
        allowed.add(grant);
      }
    }
    return allowed;
  }

  /**
   * The manager's arguments with the {@code $(VAR)} of its environment expanded, as the kubelet
   * does.
   */
  private static List<String> managerArgs(Deployment deployment) {
    var container =
        deployment.getSpec().getTemplate().getSpec().getContainers().stream()
            .filter(c -> c.getName().equals("manager"))
            .findFirst()
            .orElseThrow();
    Map<String, String> env = new java.util.HashMap<>();
    container.getEnv().stream()
        .filter(e -> e.getValue() != null)
        .forEach(e -> env.put(e.getName(), e.getValue()));
    return container.getArgs().stream()
        .map(
            arg -> {
              String expanded = arg;
              for (var e : env.entrySet()) {
                expanded = expanded.replace("$(" + e.getKey() + ")", e.getValue());
              }
              return expanded;
            })
        .toList();
  }

  private static boolean canGetSecret(
      KubernetesClient client, Provider provider, String namespace, String name) {
    return client
        .authorization()
        .v1()
        .subjectAccessReview()
        .create(
            new SubjectAccessReviewBuilder()
                .withNewSpec()
                .withUser(provider.user())
                .withNewResourceAttributes()
                .withResource("secrets")
                .withVerb("get")
                .withNamespace(namespace)
                .withName(name)
                .endResourceAttributes()
                .endSpec()
                .build())
        .getStatus()
        .getAllowed();
  }

  private static List<String> concat(List<String> a, List<String> b) {
    List<String> all = new ArrayList<>(a);
    all.addAll(b);
    return all;
  }
}
