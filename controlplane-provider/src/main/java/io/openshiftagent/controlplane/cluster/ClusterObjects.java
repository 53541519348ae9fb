package io.openshiftagent.controlplane.cluster;

import static io.openshiftagent.controlplane.names.ControlPlaneConditions.CLUSTER_DEPLOYMENT_FROZEN;
import static io.openshiftagent.controlplane.names.ControlPlaneConditions.CLUSTER_INSTALL_CONFIGURED;
import static io.openshiftagent.controlplane.names.ControlPlaneConditions.CLUSTER_INSTALL_REFUSED;
import static io.openshiftagent.controlplane.names.ControlPlaneConditions.CONFIGURED;
import static io.openshiftagent.controlplane.names.ControlPlaneConditions.IMAGE_REGISTRY_CONFIG_INVALID;
import static io.openshiftagent.controlplane.names.ControlPlaneConditions.INSTALLATION_STARTED;
import static io.openshiftagent.controlplane.names.ControlPlaneConditions.INSTALL_CONFIG_OVERRIDE_INVALID;
import static io.openshiftagent.controlplane.names.ControlPlaneConditions.WAITING_FOR_HOST_INVENTORY;

import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.openshiftagent.api.controlplane.v1alpha3.OpenshiftAssistedControlPlane;
import io.openshiftagent.api.external.assisted.AgentClusterInstall;
import io.openshiftagent.api.external.assisted.AgentClusterInstallSpec;
import io.openshiftagent.controlplane.names.ConditionUpdate;
import io.openshiftagent.controlplane.names.Names;
import io.openshiftagent.controlplane.release.ReleaseImageResolution;
import io.openshiftagent.controlplane.scope.ControlPlaneScope;
import io.openshiftagent.provider.reconcile.Futures;
import io.openshiftagent.provider.reconcile.Metadata;
import io.openshiftagent.provider.reconcile.Refusal;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;
import java.util.function.Supplier;

/**
 * The objects that describe the cluster to assisted-service, kept in step with the spec: the
 * ClusterImageSet ({@link ClusterImageSets}), the mirror-registry manifests, the ClusterDeployment
 * and the AgentClusterInstall ({@link ClusterObjectWrites}). What it found is the {@code
 * ClusterInstallConfigured} condition it returns; when the spec cannot be used, that says why and
 * the AgentClusterInstall is left as it is.
 */
public final class ClusterObjects {
  /**
   * assisted-service's AgentClusterInstall condition for the spec, and its reason for bad input.
   */
  private static final String SPEC_SYNCED = "SpecSynced";

  private static final String INPUT_ERROR = "InputError";

  private final ClusterImageSets imageSets;
  private final ClusterObjectWrites writes;
  private final Executor writers;

  /**
   * @param writers where writes that do not depend on each other are made at once
   */
  public ClusterObjects(KubernetesClient client, Executor writers) {
    this.imageSets = new ClusterImageSets(client);
    this.writes = new ClusterObjectWrites(client);
    this.writers = writers;
  }

  /**
   * What the objects say: the AgentClusterInstall made now (the phases after it, and the report,
   * know it before the cache does), the {@code ClusterInstallConfigured} condition, and the
   * ClusterImageSet being made.
   */
  public record Described(
      Optional<AgentClusterInstall> created,
      ConditionUpdate configured,
      Optional<ClusterImageSets.Making> imageSet) {}

  /**
   * The writes made: the scope as the writes made at once left it, and those still under way. A new
   * cluster's ClusterDeployment and AgentClusterInstall are created while the reconcile goes on to
   * the Machines (neither needs the other); {@link #await} waits for them and tells what they made,
   * or that the API server refused them.
   */
  public record Started(ControlPlaneScope scope, Supplier<Described> pending) {
    public Described await() {
      return pending.get();
    }
  }

  /**
   * Brings the objects in step with the spec.
   *
   * @param release the release image to install, or why there is none yet: then the ClusterImageSet
   *     is neither made nor changed, and the ClusterDeployment and AgentClusterInstall are not made
   *     (assisted-service could not install without it), but kept in step if they exist
   * @param imageSet the set this process is making or made for the control plane
   */
  public Started describe(
      ControlPlaneScope scope,
      ReleaseImageResolution.Outcome release,
      Optional<ClusterImageSets.Making> imageSet) {
    try {
      Started started = describeCluster(scope, release, imageSet);
      return new Started(
          started.scope(),
          () -> {
            try {
              return started.await();
            } catch (KubernetesClientException e) {
              return new Described(Optional.empty(), refused(e), imageSet);
            } catch (ClusterObjectWrites.NotOurs e) {
              return new Described(Optional.empty(), inTheWay(e), imageSet);
            }
          });
    } catch (KubernetesClientException e) {
      Described refused = new Described(Optional.empty(), refused(e), imageSet);
      return new Started(scope, () -> refused);
    } catch (ClusterObjectWrites.NotOurs e) {
      Described inTheWay = new Described(Optional.empty(), inTheWay(e), imageSet);
      return new Started(scope, () -> inTheWay);
    }
  }

  private static ConditionUpdate inTheWay(ClusterObjectWrites.NotOurs e) {
    return notConfigured(e.reason(), e.getMessage());
  }

  /**
   * What can be made before the Cluster's infrastructure is provisioned: the ClusterImageSet of a
   * resolved release (it names nothing of the infrastructure), in the background, so that the
   * reconcile the provisioned infrastructure brings does not wait behind this one. That reconcile
   * waits for it instead, before the AgentClusterInstall names it; a refusal is reported there.
   *
   * @return the set being made, or {@code imageSet} as it was
   */
  public Optional<ClusterImageSets.Making> prepare(
      ControlPlaneScope scope,
      ReleaseImageResolution.Outcome release,
      Optional<ClusterImageSets.Making> imageSet) {
    if (release instanceof ReleaseImageResolution.Use use) {
      return Optional.of(imageSets.ensure(scope, use.image(), writers, imageSet));
    }
    return imageSet;
  }

  private static ConditionUpdate refused(KubernetesClientException e) {
    Optional<String> refusal = Refusal.of(e);
    if (refusal.isEmpty()) {
      throw e;
    }
    // E.g. a value our CRD admits that the installed assisted-service's CRD does not know.
    return notConfigured(
        CLUSTER_INSTALL_REFUSED,
        "the API server refused the objects that describe the cluster: " + refusal.get());
  }

  private Started describeCluster(
      ControlPlaneScope scope,
      ReleaseImageResolution.Outcome release,
      Optional<ClusterImageSets.Making> known) {
    OpenshiftAssistedControlPlane cp = scope.cp();
    Optional<ClusterImageSets.Making> making = known;
    String imageSet;
    if (release instanceof ReleaseImageResolution.Use use) {
      making = Optional.of(imageSets.ensure(scope, use.image(), Runnable::run, known));
      imageSet = Futures.join(making.get().done());
    } else if (scope.clusterInstall().isPresent()) {
      imageSet = Names.clusterImageSet(cp); // as it is, until the new release is resolved
    } else {
      ReleaseImageResolution.Wait wait = (ReleaseImageResolution.Wait) release;
      return done(scope, Optional.empty(), notConfigured(wait.reason(), wait.message()), making);
    }
    String registryConfigMap = null;
    if (cp.getSpec().config.imageRegistryRef != null) {
      Optional<String> problem = writes.registryConfigMap(scope);
      if (problem.isPresent()) {
        return done(
            scope,
            Optional.empty(),
            notConfigured(IMAGE_REGISTRY_CONFIG_INVALID, problem.get()),
            making);
      }
      registryConfigMap = Names.registryConfigMap(cp);
    }
    InstallConfigOverrides.Result overrides =
        InstallConfigOverrides.compute(
            cp.getSpec().config.capabilities,
            DesiredClusterInstall.isBareMetal(cp.getSpec().config),
            Metadata.annotation(cp, InstallConfigOverrides.OVERRIDE_ANNOTATION));
    if (overrides instanceof InstallConfigOverrides.Invalid invalid) {
      return done(
          scope,
          Optional.empty(),
          notConfigured(INSTALL_CONFIG_OVERRIDE_INVALID, invalid.message()),
          making);
    }
    Optional<String> overridesJson = ((InstallConfigOverrides.Valid) overrides).json();
    AgentClusterInstallSpec desired =
        DesiredClusterInstall.spec(
            cp,
            scope.cluster(),
            DayOneWorkers.count(cp, scope.machineDeployments(), scope.workerConfigTemplates()),
            imageSet,
            registryConfigMap);
    Optional<ClusterImageSets.Making> set = making;
    if (scope.clusterInstall().isEmpty() && scope.clusterDeployment().isEmpty()) {
      // A new cluster: made while the Machines are. The ClusterDeployment first: assisted-service
      // refuses an AgentClusterInstall whose ClusterDeployment it cannot find (SpecSynced False,
      // InputError, "ClusterDeployment ... not found") when both are created at once.
      ClusterDeploymentChanges.Desired deployment = writes.desiredDeployment(scope);
      CompletableFuture<AgentClusterInstall> install =
          CompletableFuture.runAsync(
                  () -> writes.createClusterDeployment(scope, deployment), writers)
              .thenApply(deployed -> writes.createClusterInstall(scope, desired, overridesJson));
      ConditionUpdate configured = configured(scope, release, List.of());
      return new Started(
          scope, () -> new Described(Optional.of(Futures.join(install)), configured, set));
    }
    ClusterDeploymentChanges.Desired deployment = writes.desiredDeployment(scope);
    List<String> frozen = List.of();
    if (scope.clusterDeployment().isEmpty()) {
      writes.createClusterDeployment(scope, deployment);
    } else {
      frozen = writes.updateClusterDeployment(scope, scope.clusterDeployment().get(), deployment);
    }
    Optional<AgentClusterInstall> created = Optional.empty();
    if (scope.clusterInstall().isEmpty()) {
      created = Optional.of(writes.createClusterInstall(scope, desired, overridesJson));
    } else if (!scope.installationStarted()) {
      writes.updateClusterInstall(scope.clusterInstall().get(), desired, overridesJson);
    }
    ControlPlaneScope written = created.map(scope::withClusterInstall).orElse(scope);
    return done(written, created, configured(written, release, frozen), making);
  }

  /** The {@code ClusterInstallConfigured} condition once the objects are written. */
  private static ConditionUpdate configured(
      ControlPlaneScope scope, ReleaseImageResolution.Outcome release, List<String> frozen) {
    String name = Names.clusterDeployment(scope.cp());
    Optional<String> refused =
        scope.installationStarted()
            ? Optional.empty()
            : scope.clusterInstall().flatMap(ClusterObjects::inputError);
    if (release instanceof ReleaseImageResolution.Wait wait && !scope.installationStarted()) {
      return notConfigured(wait.reason(), wait.message());
    } else if (!frozen.isEmpty()) {
      return notConfigured(
          CLUSTER_DEPLOYMENT_FROZEN,
          "the cluster is installed and Hive does not let its ClusterDeployment "
              + name
              + " change: "
              + String.join("; ", frozen)
              + ". Set the spec back to what the cluster has");
    } else if (refused.filter(ClusterObjects::awaitsHostInventory).isPresent()) {
      return notConfigured(
          WAITING_FOR_HOST_INVENTORY,
          "assisted-service applies the install-config overrides of AgentClusterInstall "
              + name
              + " once every host bound to it has reported its inventory; until then it says: "
              + refused.get());
    } else if (refused.isPresent()) {
      return notConfigured(
          CLUSTER_INSTALL_REFUSED,
          "assisted-service refused AgentClusterInstall " + name + ": " + refused.get());
    } else if (scope.installationStarted()) {
      return ConditionUpdate.isTrue(
          CLUSTER_INSTALL_CONFIGURED,
          INSTALLATION_STARTED,
          "the installation has started: assisted-service no longer accepts changes to the"
              + " AgentClusterInstall, so later changes of spec.config do not reach it");
    }
    return ConditionUpdate.isTrue(
        CLUSTER_INSTALL_CONFIGURED,
        CONFIGURED,
        "ClusterDeployment and AgentClusterInstall " + name + " match the spec");
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

  /**
   * Whether a refusal comes from the step where assisted-service adds the platform to the
   * install-config it checks the overrides against. That step reads the bound hosts' inventories,
   * never the spec: it fails while a host has registered but not yet reported its inventory, and
   * passes once it has.
   */
  static boolean awaitsHostInventory(String refusal) {
    // "Platfom" is assisted-service's spelling.
    return refusal.contains("error while adding Platfom");
  }

  private static ConditionUpdate notConfigured(String reason, String message) {
    return ConditionUpdate.isFalse(CLUSTER_INSTALL_CONFIGURED, reason, message);
  }

  private static Started done(
      ControlPlaneScope scope,
      Optional<AgentClusterInstall> created,
      ConditionUpdate configured,
      Optional<ClusterImageSets.Making> set) {
    Described described = new Described(created, configured, set);
    return new Started(scope, () -> described);
  }
}
