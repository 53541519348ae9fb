package io.openshiftagent.provider.reconcile;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.openshiftagent.api.external.ExternalKinds;
import io.openshiftagent.api.external.capi.Cluster;

/** Cluster API pause: the Cluster's spec.paused, or the paused annotation on the object itself. */
public final class Pause {
  private Pause() {}

  public static boolean isPaused(Cluster cluster, HasMetadata object) {
    boolean clusterPaused =
        cluster != null
            && cluster.getSpec() != null
            && Boolean.TRUE.equals(cluster.getSpec().paused);
    return clusterPaused || hasPausedAnnotation(object);
  }

  public static boolean hasPausedAnnotation(HasMetadata object) {
    return Metadata.hasAnnotation(object, ExternalKinds.PAUSED_ANNOTATION);
  }

  /** Why the object is paused, for the Paused condition's message. */
  public static String reason(Cluster cluster, HasMetadata object) {
    if (hasPausedAnnotation(object)) {
      return "the " + ExternalKinds.PAUSED_ANNOTATION + " annotation is set";
    }
    return "Cluster " + cluster.getMetadata().getName() + " has spec.paused set";
  }
}
