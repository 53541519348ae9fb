package io.openshiftagent.simulator.e2e;

import static io.openshiftagent.simulator.Fields.get;
import static io.openshiftagent.simulator.Fields.string;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.ObjectMeta;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.fabric8.kubernetes.api.model.OwnerReference;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.openshiftagent.api.external.ExternalKinds;
import io.openshiftagent.bootstrap.names.Names;
import io.openshiftagent.controlplane.machines.UpToDate;
import io.openshiftagent.provider.contract.GoProvider;
import io.openshiftagent.simulator.ApiVersions;
import io.openshiftagent.simulator.Fields;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;

/**
 * Rewrites a paused cluster that our providers installed into the state in which the Go provider
 * (cluster-api-provider-openshift-assisted) leaves an installed cluster, as
 * docs/from-the-go-provider.md's procedure finds it once its providers are swapped. The Go provider
 * cannot be built here (the Go module proxy refuses its module), so this writes what its code
 * leaves, each fact from the team's reading of that code at its commit 24cdcec8
 * (capoa-behaviour.md, whose sections are named below: §2.3 its control-plane API, §3.1 to §3.4 its
 * config, Agent, control-plane and ClusterDeployment controllers under {@code
 * bootstrap/internal/controller} and {@code controlplane/internal/controller}, §3.7 its summary of
 * names, owners and labels):
 *
 * <ul>
 *   <li>the control plane: its finalizer {@code .../deprovision} alone (§3.3); its conditions
 *       {@code Available}, {@code KubeconfigAvailable}, {@code KubernetesVersionAvailable}, {@code
 *       MachinesCreated}, {@code MachinesReady}, {@code UpgradeCompleted} and the summary {@code
 *       Ready}, True with the type as the reason (§2.3; {@code UpgradeAvailable} is never True),
 *       and of its status only what it writes (§2.3: no {@code selector}, which it never sets);
 *   <li>each config: its finalizer alone (§3.1), no annotation of ours (the spec hash, the record
 *       of propagated fields), a status of {@code dataSecretCreated}, {@code dataSecretName} and
 *       {@code observedGeneration} (its conditions go to {@code v1beta1Conditions}, which our CRD
 *       does not have: the API server drops them as it would on the switch);
 *   <li>each control-plane Machine: the annotation {@code bmac.agent-install.openshift.io/role:
 *       master}, none of ours (our pre-terminate hook, the propagated record); each infrastructure
 *       machine without our record (§3.3 step 16);
 *   <li>each InfraEnv owned by its config and Machine, neither as controller (§3.1 {@code
 *       ensureInfraEnv}), without {@code spec.agentLabels} and our annotations (boot mode, approved
 *       Agent); its Agents without the labels those agent labels gave them and without our
 *       annotations (§3.2: it writes only their spec); each bootstrap data Secret without labels
 *       (§3.1 step 13);
 *   <li>the ClusterDeployment and AgentClusterInstall labelled with the control-plane labels
 *       (cluster-name, control-plane, control-plane-name; §3.3 step 10, §3.4 step 6); the
 *       AgentClusterInstall's {@code imageSetRef} naming the ClusterImageSet {@code <control
 *       plane>}, cluster-scoped, unlabelled, with the release by digest (§3.4 steps 3, 4, 6); ours,
 *       {@code <namespace>.<control plane>}, does not exist. The Go provider names its set from
 *       creation; here the installed AgentClusterInstall is pointed at it, which assisted-service's
 *       controller accepts (it looks the set up) and its admission webhook, not registered in the
 *       world, would refuse ({@code imageSetRef} is immutable there): a shortcut to the state, not
 *       a step of the switch. The ClusterDeployment names no set: Hive's {@code
 *       spec.provisioning.imageSetRef} is for Hive's own installs; the Go provider never sets it.
 * </ul>
 *
 * <p>What stays as our providers made it, and why: object names (the same scheme in both: §3.7);
 * the specs of configs (immutable, and the same copy of the control plane's); the Agents' spec
 * (what assisted-service installed from; the Go provider's install ignition differs in form only);
 * the configs' {@code spec.bootMode} (the Go provider's CRD has no such field: its only flow is the
 * {@code DiskImage} the manifest asks for); the kubeconfig Secret (the same name, label, owner and
 * key: §3.6).
 */
final class GoProviderState {
  /** Our providers' bookkeeping annotations that the Go provider does not write. */
  private static final String PROPAGATED = "controlplane.cluster.x-k8s.io/propagated";

  /** Our etcd hook on each control-plane Machine, which the Go provider does not hold. */
  static final String PRE_TERMINATE_HOOK =
      "pre-terminate.delete.hook.machine.cluster.x-k8s.io/openshift-agent-etcd";

  /** The Go provider's legacy hint on its control-plane Machines (§3.3 step 16). */
  static final String ROLE_ANNOTATION = "bmac.agent-install.openshift.io/role";

  private final ClusterScenario cluster;
  private final KubernetesClient hub;
  private final String controlPlane;

  /** The ClusterImageSet our providers had made, deleted: the Go provider's replaces it. */
  private String ourClusterImageSet;

  GoProviderState(ClusterScenario cluster) {
    this.cluster = cluster;
    this.hub = cluster.hub();
    this.controlPlane = ClusterScenario.name(cluster.controlPlane());
  }

  /** The Go provider's ClusterImageSet of this cluster. */
  String clusterImageSet() {
    return GoProvider.clusterImageSet(controlPlane);
  }

  /** The name of the ClusterImageSet our providers had made for the cluster. */
  String ourClusterImageSet() {
    return ourClusterImageSet;
  }

  /** Writes the whole state; the cluster must be paused and our providers have seen it. */
  void write() {
    rewrite(
        ApiVersions.CONTROL_PLANE,
        "OpenshiftAssistedControlPlane",
        controlPlane,
        cp -> cp.getMetadata().setFinalizers(List.of(GoProvider.CONTROL_PLANE_FINALIZER)));
    rewriteStatus(
        ApiVersions.CONTROL_PLANE,
        "OpenshiftAssistedControlPlane",
        controlPlane,
        GoProviderState::controlPlaneStatus);
    for (GenericKubernetesResource config :
        cluster.list(ApiVersions.BOOTSTRAP, "OpenshiftAssistedConfig")) {
      rewrite(
          ApiVersions.BOOTSTRAP,
          "OpenshiftAssistedConfig",
          ClusterScenario.name(config),
          c -> {
            c.getMetadata().setFinalizers(List.of(GoProvider.CONFIG_FINALIZER));
            remove(c.getMetadata().getAnnotations(), UpToDate.CONFIG_HASH_ANNOTATION, PROPAGATED);
          });
      rewriteStatus(
          ApiVersions.BOOTSTRAP,
          "OpenshiftAssistedConfig",
          ClusterScenario.name(config),
          GoProviderState::configStatus);
    }
    for (GenericKubernetesResource machine : cluster.machines()) {
      rewrite(
          ApiVersions.CAPI,
          "Machine",
          ClusterScenario.name(machine),
          m -> {
            remove(m.getMetadata().getAnnotations(), PROPAGATED, PRE_TERMINATE_HOOK);
            annotations(m).put(ROLE_ANNOTATION, "master");
          });
    }
    for (GenericKubernetesResource infra :
        cluster.list(ApiVersions.METAL3_INFRASTRUCTURE, "Metal3Machine")) {
      rewrite(
          ApiVersions.METAL3_INFRASTRUCTURE,
          "Metal3Machine",
          ClusterScenario.name(infra),
          m -> remove(m.getMetadata().getAnnotations(), PROPAGATED));
    }
    for (GenericKubernetesResource infraEnv : cluster.list(ApiVersions.AGENT_INSTALL, "InfraEnv")) {
      rewriteInfraEnv(ClusterScenario.name(infraEnv));
    }
    for (GenericKubernetesResource agent : cluster.list(ApiVersions.AGENT_INSTALL, "Agent")) {
      rewrite(
          ApiVersions.AGENT_INSTALL,
          "Agent",
          ClusterScenario.name(agent),
          a -> {
            remove(
                a.getMetadata().getLabels(), ExternalKinds.CLUSTER_NAME_LABEL, Names.CONFIG_LABEL);
            remove(a.getMetadata().getAnnotations(), Names.NOT_APPROVED_ANNOTATION);
          });
    }
    for (GenericKubernetesResource config :
        cluster.list(ApiVersions.BOOTSTRAP, "OpenshiftAssistedConfig")) {
      String secret = string(config, "status", "dataSecretName");
      if (secret != null) {
        rewrite("v1", "Secret", secret, s -> s.getMetadata().setLabels(null));
      }
    }
    Map<String, String> controlPlaneLabels =
        Map.of(
            ExternalKinds.CONTROL_PLANE_LABEL,
            "",
            ExternalKinds.CONTROL_PLANE_NAME_LABEL,
            controlPlane);
    rewrite(
        ApiVersions.HIVE,
        "ClusterDeployment",
        controlPlane,
        cd -> labels(cd).putAll(controlPlaneLabels));
    clusterImageSetAndInstall(controlPlaneLabels);
  }

  /**
   * The Go provider's ClusterImageSet, named by the AgentClusterInstall; ours deleted once nothing
   * names it.
   */
  private void clusterImageSetAndInstall(Map<String, String> controlPlaneLabels) {
    ourClusterImageSet =
        string(
            cluster.get(ApiVersions.HIVE_EXTENSION, "AgentClusterInstall", controlPlane),
            "spec",
            "imageSetRef",
            "name");
    GenericKubernetesResource oursSet =
        hub.genericKubernetesResources(ApiVersions.HIVE, "ClusterImageSet")
            .withName(ourClusterImageSet)
            .get();
    GenericKubernetesResource goSet = new GenericKubernetesResource();
    goSet.setApiVersion(ApiVersions.HIVE);
    goSet.setKind("ClusterImageSet");
    goSet.setMetadata(new ObjectMetaBuilder().withName(clusterImageSet()).build());
    goSet.setAdditionalProperty(
        "spec", Map.of("releaseImage", string(oursSet, "spec", "releaseImage")));
    hub.resource(goSet).create();
    rewrite(
        ApiVersions.HIVE_EXTENSION,
        "AgentClusterInstall",
        controlPlane,
        aci -> {
          labels(aci).putAll(controlPlaneLabels);
          spec(aci).put("imageSetRef", Map.of("name", clusterImageSet()));
        });
    hub.resource(oursSet).delete();
  }

  private void rewriteInfraEnv(String name) {
    rewrite(
        ApiVersions.AGENT_INSTALL,
        "InfraEnv",
        name,
        infraEnv -> {
          remove(
              infraEnv.getMetadata().getAnnotations(),
              Names.BOOT_MODE_ANNOTATION,
              Names.APPROVED_AGENT_ANNOTATION);
          spec(infraEnv).remove("agentLabels");
          List<OwnerReference> goOwners = new ArrayList<>();
          for (OwnerReference owner : infraEnv.getMetadata().getOwnerReferences()) {
            if (owner.getKind().equals("OpenshiftAssistedConfig")
                || owner.getKind().equals("Machine")) {
              owner.setController(null);
              owner.setBlockOwnerDeletion(null);
              goOwners.add(owner);
            }
          }
          infraEnv.getMetadata().setOwnerReferences(goOwners);
        });
  }

  private static Map<String, Object> controlPlaneStatus(Map<String, Object> ours) {
    Map<String, Object> status = new LinkedHashMap<>();
    for (String field :
        List.of(
            "initialization",
            "replicas",
            "readyReplicas",
            "availableReplicas",
            "upToDateReplicas",
            "version",
            "distributionVersion",
            "observedGeneration")) {
      if (ours.containsKey(field)) {
        status.put(field, ours.get(field));
      }
    }
    List<Map<String, Object>> conditions = new ArrayList<>();
    for (String type :
        List.of(
            "Available",
            "KubeconfigAvailable",
            "KubernetesVersionAvailable",
            "MachinesCreated",
            "MachinesReady",
            "UpgradeCompleted",
            "Ready")) {
      conditions.add(Fields.condition(type, true, type, ""));
    }
    status.put("conditions", conditions);
    return status;
  }

  private static Map<String, Object> configStatus(Map<String, Object> ours) {
    Map<String, Object> status = new LinkedHashMap<>();
    for (String field : List.of("initialization", "dataSecretName", "observedGeneration")) {
      if (ours.containsKey(field)) {
        status.put(field, ours.get(field));
      }
    }
    return status;
  }

  // ---- writing ----

  /** Reads, edits and replaces the object, again on a conflict with another writer. */
  private void rewrite(
      String apiVersion, String kind, String name, Consumer<GenericKubernetesResource> edit) {
    for (int attempt = 0; ; attempt++) {
      GenericKubernetesResource object = resource(apiVersion, kind, name);
      edit.accept(object);
      try {
        hub.resource(object).update();
        return;
      } catch (KubernetesClientException e) {
        if (e.getCode() != 409 || attempt > 20) {
          throw e;
        }
      }
    }
  }

  /** As {@link #rewrite}, for the status: {@code status} gets what {@code edit} makes of it. */
  private void rewriteStatus(
      String apiVersion,
      String kind,
      String name,
      java.util.function.UnaryOperator<Map<String, Object>> edit) {
    for (int attempt = 0; ; attempt++) {
      GenericKubernetesResource object = resource(apiVersion, kind, name);
      @SuppressWarnings("unchecked")
      Map<String, Object> status = (Map<String, Object>) get(object, "status");
      object.setAdditionalProperty("status", edit.apply(status == null ? Map.of() : status));
      try {
        hub.resource(object).subresource("status").update();
        return;
      } catch (KubernetesClientException e) {
        if (e.getCode() != 409 || attempt > 20) {
          throw e;
        }
      }
    }
  }

  private GenericKubernetesResource resource(String apiVersion, String kind, String name) {
    GenericKubernetesResource object =
        hub.genericKubernetesResources(apiVersion, kind)
            .inNamespace(cluster.namespace())
            .withName(name)
            .get();
    if (object == null) {
      throw new IllegalStateException(kind + " " + name + " not found");
    }
    return object;
  }

  private static void remove(Map<String, String> map, String... keys) {
    if (map != null) {
      for (String key : keys) {
        map.remove(key);
      }
    }
  }

  private static Map<String, String> labels(HasMetadata object) {
    ObjectMeta metadata = object.getMetadata();
    if (metadata.getLabels() == null) {
      metadata.setLabels(new HashMap<>());
    }
    return metadata.getLabels();
  }

  private static Map<String, String> annotations(HasMetadata object) {
    ObjectMeta metadata = object.getMetadata();
    if (metadata.getAnnotations() == null) {
      metadata.setAnnotations(new HashMap<>());
    }
    return metadata.getAnnotations();
  }

  @SuppressWarnings("unchecked")
  private static Map<String, Object> spec(GenericKubernetesResource object) {
    Map<String, Object> spec = new LinkedHashMap<>((Map<String, Object>) get(object, "spec"));
    object.setAdditionalProperty("spec", spec);
    return spec;
  }
}
