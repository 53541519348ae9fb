package io.openshiftagent.provider.contract;

import io.fabric8.kubernetes.api.model.ObjectMeta;
import io.fabric8.kubernetes.api.model.Secret;
import io.fabric8.kubernetes.api.model.SecretBuilder;
import java.nio.charset.StandardCharsets;
import java.util.Base64;

/**
 * The pull secret used when the user gives none (OKD needs none, but InfraEnv and ClusterDeployment
 * require a reference): a syntactically valid {@code .dockerconfigjson} for a registry that cannot
 * exist. Each owner gets its own, so the user's spec is never changed and deleting one cluster
 * never removes another's.
 */
public final class PlaceholderPullSecret {
  static final String CONTENT = "{\"auths\":{\"placeholder.invalid\":{\"auth\":\"\"}}}";

  private PlaceholderPullSecret() {}

  /** The Secret with {@code metadata} (name, namespace, labels, owner) set by the caller. */
  public static Secret build(ObjectMeta metadata) {
    return new SecretBuilder()
        .withMetadata(metadata)
        .withType("kubernetes.io/dockerconfigjson")
        .addToData(
            ".dockerconfigjson",
            Base64.getEncoder().encodeToString(CONTENT.getBytes(StandardCharsets.UTF_8)))
        .build();
  }
}
