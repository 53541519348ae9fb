package io.openshiftagent.controlplane.cluster;

import static io.openshiftagent.controlplane.status.ControlPlaneConditions.CLUSTER_DEPLOYMENT_FROZEN;
import static io.openshiftagent.controlplane.status.ControlPlaneConditions.CLUSTER_INSTALL_CONFIGURED;
import static io.openshiftagent.controlplane.status.ControlPlaneConditions.CLUSTER_INSTALL_REFUSED;
import static io.openshiftagent.controlplane.status.ControlPlaneConditions.CONFIGURED;
import static io.openshiftagent.controlplane.status.ControlPlaneConditions.IMAGE_REGISTRY_CONFIG_INVALID;
import static io.openshiftagent.controlplane.status.ControlPlaneConditions.INSTALLATION_STARTED;
import static io.openshiftagent.controlplane.status.ControlPlaneConditions.INSTALL_CONFIG_OVERRIDE_INVALID;

import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
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
import io.openshiftagent.controlplane.ControlPlaneScope;
import io.openshiftagent.controlplane.Names;
import io.openshiftagent.controlplane.release.ReleaseImageResolution;
import io.openshiftagent.controlplane.status.ControlPlaneStatus;
import io.openshiftagent.provider.contract.GoProvider;
import io.openshiftagent.provider.contract.Kinds;
import io.openshiftagent.provider.contract.PlaceholderPullSecret;
import io.openshiftagent.provider.reconcile.Futures;
import io.openshiftagent.provider.reconcile.Metadata;
import io.openshiftagent.provider.reconcile.OwnerReferences;
import io.openshiftagent.provider.reconcile.Refusal;
import io.openshiftagent.provider.reconcile.Writes;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;

/**
 * The objects that describe the cluster to assisted-service: ClusterImageSet ({@link
 * ClusterImageSets}), mirror-registry manifests, ClusterDeployment and AgentClusterInstall.
 *
 * <p>Over 350 lines: the manifests, the deployment and the install are built and written together
 * because each names the others (the manifests ConfigMap, the install's ref to the deployment);
 * split, their naming rules would be read in two places.
 */
public final class ClusterObjects {
  /**
   * assisted-service's AgentClusterInstall condition for the spec, and its reason for bad input.
   */
  private static final String SPEC_SYNCED = "SpecSynced";

  private static final String INPUT_ERROR = "InputError";

  static final String ACI_CONSUMER_LABEL =
      "agentclusterinstalls.agent-install.openshift.io/consumer";

  private final KubernetesClient client;

  private final ClusterImageSets imageSets;

  private final Executor writers;

  /**
   * @param writers where writes that do not depend on each other are made at once
   */
  public ClusterObjects(KubernetesClient client, Executor writers) {
    this.client = client;
    this.imageSets = new ClusterImageSets(client);
    this.writers = writers;
  }

  /**
   * What {@link #reconcile} left under way: a new cluster's ClusterDeployment and
   * AgentClusterInstall are created while the reconcile goes on to the Machines (neither needs the
   * other); {@link #await} waits for them, tells the scope and reports a refusal.
   */
  @FunctionalInterface
  public interface InFlight {
    InFlight NONE = () -> {};

    void await();
  }

  /**
   * Brings the objects in step with the spec; when the spec cannot be used, a condition says why
   * and the AgentClusterInstall is left as it is.
   *
   * @param release the release image to install, or why there is none yet: then the ClusterImageSet
   *     is neither made nor changed, and the ClusterDeployment and AgentClusterInstall are not made
   *     (assisted-service could not install without it), but kept in step if they exist
   */
  public InFlight reconcile(
      ControlPlaneScope scope, ControlPlaneStatus status, ReleaseImageResolution.Outcome release) {
    try {
      InFlight creations = describeCluster(scope, status, release);
      return () -> {
        try {
          creations.await();
        } catch (KubernetesClientException e) {
          refused(status, e);
        }
      };
    } catch (KubernetesClientException e) {
      refused(status, e);
      return InFlight.NONE;
    }
  }

  private static void refused(ControlPlaneStatus status, KubernetesClientException e) {
    Optional<String> refusal = Refusal.of(e);
    if (refusal.isEmpty()) {
      throw e;
    }
    // E.g. a value our CRD admits that the installed assisted-service's CRD does not know.
    status.setFalse(
        CLUSTER_INSTALL_CONFIGURED,
        CLUSTER_INSTALL_REFUSED,
        "the API server refused the objects that describe the cluster: " + refusal.get());
  }

  /**
   * What can be made before the Cluster's infrastructure is provisioned: the ClusterImageSet of a
   * resolved release (it names nothing of the infrastructure), in the background, so that the
   * reconcile the provisioned infrastructure brings does not wait behind this one. That reconcile
   * waits for it instead, before the AgentClusterInstall names it; a refusal is reported there.
   */
  public void prepare(ControlPlaneScope scope, ReleaseImageResolution.Outcome release) {
    if (release instanceof ReleaseImageResolution.Use use) {
      imageSets.ensure(scope, use.image(), writers);
    }
  }

  /** {@code cp} is gone. */
  public void forget(OpenshiftAssistedControlPlane cp) {
    imageSets.forget(cp);
  }

  private InFlight describeCluster(
      ControlPlaneScope scope, ControlPlaneStatus status, ReleaseImageResolution.Outcome release) {
    OpenshiftAssistedControlPlane cp = scope.cp();
    ClusterConfig config = cp.getSpec().config;
    String imageSet;
    if (release instanceof ReleaseImageResolution.Use use) {
      imageSet = Futures.join(imageSets.ensure(scope, use.image(), Runnable::run));
    } else if (scope.clusterInstall().isPresent()) {
      imageSet = Names.clusterImageSet(cp); // as it is, until the new release is resolved
    } else {
      ReleaseImageResolution.Wait wait = (ReleaseImageResolution.Wait) release;
      status.setFalse(CLUSTER_INSTALL_CONFIGURED, wait.reason(), wait.message());
      return InFlight.NONE;
    }

    String registryConfigMap = null;
    if (config.imageRegistryRef != null) {
      Optional<String> problem = ensureRegistryConfigMap(scope);
      if (problem.isPresent()) {
        status.setFalse(CLUSTER_INSTALL_CONFIGURED, IMAGE_REGISTRY_CONFIG_INVALID, problem.get());
        return InFlight.NONE;
      }
      registryConfigMap = Names.registryConfigMap(cp);
    }

    InstallConfigOverrides.Result overrides =
        InstallConfigOverrides.compute(
            config.capabilities,
            DesiredClusterInstall.isBareMetal(config),
            Metadata.annotation(cp, InstallConfigOverrides.OVERRIDE_ANNOTATION));
    if (overrides instanceof InstallConfigOverrides.Invalid invalid) {
      status.setFalse(
          CLUSTER_INSTALL_CONFIGURED, INSTALL_CONFIG_OVERRIDE_INVALID, invalid.message());
      return InFlight.NONE;
    }
    Optional<String> overridesJson = ((InstallConfigOverrides.Valid) overrides).json();

    AgentClusterInstallSpec desired =
        DesiredClusterInstall.spec(
            cp,
            scope.cluster(),
            DayOneWorkers.count(
                cp, scope.machineDeployments(), scope::bootstrapTemplateAnnotations),
            imageSet,
            registryConfigMap);
    List<String> frozen = List.of();
    InFlight creations = InFlight.NONE;
    if (scope.clusterInstall().isEmpty() && scope.clusterDeployment().isEmpty()) {
      // A new cluster: made while the Machines are. The ClusterDeployment first: assisted-service
      // refuses an AgentClusterInstall whose ClusterDeployment it cannot find (SpecSynced False,
      // InputError, "ClusterDeployment ... not found"), seen when both were created at once.
      ClusterDeploymentChanges.Desired deploymentSpec = desiredDeployment(scope);
      CompletableFuture<AgentClusterInstall> install =
          CompletableFuture.runAsync(() -> createClusterDeployment(scope, deploymentSpec), writers)
              .thenApply(deployed -> createClusterInstall(scope, desired, overridesJson));
      creations = () -> scope.created(Futures.join(install));
    } else {
      frozen = ensureClusterDeployment(scope);
      if (scope.clusterInstall().isEmpty()) {
        scope.created(createClusterInstall(scope, desired, overridesJson));
      } else if (!scope.installationStarted()) {
        updateClusterInstall(scope.clusterInstall().get(), desired, overridesJson);
      }
    }
    Optional<String> refused =
        scope.installationStarted()
            ? Optional.empty()
            : scope.clusterInstall().flatMap(ClusterObjects::inputError);
    if (release instanceof ReleaseImageResolution.Wait wait && !scope.installationStarted()) {
      status.setFalse(CLUSTER_INSTALL_CONFIGURED, wait.reason(), wait.message());
    } else if (!frozen.isEmpty()) {
      status.setFalse(
          CLUSTER_INSTALL_CONFIGURED,
          CLUSTER_DEPLOYMENT_FROZEN,
          "the cluster is installed and Hive does not let its ClusterDeployment "
              + Names.clusterDeployment(cp)
              + " change: "
              + String.join("; ", frozen)
              + ". Set the spec back to what the cluster has");
    } else if (refused.isPresent()) {
      status.setFalse(
          CLUSTER_INSTALL_CONFIGURED,
          CLUSTER_INSTALL_REFUSED,
          "assisted-service refused AgentClusterInstall "
              + Names.clusterDeployment(cp)
              + ": "
              + refused.get());
    } else if (scope.installationStarted()) {
      status.setTrue(
          CLUSTER_INSTALL_CONFIGURED,
          INSTALLATION_STARTED,
          "the installation has started: assisted-service no longer accepts changes to the"
              + " AgentClusterInstall, so later changes of spec.config do not reach it");
    } else {
      status.setTrue(
          CLUSTER_INSTALL_CONFIGURED,
          CONFIGURED,
          "ClusterDeployment and AgentClusterInstall "
              + Names.clusterDeployment(cp)
              + " match the spec");
    }
    return creations;
  }

  /**
   * What assisted-service could not accept in the AgentClusterInstall's or ClusterDeployment's spec
   * (its {@code SpecSynced} condition False for an input error, e.g. a malformed SSH key), as it
   * says it; only the service can tell, and until the spec changes it will not install.
   */
  public static Optional<String> inputError(AgentClusterInstall install) {
    if (install.getStatus() == null || install.getStatus().conditions == null) {
      return Optional.empty();
    }
    return install.getStatus().conditions.stream()
        .filter(c -> SPEC_SYNCED.equals(c.getType()))
        .filter(c -> "False".equals(c.getStatus()) && INPUT_ERROR.equals(c.getReason()))
        .map(c -> c.getMessage() == null ? INPUT_ERROR : c.getMessage())
        .findFirst();
  }

  /** Writes the mirror-registry manifests; returns the problem when the input is unusable. */
  private Optional<String> ensureRegistryConfigMap(ControlPlaneScope scope) {
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
              in.get(MirrorRegistryManifests.REGISTRIES_CONF_KEY),
              in.get(MirrorRegistryManifests.CA_BUNDLE_KEY));
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

  /** Metadata of what we own outright: controller reference and cluster-name label. */
  private static ObjectMeta ownedMetadata(ControlPlaneScope scope, String name) {
    return new ObjectMetaBuilder()
        .withName(name)
        .withNamespace(scope.namespace())
        .addToLabels(scope.ownLabels())
        .withOwnerReferences(OwnerReferences.controller(scope.cp()))
        .build();
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
   * Creates the ClusterDeployment, or brings it in step with the spec until the installation
   * starts.
   *
   * @return what the spec asks that the installed cluster's ClusterDeployment can no longer take
   */
  private List<String> ensureClusterDeployment(ControlPlaneScope scope) {
    ClusterDeploymentChanges.Desired desired = desiredDeployment(scope);
    Optional<ClusterDeployment> existing = scope.clusterDeployment();
    if (existing.isEmpty()) {
      createClusterDeployment(scope, desired);
      return List.of();
    }
    ClusterDeploymentChanges changes =
        ClusterDeploymentChanges.of(existing.get().getSpec(), desired);
    boolean installed =
        existing.get().getSpec() != null && Boolean.TRUE.equals(existing.get().getSpec().installed);
    if (installed || scope.installationStarted()) {
      return changes.differences(); // Hive freezes it; assisted-service no longer follows
    }
    if (!changes.patch().isEmpty()) {
      // A hub whose Hive admits no change at all refuses this: reported as a refusal.
      changes.patch().applyTo(client, existing.get());
    }
    return List.of();
  }

  /** What the ClusterDeployment says; makes the placeholder pull secret it names, if needed. */
  private ClusterDeploymentChanges.Desired desiredDeployment(ControlPlaneScope scope) {
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

  private void createClusterDeployment(
      ControlPlaneScope scope, ClusterDeploymentChanges.Desired desired) {
    OpenshiftAssistedControlPlane cp = scope.cp();
    ClusterDeployment cd = new ClusterDeployment();
    cd.setMetadata(
        new ObjectMetaBuilder()
            .withName(Names.clusterDeployment(cp))
            .withNamespace(scope.namespace())
            .addToLabels(scope.ownLabels())
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
    client.resource(cd).create();
  }

  private AgentClusterInstall createClusterInstall(
      ControlPlaneScope scope, AgentClusterInstallSpec desired, Optional<String> overrides) {
    AgentClusterInstall aci = new AgentClusterInstall();
    ObjectMetaBuilder metadata =
        new ObjectMetaBuilder()
            .withName(Names.clusterDeployment(scope.cp()))
            .withNamespace(scope.namespace())
            .addToLabels(scope.ownLabels())
            .addToLabels(ACI_CONSUMER_LABEL, Kinds.OPENSHIFT_ASSISTED_CONTROL_PLANE)
            .withOwnerReferences(OwnerReferences.plain(scope.cp()));
    overrides.ifPresent(
        json -> metadata.addToAnnotations(InstallConfigOverrides.ACI_ANNOTATION, json));
    aci.setMetadata(metadata.build());
    aci.setSpec(desired);
    return client.resource(aci).create();
  }

  /** Patches the fields we own when they differ; assisted-service's own fields stay untouched. */
  private void updateClusterInstall(
      AgentClusterInstall current, AgentClusterInstallSpec desired, Optional<String> overrides) {
    OwnedFieldsPatch patch = ClusterInstallPatch.of(current, desired, overrides);
    if (!patch.isEmpty()) {
      patch.applyTo(client, current);
    }
  }
}
