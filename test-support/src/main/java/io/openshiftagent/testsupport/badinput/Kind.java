package io.openshiftagent.testsupport.badinput;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** Our four kinds, and where in each the spec under test lives. */
public enum Kind {
  CONFIG("bootstrap.cluster.x-k8s.io/v1alpha2", "OpenshiftAssistedConfig", false),
  CONFIG_TEMPLATE("bootstrap.cluster.x-k8s.io/v1alpha2", "OpenshiftAssistedConfigTemplate", true),
  CONTROL_PLANE("controlplane.cluster.x-k8s.io/v1alpha3", "OpenshiftAssistedControlPlane", false),
  CONTROL_PLANE_TEMPLATE(
      "controlplane.cluster.x-k8s.io/v1alpha3", "OpenshiftAssistedControlPlaneTemplate", true);

  /** The infrastructure template every generated control plane starts from. */
  public static final String INFRASTRUCTURE_TEMPLATE = "cp-template";

  /** The pull secret every generated spec starts from. */
  public static final String PULL_SECRET = "pull-secret";

  public final String apiVersion;
  public final String kind;
  public final boolean template;

  Kind(String apiVersion, String kind, boolean template) {
    this.apiVersion = apiVersion;
    this.kind = kind;
    this.template = template;
  }

  /** Path from the object's root to the spec the changes are made in. */
  public List<String> specPath() {
    return template ? List.of("spec", "template", "spec") : List.of("spec");
  }

  /** Path from the object's root to the annotations the providers read (or copy, for templates). */
  public List<String> annotationsPath() {
    return template
        ? List.of("spec", "template", "metadata", "annotations")
        : List.of("metadata", "annotations");
  }

  public boolean isControlPlane() {
    return this == CONTROL_PLANE || this == CONTROL_PLANE_TEMPLATE;
  }

  /** A valid spec to start from: small, with every required field. */
  Map<String, Object> baseSpec() {
    Map<String, Object> spec = new LinkedHashMap<>();
    if (!isControlPlane()) {
      spec.put("pullSecretRef", new LinkedHashMap<>(Map.of("name", PULL_SECRET)));
      return spec;
    }
    spec.put("distributionVersion", "4.20.0");
    Map<String, Object> config = new LinkedHashMap<>();
    config.put("baseDomain", "example.com");
    config.put("pullSecretRef", new LinkedHashMap<>(Map.of("name", PULL_SECRET)));
    spec.put("config", config);
    if (this == CONTROL_PLANE) {
      spec.put("replicas", 3);
      Map<String, Object> machineSpec = new LinkedHashMap<>();
      machineSpec.put(
          "infrastructureRef",
          new LinkedHashMap<>(
              Map.of(
                  "apiGroup", "infrastructure.cluster.x-k8s.io",
                  "kind", "Metal3MachineTemplate",
                  "name", INFRASTRUCTURE_TEMPLATE)));
      spec.put("machineTemplate", new LinkedHashMap<>(Map.of("spec", machineSpec)));
    }
    return spec;
  }
}
