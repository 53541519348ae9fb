package io.openshiftagent.controlplane.scope;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceDefinition;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.openshiftagent.api.common.ContractVersionedObjectReference;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Infrastructure templates and machines, whose kinds we only know at run time: the scope reads them
 * through it, the Machine writes clone, patch and delete them. The version to use comes from the
 * Cluster API contract label on the kind's CRD ({@code cluster.x-k8s.io/v1beta2: v1beta1_v1beta2}:
 * the last one listed); what it learns of a kind, and the clone annotations of each machine (set
 * when it is made and never changed), are kept for the process.
 */
public final class InfrastructureTemplates {
  private static final Logger LOG = LoggerFactory.getLogger(InfrastructureTemplates.class);

  static final String CONTRACT_LABEL = "cluster.x-k8s.io/v1beta2";

  private final KubernetesClient client;
  private final Map<String, String> versions = new ConcurrentHashMap<>();

  /** The kinds {@link #prepare} was asked for (once each). */
  private final java.util.Set<String> prepared = ConcurrentHashMap.newKeySet();

  /**
   * The clone annotations of infrastructure machines, by namespace/kind/name: set when the machine
   * is made and never changed, so each is read once (names carry a random suffix, never reused).
   */
  private final Map<String, Map<String, String>> cloneAnnotations = new ConcurrentHashMap<>();

  public InfrastructureTemplates(KubernetesClient client) {
    this.client = client;
  }

  /** The API version of {@code kind} in {@code group} that implements the v1beta2 contract. */
  String apiVersion(String group, String kind) {
    String crdName = plural(kind) + "." + group;
    String version =
        versions.computeIfAbsent(
            crdName,
            name -> {
              CustomResourceDefinition crd =
                  client.apiextensions().v1().customResourceDefinitions().withName(name).get();
              if (crd == null) {
                throw new IllegalStateException("CustomResourceDefinition " + name + " not found");
              }
              Map<String, String> labels = crd.getMetadata().getLabels();
              String value = labels == null ? null : labels.get(CONTRACT_LABEL);
              if (value == null || value.isBlank()) {
                throw new IllegalStateException(
                    "CustomResourceDefinition "
                        + name
                        + " has no "
                        + CONTRACT_LABEL
                        + " label: its provider does not implement the Cluster API v1beta2 contract");
              }
              String[] listed = value.split("_");
              return listed[listed.length - 1];
            });
    return group + "/" + version;
  }

  /**
   * Looks up, once per kind, what reading {@code ref}'s kind needs (its CRD's contract version, the
   * client's discovery of its group version), so that the first Machines of a cluster do not wait
   * for it once its infrastructure is provisioned. A failure here is left to the real read.
   */
  public void prepare(ContractVersionedObjectReference ref) {
    if (ref == null || ref.apiGroup == null || ref.kind == null) {
      return;
    }
    try {
      if (prepared.add(ref.apiGroup + "/" + ref.kind)) {
        client.genericKubernetesResources(apiVersion(ref.apiGroup, ref.kind), ref.kind);
      }
    } catch (RuntimeException e) {
      LOG.debug("cannot prepare reading {}: {}", ref.kind, e.getMessage());
    }
  }

  /** The referenced object, or null when it does not exist. */
  GenericKubernetesResource get(ContractVersionedObjectReference ref, String namespace) {
    GenericKubernetesResource found =
        client
            .genericKubernetesResources(apiVersion(ref.apiGroup, ref.kind), ref.kind)
            .inNamespace(namespace)
            .withName(ref.name)
            .get();
    if (found == null) {
      versions.remove(plural(ref.kind) + "." + ref.apiGroup); // maybe the provider was upgraded
    }
    return found;
  }

  /**
   * The annotations of an infrastructure machine (the cloned-from annotations among them), or null
   * when it does not exist (yet) or its kind cannot be read (logged).
   */
  Map<String, String> annotationsOrNull(ContractVersionedObjectReference ref, String namespace) {
    try {
      return annotations(ref, namespace);
    } catch (RuntimeException e) {
      LOG.debug("cannot read infrastructure machine {}: {}", ref, e.getMessage());
      return null;
    }
  }

  Map<String, String> annotations(ContractVersionedObjectReference ref, String namespace) {
    String key = namespace + "/" + ref.kind + "/" + ref.name;
    Map<String, String> known = cloneAnnotations.get(key);
    if (known != null) {
      return known;
    }
    GenericKubernetesResource machine = get(ref, namespace);
    return machine == null ? null : remember(machine);
  }

  /** Keeps the annotations of an infrastructure machine we just made or read; returns them. */
  public Map<String, String> remember(GenericKubernetesResource machine) {
    Map<String, String> annotations =
        machine.getMetadata().getAnnotations() == null
            ? Map.of()
            : Map.copyOf(machine.getMetadata().getAnnotations());
    cloneAnnotations.put(
        machine.getMetadata().getNamespace()
            + "/"
            + machine.getKind()
            + "/"
            + machine.getMetadata().getName(),
        annotations);
    return annotations;
  }

  /** Applies a merge patch of our fields; nothing when the machine is gone. */
  public void patch(ContractVersionedObjectReference ref, String namespace, String mergePatch) {
    try {
      client
          .genericKubernetesResources(apiVersion(ref.apiGroup, ref.kind), ref.kind)
          .inNamespace(namespace)
          .withName(ref.name)
          .patch(
              io.fabric8.kubernetes.client.dsl.base.PatchContext.of(
                  io.fabric8.kubernetes.client.dsl.base.PatchType.JSON_MERGE),
              mergePatch);
    } catch (io.fabric8.kubernetes.client.KubernetesClientException e) {
      if (e.getCode() != 404) {
        throw e;
      }
    }
  }

  public void delete(ContractVersionedObjectReference ref, String namespace) {
    cloneAnnotations.remove(namespace + "/" + ref.kind + "/" + ref.name);
    client
        .genericKubernetesResources(apiVersion(ref.apiGroup, ref.kind), ref.kind)
        .inNamespace(namespace)
        .withName(ref.name)
        .delete();
  }

  static String plural(String kind) {
    String lower = kind.toLowerCase(Locale.ROOT);
    return lower.endsWith("s") ? lower + "es" : lower + "s";
  }

  /** The kind a template makes: Metal3MachineTemplate makes Metal3Machines. */
  public static String machineKind(String templateKind) {
    return templateKind.endsWith("Template")
        ? templateKind.substring(0, templateKind.length() - "Template".length())
        : templateKind;
  }
}
