package io.openshiftagent.provider.reconcile;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.OwnerReference;
import io.fabric8.kubernetes.api.model.OwnerReferenceBuilder;
import java.util.List;
import java.util.Optional;

/** Owner references: how we link what we create to its owner, and how we find an object's owner. */
public final class OwnerReferences {
  private OwnerReferences() {}

  /**
   * The controller reference: {@code owner} manages the object, and deleting it deletes the object.
   */
  public static OwnerReference controller(HasMetadata owner) {
    return builder(owner).withController(true).withBlockOwnerDeletion(true).build();
  }

  /**
   * A plain reference: the object is garbage-collected with {@code owner}, but another controller
   * manages it.
   */
  public static OwnerReference plain(HasMetadata owner) {
    return builder(owner).build();
  }

  /** The first owner of the given API group (any version) and kind. */
  public static Optional<OwnerReference> find(HasMetadata object, String group, String kind) {
    List<OwnerReference> refs = object.getMetadata().getOwnerReferences();
    if (refs == null) {
      return Optional.empty();
    }
    return refs.stream()
        .filter(r -> kind.equals(r.getKind()) && group.equals(groupOf(r.getApiVersion())))
        .findFirst();
  }

  /** Whether {@code owner} is among the object's owners (matched by UID). */
  public static boolean isOwnedBy(HasMetadata object, HasMetadata owner) {
    List<OwnerReference> refs = object.getMetadata().getOwnerReferences();
    return refs != null
        && refs.stream().anyMatch(r -> r.getUid().equals(owner.getMetadata().getUid()));
  }

  public static String groupOf(String apiVersion) {
    int slash = apiVersion.indexOf('/');
    return slash < 0 ? "" : apiVersion.substring(0, slash);
  }

  private static OwnerReferenceBuilder builder(HasMetadata owner) {
    return new OwnerReferenceBuilder()
        .withApiVersion(owner.getApiVersion())
        .withKind(owner.getKind())
        .withName(owner.getMetadata().getName())
        .withUid(owner.getMetadata().getUid());
  }
}
