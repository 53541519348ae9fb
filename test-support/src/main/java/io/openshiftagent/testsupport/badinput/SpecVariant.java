package io.openshiftagent.testsupport.badinput;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

/** A valid object of {@code kind} with {@code changes} made to it. */
public record SpecVariant(Kind kind, List<Change> changes) {

  /**
   * Characters the trust bundle and the bootstrap commands of one config spec may hold together
   * (the CRDs' rule, docs/api-reference.md).
   */
  static final int TEXT_BUDGET = 1048576;

  /** What admission should do: refuse if any change must be refused, else admit. */
  public Verdict verdict() {
    return effectiveChanges().stream().map(Change::verdict).reduce(Verdict.ACCEPTED, Verdict::and);
  }

  /** The changes a refusal may be about. */
  public List<Change> refusable() {
    return effectiveChanges().stream().filter(c -> c.verdict() != Verdict.ACCEPTED).toList();
  }

  /**
   * The changes, and the one they make together when their bootstrap text is over the budget that
   * the changes' own bounds each respect.
   */
  private List<Change> effectiveChanges() {
    String configSpec = kind.isControlPlane() ? "openshiftAssistedConfigSpec" : "";
    Object spec = toObject("ns", "name").getAdditionalProperties();
    List<String> path = new ArrayList<>(kind.specPath());
    if (!configSpec.isEmpty()) {
      path.add(configSpec);
    }
    for (String key : path) {
      spec = spec instanceof Map<?, ?> m ? m.get(key) : null;
    }
    if (!(spec instanceof Map<?, ?> config) || textSize(config) <= TEXT_BUDGET) {
      return changes;
    }
    List<Change> all = new ArrayList<>(changes);
    String field = (configSpec.isEmpty() ? "" : configSpec + ".") + "additionalTrustBundle";
    all.add(new Change(field, List.of(), Verdict.REJECTED, "over the shared text budget"));
    return all;
  }

  private static long textSize(Map<?, ?> config) {
    long size = 0;
    if (config.get("additionalTrustBundle") instanceof String bundle) {
      size += Values.length(bundle);
    }
    for (String commands : List.of("preBootstrapCommands", "postBootstrapCommands")) {
      if (config.get(commands) instanceof List<?> list) {
        for (Object command : list) {
          size += command instanceof String s ? Values.length(s) : 0;
        }
      }
    }
    return size;
  }

  /**
   * The ways an API server message may name the field of {@code change}: its full path, or (for a
   * template) its path in the kind the template makes, as the CEL messages spell it.
   */
  public List<String> namesOf(Change change) {
    // A change without edits (the shared text budget) is about the spec, like most changes.
    if (!change.edits().isEmpty()
        && change.edits().stream().allMatch(Change.Edit::fromObjectRoot)) {
      return List.of(change.field());
    }
    return List.of(
        String.join(".", kind.specPath()) + "." + change.field(), "spec." + change.field());
  }

  /** The object to submit. */
  public GenericKubernetesResource toObject(String namespace, String name) {
    GenericKubernetesResource object = new GenericKubernetesResource();
    object.setApiVersion(kind.apiVersion);
    object.setKind(kind.kind);
    object.setMetadata(new ObjectMetaBuilder().withName(name).withNamespace(namespace).build());
    Map<String, Object> root = new LinkedHashMap<>();
    set(root, kind.specPath(), kind.baseSpec());
    for (Change change : changes) {
      for (Change.Edit edit : change.edits()) {
        List<String> path = new ArrayList<>();
        if (!edit.fromObjectRoot()) {
          path.addAll(kind.specPath());
        }
        path.addAll(edit.path());
        set(root, path, edit.value());
      }
    }
    @SuppressWarnings("unchecked")
    Map<String, Object> metadata = (Map<String, Object>) root.remove("metadata");
    if (metadata != null && metadata.get("annotations") instanceof Map<?, ?> annotations) {
      @SuppressWarnings("unchecked")
      Map<String, String> typed = (Map<String, String>) annotations;
      object.getMetadata().setAnnotations(typed);
    }
    root.forEach(object::setAdditionalProperty);
    return object;
  }

  @SuppressWarnings("unchecked")
  private static void set(Map<String, Object> root, List<String> path, Object value) {
    Map<String, Object> node = root;
    for (String key : path.subList(0, path.size() - 1)) {
      node = (Map<String, Object>) node.computeIfAbsent(key, k -> new LinkedHashMap<>());
    }
    String last = path.get(path.size() - 1);
    if (value == Change.REMOVE) {
      node.remove(last);
    } else {
      node.put(last, value);
    }
  }

  @Override
  public String toString() {
    return kind.kind
        + " ["
        + verdict()
        + "] "
        + changes.stream().map(Change::toString).collect(Collectors.joining("; "));
  }
}
