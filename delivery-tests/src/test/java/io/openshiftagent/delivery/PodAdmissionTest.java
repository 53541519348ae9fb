package io.openshiftagent.delivery;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.NamespaceBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.PodSecurityContext;
import io.fabric8.kubernetes.api.model.PodSpec;
import io.fabric8.kubernetes.api.model.SecurityContext;
import io.fabric8.kubernetes.api.model.ServiceAccountBuilder;
import io.fabric8.kubernetes.api.model.Volume;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.utils.Serialization;
import io.openshiftagent.testsupport.KubeApiServerEnvironment;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.function.Function;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * The pods every install path makes are admitted where the rules are strictest: Kubernetes' Pod
 * Security {@code restricted} level, enforced by the real API server on a namespace, and
 * OpenShift's {@code restricted-v2} SCC, whose rules (no API server here runs the SCC admission
 * plugin) are written down below as a checked list.
 */
class PodAdmissionTest {
  /**
   * A UID range as OpenShift assigns one to a namespace ({@code openshift.io/sa.scc.uid-range}):
   * MustRunAsRange admits only UIDs (and MustRunAs only fsGroups) inside it, so any UID or GID
   * fixed in a manifest is refused in some namespace.
   */
  private static final long RANGE_START = 1_000_680_000L;

  private static final long RANGE_SIZE = 10_000L;

  /** restricted-v2's {@code volumes}. */
  private static final Set<String> VOLUMES =
      Set.of(
          "configMap",
          "csi",
          "downwardAPI",
          "emptyDir",
          "ephemeral",
          "persistentVolumeClaim",
          "projected",
          "secret");

  private record Rule(String name, Function<PodSpec, List<String>> violations) {}

  /** OpenShift's restricted-v2 SCC, rule by rule. */
  private static final List<Rule> RESTRICTED_V2 =
      List.of(
          new Rule(
              "runAsUser MustRunAsRange: no UID outside the namespace's range",
              pod ->
                  outOfRange(
                      Stream.concat(
                              Stream.of(pod.getSecurityContext())
                                  .filter(Objects::nonNull)
                                  .map(PodSecurityContext::getRunAsUser),
                              containers(pod).map(c -> context(c).getRunAsUser()))
                          .toList())),
          new Rule(
              "fsGroup MustRunAs, no fixed GID: fsGroup, runAsGroup, supplementalGroups in range",
              pod -> {
                List<Long> gids = new ArrayList<>();
                Optional.ofNullable(pod.getSecurityContext())
                    .ifPresent(
                        s -> {
                          gids.add(s.getFsGroup());
                          gids.add(s.getRunAsGroup());
                          Optional.ofNullable(s.getSupplementalGroups()).ifPresent(gids::addAll);
                        });
                containers(pod).forEach(c -> gids.add(context(c).getRunAsGroup()));
                return outOfRange(gids);
              }),
          new Rule(
              "runs as non-root (runAsNonRoot)",
              pod ->
                  containers(pod)
                      .filter(
                          c ->
                              !Boolean.TRUE.equals(
                                  Optional.ofNullable(context(c).getRunAsNonRoot())
                                      .orElse(
                                          pod.getSecurityContext() == null
                                              ? null
                                              : pod.getSecurityContext().getRunAsNonRoot())))
                      .map(c -> c.getName() + " may run as root")
                      .toList()),
          new Rule(
              "allowPrivilegeEscalation: false",
              pod ->
                  containers(pod)
                      .filter(c -> !Boolean.FALSE.equals(context(c).getAllowPrivilegeEscalation()))
                      .map(c -> c.getName() + " allows privilege escalation")
                      .toList()),
          new Rule(
              "allowPrivilegedContainer: false",
              pod ->
                  containers(pod)
                      .filter(c -> Boolean.TRUE.equals(context(c).getPrivileged()))
                      .map(c -> c.getName() + " is privileged")
                      .toList()),
          new Rule(
              "requiredDropCapabilities: ALL; allowedCapabilities: NET_BIND_SERVICE",
              pod ->
                  containers(pod)
                      .flatMap(
                          c -> {
                            var caps = context(c).getCapabilities();
                            List<String> problems = new ArrayList<>();
                            if (caps == null
                                || caps.getDrop() == null
                                || !caps.getDrop().contains("ALL")) {
                              problems.add(c.getName() + " does not drop ALL capabilities");
                            }
                            if (caps != null && caps.getAdd() != null) {
                              caps.getAdd().stream()
                                  .filter(a -> !a.equals("NET_BIND_SERVICE"))
                                  .forEach(a -> problems.add(c.getName() + " adds " + a));
                            }
                            return problems.stream();
                          })
                      .toList()),
          new Rule(
              "seccompProfiles: runtime/default",
              pod -> {
                String podProfile =
                    pod.getSecurityContext() == null
                            || pod.getSecurityContext().getSeccompProfile() == null
                        ? null
                        : pod.getSecurityContext().getSeccompProfile().getType();
                return containers(pod)
                    .filter(
                        c -> {
                          String own =
                              context(c).getSeccompProfile() == null
                                  ? null
                                  : context(c).getSeccompProfile().getType();
                          return !"RuntimeDefault".equals(own == null ? podProfile : own);
                        })
                    .map(c -> c.getName() + " has no RuntimeDefault seccomp profile")
                    .toList();
              }),
          new Rule(
              "seLinuxContext MustRunAs: no SELinux options of our own",
              pod ->
                  Stream.concat(
                          Stream.of(pod.getSecurityContext())
                              .filter(s -> s != null && s.getSeLinuxOptions() != null)
                              .map(s -> "the pod sets seLinuxOptions"),
                          containers(pod)
                              .filter(c -> context(c).getSeLinuxOptions() != null)
                              .map(c -> c.getName() + " sets seLinuxOptions"))
                      .toList()),
          new Rule(
              "no host network, PID, IPC or ports",
              pod -> {
                List<String> problems = new ArrayList<>();
                if (Boolean.TRUE.equals(pod.getHostNetwork())) {
                  problems.add("hostNetwork");
                }
                if (Boolean.TRUE.equals(pod.getHostPID())) {
                  problems.add("hostPID");
                }
                if (Boolean.TRUE.equals(pod.getHostIPC())) {
                  problems.add("hostIPC");
                }
                containers(pod)
                    .filter(
                        c ->
                            c.getPorts() != null
                                && c.getPorts().stream().anyMatch(p -> p.getHostPort() != null))
                    .forEach(c -> problems.add(c.getName() + " uses a host port"));
                return problems;
              }),
          new Rule(
              "volumes: " + VOLUMES,
              pod ->
                  Optional.ofNullable(pod.getVolumes()).orElse(List.of()).stream()
                      .filter(v -> !VOLUMES.contains(volumeType(v)))
                      .map(v -> v.getName() + " is a " + volumeType(v) + " volume")
                      .toList()));

  @TempDir Path work;

  @ParameterizedTest
  @EnumSource(InstallPaths.class)
  void everyPodTemplateIsAdmittedUnderRestrictedAndFollowsRestrictedV2(InstallPaths path)
      throws Exception {
    List<Deployment> deployments =
        path.objects(Files.createDirectories(work.resolve(path.name()))).stream()
            .filter(Deployment.class::isInstance)
            .map(Deployment.class::cast)
            .toList();
    assertThat(deployments).as("%s renders both providers", path).hasSize(2);

    KubernetesClient client = KubeApiServerEnvironment.shared().client();
    String ns = restrictedNamespace(client, path.name().toLowerCase());
    for (Deployment deployment : deployments) {
      PodSpec spec = deployment.getSpec().getTemplate().getSpec();
      for (Rule rule : RESTRICTED_V2) {
        assertThat(rule.violations().apply(spec))
            .as("%s %s: restricted-v2 %s", path, deployment.getMetadata().getName(), rule.name())
            .isEmpty();
      }
      Pod created = create(client, ns, deployment);
      assertThat(created.getMetadata().getUid())
          .as("%s %s admitted under Pod Security restricted", path, deployment)
          .isNotBlank();
    }
  }

  /** Shows that both checks can fail: the manifests as they pinned UID 65532 before. */
  @Test
  void aPodWithAFixedUidOrAsRootIsRefused() throws Exception {
    Deployment deployment =
        InstallPaths.KUSTOMIZE.objects(Files.createDirectories(work.resolve("control"))).stream()
            .filter(Deployment.class::isInstance)
            .map(Deployment.class::cast)
            .findFirst()
            .orElseThrow();
    PodSecurityContext pod = deployment.getSpec().getTemplate().getSpec().getSecurityContext();
    pod.setRunAsUser(65532L);
    pod.setRunAsGroup(65532L);
    assertThat(
            RESTRICTED_V2.get(0).violations().apply(deployment.getSpec().getTemplate().getSpec()))
        .containsExactly("UID or GID 65532 is outside " + RANGE_START + "/" + RANGE_SIZE);
    assertThat(
            RESTRICTED_V2.get(1).violations().apply(deployment.getSpec().getTemplate().getSpec()))
        .isNotEmpty();

    KubernetesClient client = KubeApiServerEnvironment.shared().client();
    String ns = restrictedNamespace(client, "control");
    pod.setRunAsUser(0L);
    pod.setRunAsNonRoot(false);
    assertThatThrownBy(() -> create(client, ns, deployment))
        .isInstanceOf(KubernetesClientException.class)
        .hasMessageContaining("violates PodSecurity \"restricted:latest\"")
        .hasMessageContaining("runAsNonRoot != true");
  }

  private static Pod create(KubernetesClient client, String ns, Deployment deployment) {
    Pod pod =
        new PodBuilder()
            .withNewMetadata()
            .withName(deployment.getMetadata().getName())
            .withNamespace(ns)
            .withLabels(deployment.getSpec().getTemplate().getMetadata().getLabels())
            .endMetadata()
            .withSpec(Serialization.clone(deployment.getSpec().getTemplate().getSpec()))
            .build();
    String account = pod.getSpec().getServiceAccountName();
    if (account != null
        && client.serviceAccounts().inNamespace(ns).withName(account).get() == null) {
      client
          .serviceAccounts()
          .inNamespace(ns)
          .resource(
              new ServiceAccountBuilder().withNewMetadata().withName(account).endMetadata().build())
          .create();
    }
    return client.pods().inNamespace(ns).resource(pod).create();
  }

  private static String restrictedNamespace(KubernetesClient client, String prefix) {
    String name = prefix + "-restricted-" + Long.toHexString(System.nanoTime());
    client
        .namespaces()
        .resource(
            new NamespaceBuilder()
                .withNewMetadata()
                .withName(name)
                .withLabels(
                    Map.of(
                        "pod-security.kubernetes.io/enforce", "restricted",
                        "pod-security.kubernetes.io/enforce-version", "latest"))
                .endMetadata()
                .build())
        .create();
    return name;
  }

  private static List<String> outOfRange(List<Long> ids) {
    return ids.stream()
        .filter(Objects::nonNull)
        .filter(id -> id < RANGE_START || id >= RANGE_START + RANGE_SIZE)
        .distinct()
        .map(id -> "UID or GID " + id + " is outside " + RANGE_START + "/" + RANGE_SIZE)
        .toList();
  }

  private static Stream<Container> containers(PodSpec pod) {
    return Stream.concat(
        Optional.ofNullable(pod.getInitContainers()).orElse(List.of()).stream(),
        pod.getContainers().stream());
  }

  private static SecurityContext context(Container container) {
    return Optional.ofNullable(container.getSecurityContext()).orElseGet(SecurityContext::new);
  }

  private static String volumeType(Volume volume) {
    Map<String, Object> fields = Serialization.jsonMapper().convertValue(volume, Map.class);
    return fields.keySet().stream().filter(k -> !k.equals("name")).findFirst().orElse("?");
  }
}
