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
              return new Described(Optional.empty(), ClusterInstallConfigured.refused(e), imageSet);
            } catch (ClusterObjectWrites.NotOurs e) {
              return new Described(
                  Optional.empty(), ClusterInstallConfigured.inTheWay(e), imageSet);
            }
          });
    } catch (KubernetesClientException e) {
      Described refused =
          new Described(Optional.empty(), ClusterInstallConfigured.refused(e), imageSet);
      return new Started(scope, () -> refused);
    } catch (ClusterObjectWrites.NotOurs e) {
      Described inTheWay =
          new Described(Optional.empty(), ClusterInstallConfigured.inTheWay(e), imageSet);
      return new Started(scope, () -> inTheWay);
    }
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

  private Started describeCluster(
      ControlPlaneScope scope,
      ReleaseImageResolution.Outcome release,
      Optional<ClusterImageSets.Making> known) {
    OpenshiftAssistedControlPlane cp = scope.cp();
    Optional<ClusterImageSets.Making> making = known;
    String imageSet;
    // What the AgentClusterInstall waits for before it names the set.
    CompletableFuture<String> imageSetMade = CompletableFuture.completedFuture(null);
    if (release instanceof ReleaseImageResolution.Use use) {
      making = Optional.of(imageSets.ensure(scope, use.image(), writers, known));
      imageSet = making.get().name();
      imageSetMade = making.get().done();
    } else if (scope.clusterInstall().isPresent()) {
      imageSet = Names.clusterImageSet(cp); // as it is, until the new release is resolved
    } else {
      ReleaseImageResolution.Wait wait = (ReleaseImageResolution.Wait) release;
      return done(
          scope,
          Optional.empty(),
          ClusterInstallConfigured.isFalse(wait.reason(), wait.message()),
          making);
    }
    String registryConfigMap = null;
    if (cp.getSpec().config.imageRegistryRef != null) {
      Optional<String> problem = writes.registryConfigMap(scope);
      if (problem.isPresent()) {
        return done(
            scope,
            Optional.empty(),
            ClusterInstallConfigured.isFalse(IMAGE_REGISTRY_CONFIG_INVALID, problem.get()),
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
          ClusterInstallConfigured.isFalse(INSTALL_CONFIG_OVERRIDE_INVALID, invalid.message()),
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
      // InputError, "ClusterDeployment ... not found") when both are created at once. The
      // AgentClusterInstall waits for its ClusterImageSet too.
      ClusterDeploymentChanges.Desired deployment = writes.desiredDeployment(scope);
      CompletableFuture<AgentClusterInstall> install =
          CompletableFuture.runAsync(
                  () -> writes.createClusterDeployment(scope, deployment), writers)
              .thenCombine(imageSetMade, (deployed, made) -> made)
              .thenApply(made -> writes.createClusterInstall(scope, desired, overridesJson));
      ConditionUpdate configured = ClusterInstallConfigured.of(scope, release, List.of());
      return new Started(
          scope, () -> new Described(Optional.of(Futures.join(install)), configured, set));
    }
    Futures.join(imageSetMade);
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
    return done(written, created, ClusterInstallConfigured.of(written, release, frozen), making);
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

  private static Started done(
      ControlPlaneScope scope,
      Optional<AgentClusterInstall> created,
      ConditionUpdate configured,
      Optional<ClusterImageSets.Making> set) {
    Described described = new Described(created, configured, set);
    return new Started(scope, () -> described);
  }
}
