package io.openshiftagent.simulator.benchmark;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.OwnerReference;
import io.openshiftagent.api.bootstrap.v1alpha2.BootstrapGroup;
import io.openshiftagent.api.controlplane.v1alpha3.ControlPlaneGroup;
import io.openshiftagent.api.external.ExternalKinds;
import io.openshiftagent.bootstrap.names.Names;
import io.openshiftagent.simulator.Fields;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Set;

/**
 * The stages at which one of our providers waits for an event and then writes, and how long each
 * took: from the moment the last thing it waits on was true (the latest of several marks) to the
 * moment its write was seen. Everything in between is the provider's own doing: its watch, its
 * queue, its reconcile, its requests.
 */
public final class ProviderStages {
  static final String CAPI = ExternalKinds.CAPI_GROUP + "/" + ExternalKinds.CAPI_VERSION;
  static final String AGENT =
      ExternalKinds.AGENT_INSTALL_GROUP + "/" + ExternalKinds.AGENT_INSTALL_VERSION;
  static final String ACI =
      ExternalKinds.HIVE_EXTENSION_GROUP + "/" + ExternalKinds.HIVE_EXTENSION_VERSION;
  static final String HIVE = ExternalKinds.HIVE_GROUP + "/" + ExternalKinds.HIVE_VERSION;
  static final String METAL3_INFRA =
      ExternalKinds.INFRASTRUCTURE_GROUP + "/" + ExternalKinds.METAL3_INFRASTRUCTURE_VERSION;
  static final String METAL3 = ExternalKinds.METAL3_GROUP + "/" + ExternalKinds.METAL3_VERSION;

  /** The install stages after which the bootstrap provider detaches the host (AgentReconciler). */
  private static final Set<String> BOOTS_FROM_DISK = Set.of("Rebooting", "Joined", "Done");

  /** Installer states in which the control-plane provider reports the cluster Available. */
  private static final List<String> INSTALLED_STATES =
      List.of("finalizing", "installed", "adding-hosts");

  /** One stage: who acts, on what, and its durations (ms), one per object that went through it. */
  public record Stage(
      String provider, String name, String waitsFor, String writes, List<Long> millis) {}

  private ProviderStages() {}

  /** Watches what the stages need to know, before anything is applied. */
  public static void watch(Timeline timeline) {
    timeline.watch(
        CAPI,
        "Cluster",
        c ->
            marks(
                "exists",
                Fields.isTrue(c, "status", "initialization", "infrastructureProvisioned")
                    ? "infrastructureProvisioned"
                    : null,
                hasEndpoint(c) ? "controlPlaneEndpoint" : null,
                conditionTrue(c, "Available") ? "Available" : null));
    timeline.watch(
        ControlPlaneGroup.API_VERSION,
        "OpenshiftAssistedControlPlane",
        cp ->
            marks(
                owner(cp, "Cluster").isPresent() ? "ownedByCluster" : null,
                conditionTrue(cp, "Available") ? "Available" : null));
    timeline.watch(HIVE, "ClusterDeployment", cd -> marks("exists"));
    timeline.watch(
        ACI,
        "AgentClusterInstall",
        aci ->
            marks(
                "exists",
                Fields.string(aci, "spec", "clusterMetadata", "adminKubeconfigSecretRef", "name")
                        != null
                    ? "adminKubeconfig"
                    : null,
                "state:" + Fields.string(aci, "status", "debugInfo", "state")));
    timeline.watch(
        CAPI,
        "Machine",
        m ->
            marks(
                "exists",
                "Running".equals(Fields.string(m, "status", "phase"))
                        && Fields.string(m, "status", "nodeRef", "name") != null
                    ? "Running"
                    : null));
    timeline.watch(
        BootstrapGroup.API_VERSION,
        "OpenshiftAssistedConfig",
        c ->
            marks(
                owner(c, "Machine").isPresent() ? "ownedByMachine" : null,
                Fields.string(c, "status", "dataSecretName") != null ? "dataSecretName" : null));
    timeline.watch(
        AGENT,
        "InfraEnv",
        i ->
            marks(
                "exists",
                Fields.string(i, "status", "isoDownloadURL") != null ? "isoDownloadURL" : null));
    timeline.watch(
        METAL3_INFRA,
        "Metal3Machine",
        m ->
            marks(
                "exists",
                Fields.annotation(m, ExternalKinds.BAREMETALHOST_ANNOTATION) != null
                    ? "host"
                    : null,
                Fields.string(m, "spec", "providerID") != null ? "providerID" : null));
    timeline.watch(
        AGENT,
        "Agent",
        a ->
            marks(
                "exists",
                Fields.isTrue(a, "spec", "approved") ? "approved" : null,
                bootsFromDisk(a) ? "bootsFromDisk" : null));
    timeline.watch(
        METAL3,
        "BareMetalHost",
        h ->
            marks(
                Fields.annotation(h, Names.BMH_DETACHED_ANNOTATION) != null ? "detached" : null,
                "state:" + Fields.string(h, "status", "provisioning", "state")));
    timeline.watch("v1", "Secret", s -> marks("exists"));
  }

  private static boolean bootsFromDisk(GenericKubernetesResource agent) {
    String stage = Fields.string(agent, "status", "progress", "currentStage");
    return stage != null && BOOTS_FROM_DISK.contains(stage);
  }

  /**
   * When the control plane has what it waits for before it makes anything (its preflight, as
   * KubeadmControlPlane's): its Cluster owns it, and the Cluster has its endpoint and its
   * infrastructure provisioned. Cluster API writes the endpoint in the Cluster's spec, a patch of
   * its own that may come after the status one.
   */
  private static OptionalLong controlPlaneCanStart(
      Timeline t, String ns, String cp, String cluster) {
    return latest(
        t.first("OpenshiftAssistedControlPlane", ns, cp, "ownedByCluster"),
        t.first("Cluster", ns, cluster, "controlPlaneEndpoint"),
        t.first("Cluster", ns, cluster, "infrastructureProvisioned"));
  }

  private static boolean hasEndpoint(GenericKubernetesResource cluster) {
    String host = Fields.string(cluster, "spec", "controlPlaneEndpoint", "host");
    return host != null && !host.isEmpty();
  }

  /** Every stage, with the durations of the objects of {@code namespaces}. */
  public static List<Stage> measure(Timeline t, Set<String> namespaces) {
    List<Stage> stages = new ArrayList<>();
    stages.add(
        new Stage(
            "control plane",
            "AgentClusterInstall created",
            "Cluster owns the control plane, has its endpoint, infrastructure provisioned",
            "ClusterDeployment, AgentClusterInstall",
            perControlPlane(
                t,
                namespaces,
                (ns, cp, cluster) ->
                    elapsed(
                        controlPlaneCanStart(t, ns, cp, cluster),
                        t.first("AgentClusterInstall", ns, cp, "exists")))));
    stages.add(
        new Stage(
            "control plane",
            "control-plane Machines created",
            "Cluster owns the control plane, has its endpoint, infrastructure provisioned",
            "the last of the replicas' Machines (with config and Metal3Machine)",
            perControlPlane(
                t,
                namespaces,
                (ns, cp, cluster) ->
                    elapsed(
                        controlPlaneCanStart(t, ns, cp, cluster),
                        lastControlPlaneMachine(t, ns, cluster)))));
    stages.add(
        new Stage(
            "bootstrap",
            "InfraEnv created",
            "config owned by its Machine, infrastructure provisioned, ClusterDeployment and"
                + " AgentClusterInstall exist (workers after installation: adding-hosts)",
            "InfraEnv",
            perConfig(
                t, namespaces, (ns, config, machine) -> infraEnvCreated(t, ns, config, machine))));
    stages.add(
        new Stage(
            "bootstrap",
            "bootstrap data ready",
            "InfraEnv's ISO URL published, Metal3Machine exists",
            "Metal3Machine image, data Secret, status.dataSecretName",
            perConfig(
                t,
                namespaces,
                (ns, config, machine) ->
                    elapsed(
                        latest(
                            t.first("InfraEnv", ns, config, "isoDownloadURL"),
                            t.first(
                                "Metal3Machine", ns, infrastructureOf(t, ns, machine), "exists")),
                        t.first("OpenshiftAssistedConfig", ns, config, "dataSecretName")))));
    stages.add(
        new Stage(
            "bootstrap",
            "Agent approved",
            "Agent registered, Metal3Machine names its host",
            "Agent role, hostname, labels, approved",
            perAgent(
                t,
                namespaces,
                (ns, agent, machine) ->
                    elapsed(
                        latest(
                            t.first("Agent", ns, agent, "exists"),
                            t.first("Metal3Machine", ns, infrastructureOf(t, ns, machine), "host")),
                        t.first("Agent", ns, agent, "approved")))));
    stages.add(
        new Stage(
            "bootstrap",
            "host detached",
            "Agent at Rebooting (boots from disk)",
            "BareMetalHost detached annotation",
            perAgent(
                t,
                namespaces,
                (ns, agent, machine) ->
                    elapsed(
                        t.first("Agent", ns, agent, "bootsFromDisk"),
                        hostOf(t, ns, machine)
                            .map(host -> t.first("BareMetalHost", ns, host, "detached"))
                            .orElse(OptionalLong.empty())))));
    stages.add(
        new Stage(
            "control plane",
            "kubeconfig published",
            "AgentClusterInstall names the admin kubeconfig Secret, which exists",
            "<cluster>-kubeconfig Secret",
            perControlPlane(
                t,
                namespaces,
                (ns, cp, cluster) ->
                    elapsed(
                        latest(
                            t.first("AgentClusterInstall", ns, cp, "adminKubeconfig"),
                            t.first("Secret", ns, cp + "-admin-kubeconfig", "exists")),
                        t.first(
                            "Secret",
                            ns,
                            io.openshiftagent.controlplane.names.Names.kubeconfigSecret(cluster),
                            "exists")))));
    stages.add(
        new Stage(
            "control plane",
            "control plane Available",
            "installer state finalizing (or installed, adding-hosts), admin kubeconfig named",
            "status: Available, initialized",
            perControlPlane(
                t,
                namespaces,
                (ns, cp, cluster) ->
                    elapsed(
                        latest(
                            earliest(
                                INSTALLED_STATES.stream()
                                    .map(s -> t.first("AgentClusterInstall", ns, cp, "state:" + s))
                                    .toList()),
                            t.first("AgentClusterInstall", ns, cp, "adminKubeconfig")),
                        t.first("OpenshiftAssistedControlPlane", ns, cp, "Available")))));
    return stages;
  }

  private static OptionalLong infraEnvCreated(
      Timeline t, String ns, String config, String machine) {
    GenericKubernetesResource m = t.object("Machine", ns, machine);
    String cluster = Fields.string(m, "spec", "clusterName");
    String cp = controlPlaneOf(t, ns, cluster);
    // Names.infraEnv: the InfraEnv is named like its config.
    OptionalLong created = t.first("InfraEnv", ns, config, "exists");
    List<OptionalLong> waitsFor = new ArrayList<>();
    waitsFor.add(t.first("OpenshiftAssistedConfig", ns, config, "ownedByMachine"));
    waitsFor.add(t.first("Cluster", ns, cluster, "infrastructureProvisioned"));
    waitsFor.add(t.first("ClusterDeployment", ns, cp, "exists"));
    waitsFor.add(t.first("AgentClusterInstall", ns, cp, "exists"));
    boolean worker = Fields.label(m, ExternalKinds.CONTROL_PLANE_LABEL) == null;
    OptionalLong installed = t.first("AgentClusterInstall", ns, cp, "state:adding-hosts");
    if (worker
        && installed.isPresent()
        && created.isPresent()
        && installed.getAsLong() <= created.getAsLong()) {
      // Day 2: the worker waited for the installation to complete (WorkerGate).
      waitsFor.add(installed);
    }
    return elapsed(latest(waitsFor.toArray(OptionalLong[]::new)), created);
  }

  // ---- walking from one object to the next ----

  @FunctionalInterface
  private interface Measure {
    OptionalLong of(String namespace, String name, String other);
  }

  /** Per control plane: (namespace, control plane, cluster). */
  private static List<Long> perControlPlane(Timeline t, Set<String> namespaces, Measure measure) {
    List<Long> millis = new ArrayList<>();
    for (GenericKubernetesResource cluster : t.objects("Cluster")) {
      String ns = cluster.getMetadata().getNamespace();
      String cp = Fields.string(cluster, "spec", "controlPlaneRef", "name");
      if (namespaces.contains(ns) && cp != null) {
        measure.of(ns, cp, cluster.getMetadata().getName()).ifPresent(millis::add);
      }
    }
    return millis;
  }

  /** Per OpenshiftAssistedConfig owned by a Machine: (namespace, config, Machine). */
  private static List<Long> perConfig(Timeline t, Set<String> namespaces, Measure measure) {
    List<Long> millis = new ArrayList<>();
    for (GenericKubernetesResource config : t.objects("OpenshiftAssistedConfig")) {
      String ns = config.getMetadata().getNamespace();
      Optional<String> machine = owner(config, "Machine");
      if (namespaces.contains(ns) && machine.isPresent()) {
        measure.of(ns, config.getMetadata().getName(), machine.get()).ifPresent(millis::add);
      }
    }
    return millis;
  }

  /** Per Agent of one of our InfraEnvs: (namespace, Agent, Machine). */
  private static List<Long> perAgent(Timeline t, Set<String> namespaces, Measure measure) {
    List<Long> millis = new ArrayList<>();
    for (GenericKubernetesResource agent : t.objects("Agent")) {
      String ns = agent.getMetadata().getNamespace();
      String infraEnv = Fields.label(agent, ExternalKinds.INFRAENV_LABEL);
      GenericKubernetesResource i = infraEnv == null ? null : t.object("InfraEnv", ns, infraEnv);
      Optional<String> machine = i == null ? Optional.empty() : owner(i, "Machine");
      if (namespaces.contains(ns) && machine.isPresent()) {
        measure.of(ns, agent.getMetadata().getName(), machine.get()).ifPresent(millis::add);
      }
    }
    return millis;
  }

  private static String controlPlaneOf(Timeline t, String ns, String cluster) {
    return Fields.string(t.object("Cluster", ns, cluster), "spec", "controlPlaneRef", "name");
  }

  private static String infrastructureOf(Timeline t, String ns, String machine) {
    return Fields.string(t.object("Machine", ns, machine), "spec", "infrastructureRef", "name");
  }

  private static Optional<String> hostOf(Timeline t, String ns, String machine) {
    GenericKubernetesResource m3m =
        t.object("Metal3Machine", ns, String.valueOf(infrastructureOf(t, ns, machine)));
    String host =
        m3m == null ? null : Fields.annotation(m3m, ExternalKinds.BAREMETALHOST_ANNOTATION);
    return Optional.ofNullable(host).map(h -> h.substring(h.indexOf('/') + 1));
  }

  private static OptionalLong lastControlPlaneMachine(Timeline t, String ns, String cluster) {
    List<OptionalLong> created =
        t.objects("Machine").stream()
            .filter(m -> ns.equals(m.getMetadata().getNamespace()))
            .filter(m -> cluster.equals(Fields.string(m, "spec", "clusterName")))
            .filter(m -> Fields.label(m, ExternalKinds.CONTROL_PLANE_LABEL) != null)
            .map(m -> t.first("Machine", ns, m.getMetadata().getName(), "exists"))
            .toList();
    return created.isEmpty() ? OptionalLong.empty() : latest(created.toArray(OptionalLong[]::new));
  }

  // ---- small helpers ----

  static Optional<String> owner(HasMetadata object, String kind) {
    return object.getMetadata().getOwnerReferences().stream()
        .filter(r -> kind.equals(r.getKind()))
        .map(OwnerReference::getName)
        .findFirst();
  }

  static boolean conditionTrue(GenericKubernetesResource object, String type) {
    return Fields.get(object, "status", "conditions") instanceof List<?> conditions
        && conditions.stream()
            .anyMatch(
                c ->
                    c instanceof Map<?, ?> m
                        && type.equals(m.get("type"))
                        && "True".equals(m.get("status")));
  }

  private static List<String> marks(String... marks) {
    List<String> present = new ArrayList<>();
    for (String mark : marks) {
      if (mark != null) {
        present.add(mark);
      }
    }
    return present;
  }

  /** The latest of the times, or empty when any is unknown. */
  private static OptionalLong latest(OptionalLong... times) {
    long latest = Long.MIN_VALUE;
    for (OptionalLong time : times) {
      if (time.isEmpty()) {
        return OptionalLong.empty();
      }
      latest = Math.max(latest, time.getAsLong());
    }
    return OptionalLong.of(latest);
  }

  /** The earliest of the known times, or empty when none is known. */
  private static OptionalLong earliest(List<OptionalLong> times) {
    return times.stream().filter(OptionalLong::isPresent).mapToLong(OptionalLong::getAsLong).min();
  }

  private static OptionalLong elapsed(OptionalLong from, OptionalLong to) {
    return from.isPresent() && to.isPresent()
        ? OptionalLong.of(to.getAsLong() - from.getAsLong())
        : OptionalLong.empty();
  }
}
