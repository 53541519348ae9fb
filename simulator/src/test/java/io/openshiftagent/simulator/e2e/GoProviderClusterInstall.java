package io.openshiftagent.simulator.e2e;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.fabric8.kubernetes.client.utils.Serialization;
import io.openshiftagent.api.controlplane.v1alpha3.OpenshiftAssistedControlPlane;
import io.openshiftagent.api.external.assisted.AgentClusterInstall;
import io.openshiftagent.api.external.capi.Cluster;
import io.openshiftagent.api.external.hive.ClusterImageSet;
import io.openshiftagent.controlplane.cluster.DesiredClusterInstall;
import io.openshiftagent.controlplane.names.Names;
import io.openshiftagent.provider.contract.GoProvider;
import io.openshiftagent.provider.reconcile.OwnerReferences;
import io.openshiftagent.simulator.ApiVersions;

/**
 * The AgentClusterInstall of a cluster the Go provider installs, made before the installation as it
 * makes it: naming the Go provider's ClusterImageSet (named after the control plane alone) from its
 * creation. assisted-service's admission webhook refuses any later change of {@code imageSetRef},
 * so a cluster whose AgentClusterInstall names our set can never be turned into the Go provider's
 * state; this one is made while its Cluster is paused, before our control plane makes one, and our
 * control plane then keeps the name it finds ({@code Names.clusterImageSet}).
 */
final class GoProviderClusterInstall {
  private GoProviderClusterInstall() {}

  /**
   * Creates the Go provider's ClusterImageSet (its release set by our control plane, which makes
   * the set its own and follows the release) and the AgentClusterInstall naming it, with the spec
   * our control plane asks for otherwise, owned by the control plane. The Cluster must be paused.
   */
  static void create(ClusterScenario cluster, String controlPlane) {
    OpenshiftAssistedControlPlane cp =
        convert(
            cluster.get(ApiVersions.CONTROL_PLANE, "OpenshiftAssistedControlPlane", controlPlane),
            OpenshiftAssistedControlPlane.class);
    Cluster capi =
        convert(cluster.get(ApiVersions.CAPI, "Cluster", cluster.clusterName()), Cluster.class);
    String imageSet = GoProvider.clusterImageSet(controlPlane);
    ClusterImageSet set = new ClusterImageSet();
    set.setMetadata(new ObjectMetaBuilder().withName(imageSet).build());
    // Not installable: our control plane sets the release before the ClusterDeployment exists,
    // and assisted-service reads the set only once it does.
    set.setSpec(new ClusterImageSet.Spec("quay.io/openshift-release-dev/ocp-release:unset"));
    cluster.hub().resource(set).create();
    AgentClusterInstall install = new AgentClusterInstall();
    install.setMetadata(
        new ObjectMetaBuilder()
            .withName(Names.clusterDeployment(cp))
            .withNamespace(cluster.namespace())
            .addToLabels(Names.ownLabels(cp, cluster.clusterName()))
            .withOwnerReferences(OwnerReferences.plain(cp))
            .build());
    install.setSpec(DesiredClusterInstall.spec(cp, capi, 0, imageSet, null));
    cluster.hub().resource(install).create();
  }

  private static <T> T convert(GenericKubernetesResource object, Class<T> type) {
    return Serialization.jsonMapper().convertValue(object, type);
  }
}
