package io.openshiftagent.controlplane.release;

import java.util.Comparator;

/** The order of Kubernetes versions as kubelets report them: v1.33.4 before v1.33.10. */
public final class KubernetesVersions {
  /** Numeric parts compared as numbers, then the whole string. */
  public static final Comparator<String> ORDER =
      Comparator.comparing(KubernetesVersions::key).thenComparing(Comparator.naturalOrder());

  private KubernetesVersions() {}

  static String key(String version) {
    StringBuilder key = new StringBuilder();
    for (String part : version.replaceFirst("^v", "").split("[.+-]")) {
      key.append(part.matches("\\d{1,18}") ? String.format("%019d", Long.parseLong(part)) : part)
          .append('.');
    }
    return key.toString();
  }
}
