package io.openshiftagent.controlplane.cluster;

import static io.openshiftagent.controlplane.names.ControlPlaneConditions.IMAGE_REGISTRY_CONFIG_INVALID;
import static io.openshiftagent.controlplane.names.ControlPlaneConditions.INSTALL_CONFIG_OVERRIDE_INVALID;

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
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;
import java.util.function.Supplier;

/**
 * The objects that describe the cluster to assisted-service, kept in step with the spec: the
 * ClusterImageSet ({@link ClusterImageSets}), the mirror-registry manifests, the ClusterDeployment
 * and the AgentClusterInstall ({@link ClusterObjectWrites}). What it found is the {@link
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
   * What is made ahead of the Cluster's infrastructure, in the background: the ClusterImageSet of
   * the release, and a new cluster's ClusterDeployment while its creation is under way.
   */
  public record Ahead(
      Optional<ClusterImageSets.Making> imageSet, Optional<CompletableFuture<Void>> deployment) {
    public static final Ahead NONE = new Ahead(Optional.empty(), Optional.empty());

    Ahead withImageSet(Optional<ClusterImageSets.Making> set) {
      return new Ahead(set, deployment);
    }

    /** The ClusterDeployment's creation, while it is under way. */
    Optional<CompletableFuture<Void>> deploymentUnderWay() {
      return deployment.filter(made -> !made.isDone());
    }
  }

  /**
   * What the objects say: the AgentClusterInstall made now (the phases after it, and the report,
   * know it before the cache does), the {@code ClusterInstallConfigured} condition, and what is
   * still being made.
   */
  public record Described(
      Optional<AgentClusterInstall> created, ConditionUpdate configured, Ahead ahead) {}

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
   *     is neither made nor changed, and the AgentClusterInstall is not made (assisted-service
   *     could not install without it), but kept in step if it exists
   * @param ahead what this process is making or made ahead for the control plane
   */
  public Started describe(
      ControlPlaneScope scope, ReleaseImageResolution.Outcome release, Ahead ahead) {
    try {
      Started started = describeCluster(scope, release, ahead);
      return new Started(
          started.scope(),
          () -> {
            try {
              return started.await();
            } catch (KubernetesClientException e) {
              return new Described(Optional.empty(), ClusterInstallConfigured.refused(e), ahead);
            } catch (ClusterObjectWrites.NotOurs e) {
              return new Described(Optional.empty(), ClusterInstallConfigured.inTheWay(e), ahead);
            }
          });
    } catch (KubernetesClientException e) {
      Described refused =
          new Described(Optional.empty(), ClusterInstallConfigured.refused(e), ahead);
      return new Started(scope, () -> refused);
    } catch (ClusterObjectWrites.NotOurs e) {
      Described inTheWay =
          new Described(Optional.empty(), ClusterInstallConfigured.inTheWay(e), ahead);
      return new Started(scope, () -> inTheWay);
    }
  }

  /**
   * What can be made before the Cluster's infrastructure is provisioned, since it names nothing of
   * it: the ClusterImageSet of a resolved release and a new cluster's ClusterDeployment. Both are
   * made in the background, so that the reconcile the provisioned infrastructure brings does not
   * wait behind this one; that reconcile waits for them instead, before the AgentClusterInstall
   * names them, and reports a refusal. Neither starts an installation: assisted-service begins with
   * the AgentClusterInstall.
   *
   * @return what is being made, or {@code ahead} as it was
   */
  public Ahead prepare(
      ControlPlaneScope scope, ReleaseImageResolution.Outcome release, Ahead ahead) {
    Optional<ClusterImageSets.Making> set = ahead.imageSet();
    if (release instanceof ReleaseImageResolution.Use use) {
      set = Optional.of(imageSets.ensure(scope, use.image(), writers, set));
    }
    boolean deploymentMadeOrUnderWay =
        scope.clusterDeployment().isPresent()
            || ahead.deployment().filter(made -> !made.isCompletedExceptionally()).isPresent();
    if (deploymentMadeOrUnderWay) {
      return ahead.withImageSet(set);
    }
    return new Ahead(
        set, Optional.of(CompletableFuture.runAsync(() -> ensureDeployment(scope), writers)));
  }

  private Started describeCluster(
      ControlPlaneScope scope, ReleaseImageResolution.Outcome release, Ahead ahead) {
    OpenshiftAssistedControlPlane cp = scope.cp();
    Optional<ClusterImageSets.Making> making = ahead.imageSet();
    String imageSet;
    // What the AgentClusterInstall waits for before it names the set.
    CompletableFuture<String> imageSetMade = CompletableFuture.completedFuture(null);
    if (release instanceof ReleaseImageResolution.Use use) {
      making = Optional.of(imageSets.ensure(scope, use.image(), writers, making));
      imageSet = making.get().name();
      imageSetMade = making.get().done();
    } else if (scope.clusterInstall().isPresent()) {
      imageSet = Names.clusterImageSet(cp); // as it is, until the new release is resolved
    } else {
      ReleaseImageResolution.Wait wait = (ReleaseImageResolution.Wait) release;
      return done(
          scope,
          ClusterInstallConfigured.isFalse(wait.reason(), wait.message()),
          ahead.withImageSet(making));
    }
    String registryConfigMap = null;
    if (cp.getSpec().config.imageRegistryRef != null) {
      Optional<String> problem = writes.registryConfigMap(scope);
      if (problem.isPresent()) {
        return done(
            scope,
            ClusterInstallConfigured.isFalse(IMAGE_REGISTRY_CONFIG_INVALID, problem.get()),
            ahead.withImageSet(making));
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
          ClusterInstallConfigured.isFalse(INSTALL_CONFIG_OVERRIDE_INVALID, invalid.message()),
          ahead.withImageSet(making));
    }
    Optional<String> overridesJson = ((InstallConfigOverrides.Valid) overrides).json();
    AgentClusterInstallSpec desired =
        DesiredClusterInstall.spec(
            cp,
            scope.cluster(),
            DayOneWorkers.count(cp, scope.machineDeployments(), scope.workerConfigTemplates()),
            imageSet,
            registryConfigMap);
    if (scope.clusterInstall().isEmpty()) {
      // A new cluster: made while the Machines are. The ClusterDeployment first: assisted-service
      // refuses an AgentClusterInstall whose ClusterDeployment it cannot find (SpecSynced False,
      // InputError, "ClusterDeployment ... not found") when both are created at once. The
      // AgentClusterInstall waits for its ClusterImageSet too. Made on a writer even when both
      // are there already: in the reconcile's thread, the Machines would wait for its admission.
      CompletableFuture<List<String>> deployed = deployment(scope, ahead);
      CompletableFuture<AgentClusterInstall> install =
          deployed
              .thenCombine(imageSetMade, (frozen, set) -> set)
              .thenApplyAsync(
                  set -> writes.createClusterInstall(scope, desired, overridesJson), writers);
      Ahead after = new Ahead(making, Optional.empty());
      return new Started(
          scope,
          () ->
              new Described(
                  Optional.of(Futures.join(install)),
                  ClusterInstallConfigured.of(scope, release, Futures.join(deployed)),
                  after));
    }
    Futures.join(imageSetMade);
    List<String> frozen = ensureDeployment(scope);
    if (!scope.installationStarted()) {
      writes.updateClusterInstall(scope.clusterInstall().get(), desired, overridesJson);
    }
    return done(
        scope, ClusterInstallConfigured.of(scope, release, frozen), ahead.withImageSet(making));
  }

  /**
   * The ClusterDeployment a new AgentClusterInstall waits for: the one made ahead while that is
   * under way, else made or brought in step now.
   *
   * @return what the spec asks that an installed cluster's ClusterDeployment can no longer take
   */
  private CompletableFuture<List<String>> deployment(ControlPlaneScope scope, Ahead ahead) {
    Optional<CompletableFuture<Void>> underWay = ahead.deploymentUnderWay();
    if (underWay.isPresent() && scope.clusterDeployment().isEmpty()) {
      return underWay.get().thenApply(made -> List.of());
    }
    return CompletableFuture.supplyAsync(() -> ensureDeployment(scope), writers);
  }

  /**
   * Creates the ClusterDeployment, or brings the one there in step with the spec.
   *
   * @return what the spec asks that an installed cluster's ClusterDeployment can no longer take
   */
  private List<String> ensureDeployment(ControlPlaneScope scope) {
    ClusterDeploymentChanges.Desired desired = writes.desiredDeployment(scope);
    if (scope.clusterDeployment().isEmpty()) {
      writes.createClusterDeployment(scope, desired);
      return List.of();
    }
    return writes.updateClusterDeployment(scope, scope.clusterDeployment().get(), desired);
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

  /** Nothing made now that the cache may not show yet. */
  private static Started done(ControlPlaneScope scope, ConditionUpdate configured, Ahead ahead) {
    Described described = new Described(Optional.empty(), configured, ahead);
    return new Started(scope, () -> described);
  }
}
