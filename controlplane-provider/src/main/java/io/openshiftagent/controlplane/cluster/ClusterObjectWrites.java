package io.openshiftagent.controlplane.cluster;

import static io.openshiftagent.controlplane.names.ControlPlaneConditions.CLUSTER_DEPLOYMENT_NOT_OURS;
import static io.openshiftagent.controlplane.names.ControlPlaneConditions.CLUSTER_INSTALL_NOT_OURS;

import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.LabelSelector;
import io.fabric8.kubernetes.api.model.LocalObjectReference;
import io.fabric8.kubernetes.api.model.ObjectMeta;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.openshiftagent.api.controlplane.v1alpha3.ClusterConfig;
import io.openshiftagent.api.controlplane.v1alpha3.OpenshiftAssistedControlPlane;
import io.openshiftagent.api.external.ExternalKinds;
import io.openshiftagent.api.external.OwnedFieldsPatch;
import io.openshiftagent.api.external.assisted.AgentClusterInstall;
import io.openshiftagent.api.external.assisted.AgentClusterInstallSpec;
import io.openshiftagent.api.external.hive.ClusterDeployment;
import io.openshiftagent.api.external.hive.ClusterDeploymentSpec;
import io.openshiftagent.controlplane.names.Names;
import io.openshiftagent.controlplane.scope.ControlPlaneScope;
import io.openshiftagent.provider.contract.GoProvider;
import io.openshiftagent.provider.contract.Kinds;
import io.openshiftagent.provider.contract.PlaceholderPullSecret;
import io.openshiftagent.provider.reconcile.OwnerReferences;
import io.openshiftagent.provider.reconcile.Writes;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The writes of the objects that describe the cluster to assisted-service: the mirror-registry
 * manifests, the placeholder pull secret, the ClusterDeployment and the AgentClusterInstall. Each
 * returns what it made or what it could not change.
 */
final class ClusterObjectWrites {
  static final String ACI_CONSUMER_LABEL =
      "agentclusterinstalls.agent-install.openshift.io/consumer";

  private final KubernetesClient client;

  ClusterObjectWrites(KubernetesClient client) {
    this.client = client;
  }

  /** Writes the mirror-registry manifests; returns the problem when the input is unusable. */
  Optional<String> registryConfigMap(ControlPlaneScope scope) {
    OpenshiftAssistedControlPlane cp = scope.cp();
    String source = cp.getSpec().config.imageRegistryRef.name;
    ConfigMap input = scope.configMap(source).orElse(null);
    if (input == null) {
      return Optional.of(
          "ConfigMap " + source + " (spec.config.imageRegistryRef) not found; create it");
    }
    Map<String, String> data;
    try {
      Map<String, String> in = input.getData() == null ? Map.of() : input.getData();
      data =
          MirrorRegistryManifests.generate(
              in.get(Names.REGISTRIES_CONF_KEY), in.get(Names.CA_BUNDLE_KEY));
    } catch (IllegalArgumentException e) {
      return Optional.of(
          "ConfigMap " + source + " (spec.config.imageRegistryRef): " + e.getMessage());
    }
    String name = Names.registryConfigMap(cp);
    ConfigMap existing = scope.configMap(name).orElse(null);
    if (existing == null) {
      client
          .resource(
              new ConfigMapBuilder()
                  .withMetadata(ownedMetadata(scope, name))
                  .withData(data)
                  .build())
          .create();
    } else if (!data.equals(existing.getData())) {
      existing.setData(data);
      client.resource(existing).update();
    }
    return Optional.empty();
  }

  /** What the ClusterDeployment says; makes the placeholder pull secret it names, if needed. */
  ClusterDeploymentChanges.Desired desiredDeployment(ControlPlaneScope scope) {
    OpenshiftAssistedControlPlane cp = scope.cp();
    ClusterConfig config = cp.getSpec().config;
    return new ClusterDeploymentChanges.Desired(
        config.effectiveClusterName(scope.clusterName()),
        config.baseDomain,
        pullSecretName(scope),
        new ClusterDeploymentSpec.ClusterInstallLocalReference(
            ExternalKinds.HIVE_EXTENSION_GROUP,
            ExternalKinds.HIVE_EXTENSION_VERSION,
            Kinds.AGENT_CLUSTER_INSTALL,
            Names.clusterDeployment(cp)));
  }

  private String pullSecretName(ControlPlaneScope scope) {
    ClusterConfig config = scope.cp().getSpec().config;
    if (config.pullSecretRef != null) {
      return config.pullSecretRef.name;
    }
    // No pull secret given (OKD): reference one of ours, without writing it into the user's spec;
    // a cluster the Go provider made keeps its placeholder, which an installed one cannot leave.
    boolean goPlaceholder =
        scope
            .clusterDeployment()
            .map(ClusterDeployment::getSpec)
            .map(spec -> spec.pullSecretRef)
            .filter(ref -> GoProvider.PLACEHOLDER_PULL_SECRET.equals(ref.getName()))
            .isPresent();
    if (goPlaceholder) {
      return GoProvider.PLACEHOLDER_PULL_SECRET;
    }
    String name = Names.placeholderPullSecret(scope.cp());
    Writes.create(client, PlaceholderPullSecret.build(ownedMetadata(scope, name)));
    return name;
  }

  /**
   * Brings the existing ClusterDeployment in step with the spec until the installation starts.
   *
   * @return what the spec asks that the installed cluster's ClusterDeployment can no longer take
   */
  List<String> updateClusterDeployment(
      ControlPlaneScope scope,
      ClusterDeployment existing,
      ClusterDeploymentChanges.Desired desired) {
    ClusterDeploymentChanges changes = ClusterDeploymentChanges.of(existing.getSpec(), desired);
    boolean installed =
        existing.getSpec() != null && Boolean.TRUE.equals(existing.getSpec().installed);
    if (installed || scope.installationStarted()) {
      return changes.differences(); // Hive freezes it; assisted-service no longer follows
    }
    if (!changes.patch().isEmpty()) {
      // A hub whose Hive admits no change at all refuses this: reported as a refusal.
      changes.patch().applyTo(client, existing);
    }
    return List.of();
  }

  void createClusterDeployment(ControlPlaneScope scope, ClusterDeploymentChanges.Desired desired) {
    OpenshiftAssistedControlPlane cp = scope.cp();
    ClusterDeployment cd = new ClusterDeployment();
    cd.setMetadata(
        new ObjectMetaBuilder()
            .withName(Names.clusterDeployment(cp))
            .withNamespace(scope.namespace())
            .addToLabels(Names.ownLabels(scope.cp(), scope.clusterName()))
            .withOwnerReferences(OwnerReferences.plain(cp))
            .build());
    ClusterDeploymentSpec spec = new ClusterDeploymentSpec();
    spec.clusterName = desired.clusterName();
    spec.baseDomain = desired.baseDomain();
    spec.platform = new ClusterDeploymentSpec.Platform();
    spec.platform.agentBareMetal = new ClusterDeploymentSpec.AgentBareMetal();
    spec.platform.agentBareMetal.agentSelector = new LabelSelector();
    spec.pullSecretRef = new LocalObjectReference(desired.pullSecretName());
    spec.clusterInstallRef = desired.installRef();
    cd.setSpec(spec);
    if (Writes.create(client, cd).isEmpty()) {
      // A retried request whose first attempt was stored, or one of that name someone else made.
      existing(ClusterDeployment.class, scope, cd, CLUSTER_DEPLOYMENT_NOT_OURS);
    }
  }

  AgentClusterInstall createClusterInstall(
      ControlPlaneScope scope, AgentClusterInstallSpec desired, Optional<String> overrides) {
    AgentClusterInstall aci = new AgentClusterInstall();
    ObjectMetaBuilder metadata =
        new ObjectMetaBuilder()
            .withName(Names.clusterDeployment(scope.cp()))
            .withNamespace(scope.namespace())
            .addToLabels(Names.ownLabels(scope.cp(), scope.clusterName()))
            .addToLabels(ACI_CONSUMER_LABEL, Kinds.OPENSHIFT_ASSISTED_CONTROL_PLANE)
            .withOwnerReferences(OwnerReferences.plain(scope.cp()));
    overrides.ifPresent(
        json -> metadata.addToAnnotations(InstallConfigOverrides.ACI_ANNOTATION, json));
    aci.setMetadata(metadata.build());
    aci.setSpec(desired);
    return Writes.create(client, aci)
        .orElseGet(() -> existing(AgentClusterInstall.class, scope, aci, CLUSTER_INSTALL_NOT_OURS));
  }

  /**
   * An object of that name that exists already, outside our cache: it is used if it is the control
   * plane's, and never used, changed or deleted otherwise. Read by listing, as the provider may
   * list these kinds but not get them.
   *
   * @throws NotOurs when it is someone else's
   */
  private <T extends HasMetadata> T existing(
      Class<T> kind, ControlPlaneScope scope, T desired, String notOurs) {
    String name = desired.getMetadata().getName();
    Optional<T> found =
        client
            .resources(kind)
            .inNamespace(scope.namespace())
            .withField("metadata.name", name)
            .list()
            .getItems()
            .stream()
            .findFirst();
    if (found.isPresent() && OwnerReferences.isOwnedBy(found.get(), scope.cp())) {
      return found.get();
    }
    if (found.isEmpty()) {
      // Gone again since the conflict: made at the next reconcile.
      throw new KubernetesClientException(desired.getKind() + " " + name + " changed meanwhile");
    }
    throw new NotOurs(
        notOurs,
        desired.getKind()
            + " "
            + name
            + " exists and does not belong to this control plane (no owner reference to it): it"
            + " is left as it is; rename or delete it");
  }

  /**
   * An object in the way: one of the name the control plane needs, that someone else made. Thrown,
   * as the writes of a new cluster run in the background; reported as a condition.
   */
  static final class NotOurs extends RuntimeException {
    private final String reason;

    NotOurs(String reason, String message) {
      super(message, null, false, false);
      this.reason = reason;
    }

    String reason() {
      return reason;
    }
  }

  /** Patches the fields we own when they differ; assisted-service's own fields stay untouched. */
  void updateClusterInstall(
      AgentClusterInstall current, AgentClusterInstallSpec desired, Optional<String> overrides) {
    OwnedFieldsPatch patch = ClusterInstallPatch.of(current, desired, overrides);
    if (!patch.isEmpty()) {
      patch.applyTo(client, current);
    }
  }

  /** Metadata of what we own outright: controller reference and cluster-name label. */
  static ObjectMeta ownedMetadata(ControlPlaneScope scope, String name) {
    return new ObjectMetaBuilder()
        .withName(name)
        .withNamespace(scope.namespace())
        .addToLabels(Names.ownLabels(scope.cp(), scope.clusterName()))
        .withOwnerReferences(OwnerReferences.controller(scope.cp()))
        .build();
  }
}
