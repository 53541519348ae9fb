package io.openshiftagent.controlplane;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.openshiftagent.api.controlplane.v1alpha3.OpenshiftAssistedControlPlane;
import io.openshiftagent.api.external.assisted.AgentClusterInstall;
import io.openshiftagent.api.external.hive.ClusterImageSet;
import io.openshiftagent.controlplane.cluster.ClusterImageSets;
import io.openshiftagent.controlplane.names.Names;
import io.openshiftagent.provider.contract.GoProvider;
import io.openshiftagent.provider.contract.Kinds;
import io.openshiftagent.provider.reconcile.EventRecorder;
import io.openshiftagent.provider.reconcile.Metadata;
import io.openshiftagent.provider.reconcile.OwnerReferences;
import java.util.List;
import java.util.Set;
import java.util.function.Predicate;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The last deletions of a control plane, of what it made under names derived from its own: each
 * object is read and deleted only when it is the control plane's (an owner reference to its UID;
 * for a cluster-scoped ClusterImageSet, which no owner reference can tie to a namespaced owner, our
 * namespace label). One someone else made under that name is left as it is, logged, and named in an
 * Event on the control plane.
 */
final class OwnedDeletions {
  /** The Event reason naming an object left in place. */
  static final String FOREIGN_OBJECT_KEPT = "ForeignObjectKept";

  private static final Logger LOG = LoggerFactory.getLogger(OwnedDeletions.class);

  private final KubernetesClient client;
  private final EventRecorder events;
  private final Set<String> watched;

  /**
   * @param watched the namespaces this process watches (--namespace); empty: all. A namespaced
   *     install may not list AgentClusterInstalls across the hub.
   */
  OwnedDeletions(KubernetesClient client, EventRecorder events, Set<String> watched) {
    this.client = client;
    this.events = events;
    this.watched = Set.copyOf(watched);
  }

  /** Deletes what is left of the control plane's, once its ClusterDeployment is gone. */
  void deleteRest(OpenshiftAssistedControlPlane cp) {
    String ns = cp.getMetadata().getNamespace();
    Predicate<HasMetadata> owned = o -> OwnerReferences.isOwnedBy(o, cp);
    delete(cp, clusterInstall(cp), owned);
    delete(
        cp,
        client.resources(ClusterImageSet.class).withName(Names.clusterImageSet(cp)).get(),
        set -> ns.equals(Metadata.label(set, ClusterImageSets.NAMESPACE_LABEL)));
    deleteTakenOverImageSet(cp);
    delete(
        cp, client.configMaps().inNamespace(ns).withName(Names.registryConfigMap(cp)).get(), owned);
    delete(
        cp,
        client.secrets().inNamespace(ns).withName(Names.placeholderPullSecret(cp)).get(),
        owned);
    // The Cluster may be gone already; its name stays in our owner reference.
    Kinds.owningCluster(cp)
        .ifPresent(
            name ->
                delete(
                    cp,
                    client.secrets().inNamespace(ns).withName(Names.kubeconfigSecret(name)).get(),
                    owned));
  }

  /**
   * The AgentClusterInstall of the control plane's name, ours or not: the provider may list them
   * but not get one.
   */
  private AgentClusterInstall clusterInstall(OpenshiftAssistedControlPlane cp) {
    return client
        .resources(AgentClusterInstall.class)
        .inNamespace(cp.getMetadata().getNamespace())
        .withField("metadata.name", Names.clusterDeployment(cp))
        .list()
        .getItems()
        .stream()
        .findFirst()
        .orElse(null);
  }

  /**
   * The Go provider's ClusterImageSet of this control plane's name, if one of our control planes
   * took it over (it carries our namespace label then). The Go provider names it after the control
   * plane alone, so control planes of that name in other namespaces may use it as well: it goes
   * only when no other AgentClusterInstall names it, and stays when that cannot be known: when the
   * list fails, or in a namespaced install, whose RBAC allows no list across the hub and whose
   * watched namespaces are not all those that may name it.
   */
  private void deleteTakenOverImageSet(OpenshiftAssistedControlPlane cp) {
    String name = GoProvider.clusterImageSet(cp.getMetadata().getName());
    ClusterImageSet set = client.resources(ClusterImageSet.class).withName(name).get();
    if (set == null || Metadata.label(set, ClusterImageSets.NAMESPACE_LABEL) == null) {
      return; // none, or the Go provider's own: never ours
    }
    if (!watched.isEmpty()) {
      LOG.info(
          "kept the taken-over ClusterImageSet {}: watching only {}, this provider cannot see every"
              + " AgentClusterInstall that may name it",
          name,
          watched);
      return;
    }
    List<String> users;
    try {
      users = usersOf(cp, name);
    } catch (KubernetesClientException e) {
      LOG.warn(
          "kept ClusterImageSet {}: could not list the AgentClusterInstalls that may name it: {}",
          name,
          e.getMessage());
      return;
    }
    if (users.isEmpty()) {
      client.resource(set).delete();
    } else {
      LOG.info("kept the shared ClusterImageSet {}: named by {}", name, users);
    }
  }

  /** The AgentClusterInstalls not the control plane's that name the set, as ns/name. */
  private List<String> usersOf(OpenshiftAssistedControlPlane cp, String set) {
    return client.resources(AgentClusterInstall.class).inAnyNamespace().list().getItems().stream()
        .filter(a -> a.getSpec() != null && a.getSpec().imageSetRef != null)
        .filter(a -> set.equals(a.getSpec().imageSetRef.getName()))
        .filter(a -> !OwnerReferences.isOwnedBy(a, cp))
        .map(a -> a.getMetadata().getNamespace() + "/" + a.getMetadata().getName())
        .toList();
  }

  private <T extends HasMetadata> void delete(
      OpenshiftAssistedControlPlane cp, T object, Predicate<? super T> ours) {
    if (object == null || Metadata.isDeleting(object)) {
      return;
    }
    if (ours.test(object)) {
      client.resource(object).delete();
      return;
    }
    String what =
        object.getKind()
            + " "
            + (object.getMetadata().getNamespace() == null
                ? ""
                : object.getMetadata().getNamespace() + "/")
            + object.getMetadata().getName();
    LOG.warn("left {} in place: it is not {}'s", what, Metadata.name(cp));
    events.warning(
        cp,
        FOREIGN_OBJECT_KEPT,
        "Delete",
        what
            + " has the name of one this control plane makes but is not its"
            + " (no owner reference or label of it): left in place");
  }
}
