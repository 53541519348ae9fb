package io.openshiftagent.simulator;

import io.fabric8.kubernetes.api.model.ConfigBuilder;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.authentication.TokenRequestBuilder;
import io.fabric8.kubernetes.api.model.rbac.RoleBindingBuilder;
import io.fabric8.kubernetes.api.model.rbac.RoleBuilder;
import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.utils.Serialization;
import io.openshiftagent.testsupport.ProviderJar;
import io.openshiftagent.testsupport.TestPaths;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;
import java.util.concurrent.TimeUnit;

/**
 * A provider's identity as its Deployment has it: the Namespace, ServiceAccount, ClusterRoles, Role
 * and bindings of {@code config/<provider>}, as kustomize renders them, applied to the hub; and a
 * kubeconfig that authenticates as that ServiceAccount with a token from the TokenRequest API, so
 * the hub's RBAC authorizes every request of the provider. In a namespaced install, as {@code
 * config/namespaced} makes it, the manager's namespaced rules are bound by the RoleBinding of
 * {@code config/namespaced/bindings} in each watched namespace instead of cluster-wide.
 */
public final class ProviderServiceAccount {
  /**
   * What of the kustomization an identity is: not the CRDs (installed already), nor the manager.
   */
  private static final Set<String> IDENTITY_KINDS =
      Set.of(
          "Namespace",
          "ServiceAccount",
          "ClusterRole",
          "ClusterRoleBinding",
          "Role",
          "RoleBinding");

  /** As long as any world runs; the hub does not refresh it (a pod's projected token would). */
  private static final long TOKEN_SECONDS = 24 * 3600;

  private final String namespace;
  private final String name;
  private final String token;

  private ProviderServiceAccount(String namespace, String name, String token) {
    this.namespace = namespace;
    this.name = name;
    this.token = token;
  }

  /** Applies the provider's identity from {@code config/} to the hub and mints its token. */
  public static ProviderServiceAccount install(KubernetesClient admin, ProviderJar jar) {
    return install(admin, jar, List.of());
  }

  /**
   * The same; with {@code watched} namespaces, a namespaced install: the ClusterRoleBinding of the
   * manager's namespaced rules (named as the ServiceAccount) is left out, and they are bound in
   * each of {@code watched} instead.
   */
  public static ProviderServiceAccount install(
      KubernetesClient admin, ProviderJar jar, List<String> watched) {
    return install(admin, load(admin, kustomize(providerDir(jar))), "config/ of " + jar, watched);
  }

  /**
   * Applies the identity among a provider's install manifests ({@code objects}: its Namespace,
   * ServiceAccount, roles and bindings; the rest is left out) to the hub and mints its token.
   *
   * @param what names the manifests in errors
   */
  public static ProviderServiceAccount install(
      KubernetesClient admin, List<HasMetadata> objects, String what) {
    return install(admin, objects, what, List.of());
  }

  private static ProviderServiceAccount install(
      KubernetesClient admin, List<HasMetadata> objects, String what, List<String> watched) {
    List<HasMetadata> identity =
        objects.stream().filter(object -> IDENTITY_KINDS.contains(object.getKind())).toList();
    HasMetadata account =
        identity.stream()
            .filter(object -> object.getKind().equals("ServiceAccount"))
            .findFirst()
            .orElseThrow(() -> new IllegalStateException(what + " has no ServiceAccount"));
    String namespace = account.getMetadata().getNamespace();
    String name = account.getMetadata().getName();
    for (HasMetadata object : identity) {
      if (!watched.isEmpty()
          && object.getKind().equals("ClusterRoleBinding")
          && object.getMetadata().getName().equals(name)) {
        continue;
      }
      admin.resource(object).forceConflicts().serverSideApply();
    }
    if (!watched.isEmpty()) {
      HasMetadata binding =
          load(admin, kustomize(TestPaths.repoRoot().resolve("config/namespaced/bindings")))
              .stream()
              .filter(object -> object.getMetadata().getName().equals(name))
              .findFirst()
              .orElseThrow(
                  () ->
                      new IllegalStateException(
                          "config/namespaced/bindings has no RoleBinding " + name));
      for (String ns : watched) {
        binding.getMetadata().setNamespace(ns);
        admin.resource(binding).forceConflicts().serverSideApply();
      }
    }
    String token =
        admin
            .serviceAccounts()
            .inNamespace(namespace)
            .withName(name)
            .tokenRequest(
                new TokenRequestBuilder()
                    .withNewSpec()
                    .withExpirationSeconds(TOKEN_SECONDS)
                    .endSpec()
                    .build())
            .getStatus()
            .getToken();
    return new ProviderServiceAccount(namespace, name, token);
  }

  /**
   * Grants get on one Secret outside the watched namespaces, as the chart's {@code
   * <release>-bootstrap-ca-bundle} Role does for the assisted-service CA bundle.
   */
  public void grantSecretRead(KubernetesClient admin, String secretNamespace, String secretName) {
    String role = name + "-ca-bundle";
    admin
        .resource(
            new RoleBuilder()
                .withNewMetadata()
                .withName(role)
                .withNamespace(secretNamespace)
                .endMetadata()
                .addNewRule()
                .withApiGroups("")
                .withResources("secrets")
                .withResourceNames(secretName)
                .withVerbs("get")
                .endRule()
                .build())
        .forceConflicts()
        .serverSideApply();
    admin
        .resource(
            new RoleBindingBuilder()
                .withNewMetadata()
                .withName(role)
                .withNamespace(secretNamespace)
                .endMetadata()
                .withNewRoleRef("rbac.authorization.k8s.io", "Role", role)
                .addNewSubject()
                .withKind("ServiceAccount")
                .withName(name)
                .withNamespace(namespace)
                .endSubject()
                .build())
        .forceConflicts()
        .serverSideApply();
  }

  /** The Namespace of the ServiceAccount: where the manager runs and elects its leader. */
  public String namespace() {
    return namespace;
  }

  public String name() {
    return name;
  }

  /** The user the API server sees: {@code system:serviceaccount:<namespace>:<name>}. */
  public String username() {
    return "system:serviceaccount:" + namespace + ":" + name;
  }

  /** A kubeconfig for the server of {@code adminKubeconfig} that authenticates with the token. */
  public String kubeconfig(String adminKubeconfig) {
    Config server = Config.fromKubeconfig(adminKubeconfig);
    return Serialization.asYaml(
        new ConfigBuilder()
            .withApiVersion("v1")
            .withKind("Config")
            .addNewCluster()
            .withName("hub")
            .withNewCluster()
            .withServer(server.getMasterUrl())
            .withCertificateAuthority(server.getCaCertFile())
            .withCertificateAuthorityData(server.getCaCertData())
            .endCluster()
            .endCluster()
            .addNewUser()
            .withName(name)
            .withNewUser()
            .withToken(token)
            .endUser()
            .endUser()
            .addNewContext()
            .withName(name)
            .withNewContext()
            .withCluster("hub")
            .withUser(name)
            .endContext()
            .endContext()
            .withCurrentContext(name)
            .build());
  }

  private static Path providerDir(ProviderJar jar) {
    return TestPaths.repoRoot()
        .resolve("config")
        .resolve(jar == ProviderJar.BOOTSTRAP ? "bootstrap" : "controlplane");
  }

  private static List<HasMetadata> load(KubernetesClient admin, String manifests) {
    return admin.load(new ByteArrayInputStream(manifests.getBytes(StandardCharsets.UTF_8))).items();
  }

  /** {@code kubectl kustomize <dir>}: what a user applies. */
  private static String kustomize(Path dir) {
    try {
      Path out = Files.createTempFile("kustomize", ".yaml");
      try {
        Process process =
            new ProcessBuilder(TestPaths.kubectl().toString(), "kustomize", dir.toString())
                .redirectOutput(out.toFile())
                .redirectErrorStream(false)
                .redirectError(ProcessBuilder.Redirect.INHERIT)
                .start();
        if (!process.waitFor(2, TimeUnit.MINUTES) || process.exitValue() != 0) {
          process.destroyForcibly();
          throw new IllegalStateException("kubectl kustomize " + dir + " failed");
        }
        return Files.readString(out);
      } finally {
        Files.delete(out);
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(e);
    }
  }
}
