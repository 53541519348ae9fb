package io.openshiftagent.provider.runtime;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.core.exc.InputCoercionException;
import com.fasterxml.jackson.databind.BeanDescription;
import com.fasterxml.jackson.databind.DatabindException;
import com.fasterxml.jackson.databind.DeserializationConfig;
import com.fasterxml.jackson.databind.DeserializationContext;
import com.fasterxml.jackson.databind.JavaType;
import com.fasterxml.jackson.databind.JsonDeserializer;
import com.fasterxml.jackson.databind.JsonMappingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.deser.BeanDeserializerModifier;
import com.fasterxml.jackson.databind.deser.std.DelegatingDeserializer;
import com.fasterxml.jackson.databind.exc.InvalidFormatException;
import com.fasterxml.jackson.databind.exc.MismatchedInputException;
import com.fasterxml.jackson.databind.module.SimpleModule;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.fabric8.kubernetes.api.model.DefaultKubernetesResourceList;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.WatchEvent;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import io.openshiftagent.api.bootstrap.v1alpha2.OpenshiftAssistedConfig;
import io.openshiftagent.api.bootstrap.v1alpha2.OpenshiftAssistedConfigTemplate;
import io.openshiftagent.api.controlplane.v1alpha3.OpenshiftAssistedControlPlane;
import io.openshiftagent.api.controlplane.v1alpha3.OpenshiftAssistedControlPlaneTemplate;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;
import java.util.stream.Collectors;

/**
 * Lets a provider's client skip the objects of our kinds its model cannot read, instead of failing
 * with them the whole list or watch they came in. Such an object was admitted by a CRD other than
 * the one the model matches: ours before a bound existed (the control plane's deletion timeouts and
 * status counters were unbounded at first, beyond what an int holds), or a newer one of ours after
 * a downgrade. Without this, one such object fails every list of its kind, so that kind's informer
 * never syncs, and nothing of that kind is reconciled in any namespace.
 *
 * <p>Lists (what an informer starts from, and every list a reconcile makes) keep the items that can
 * be read. A watch event whose object cannot be read becomes a DELETED event of its metadata: the
 * informer forgets a version it may hold from before, as a list would (an event it never held
 * changes nothing), and moves on to the event's resourceVersion. Each skipped object is handed,
 * with its metadata and what is wrong, to the reporter. A single read ({@code get}, the answer to a
 * write) still fails: a reconcile never acts on an object it cannot read.
 *
 * <p>This assumes the informers list, then watch (fabric8's default); its watch-list mode ({@code
 * kubernetes.watch.list}) would take a DELETED event during the initial events as a broken watch.
 */
final class UnreadableObjects {
  /** An object skipped: {@code object} has only its apiVersion, kind and metadata. */
  record Skipped(HasMetadata object, String problem) {}

  /** Our kinds: those whose CRDs changed, and may have admitted what the model cannot read. */
  static final List<Class<? extends HasMetadata>> OURS =
      List.of(
          OpenshiftAssistedConfig.class,
          OpenshiftAssistedConfigTemplate.class,
          OpenshiftAssistedControlPlane.class,
          OpenshiftAssistedControlPlaneTemplate.class);

  private UnreadableObjects() {}

  /**
   * The client's serialization, skipping the objects of {@code kinds} it cannot read and handing
   * each to {@code report}.
   */
  static KubernetesSerialization serialization(
      List<Class<? extends HasMetadata>> kinds, Consumer<Skipped> report) {
    Map<String, Class<? extends HasMetadata>> byType =
        kinds.stream()
            .collect(
                Collectors.toMap(
                    k -> HasMetadata.getApiVersion(k) + "/" + HasMetadata.getKind(k), k -> k));
    SimpleModule module = new SimpleModule("unreadable-objects");
    module.setDeserializerModifier(
        new BeanDeserializerModifier() {
          @Override
          public JsonDeserializer<?> modifyDeserializer(
              DeserializationConfig config, BeanDescription bean, JsonDeserializer<?> found) {
            JavaType type = bean.getType();
            if (type.getRawClass() == WatchEvent.class) {
              return new Events(found, byType, report);
            }
            JavaType item = type.getBindings().getBoundType(0);
            if (type.getRawClass() == DefaultKubernetesResourceList.class
                && item != null
                && byType.containsValue(item.getRawClass())) {
              return new Lists(found, item, report);
            }
            return found;
          }
        });
    return new KubernetesSerialization(new ObjectMapper().registerModule(module), true);
  }

  /** Lists of one of the kinds: the items that cannot be read are left out. */
  private static final class Lists extends DelegatingDeserializer {
    private final JavaType item;
    private final Consumer<Skipped> report;

    Lists(JsonDeserializer<?> delegate, JavaType item, Consumer<Skipped> report) {
      super(delegate);
      this.item = item;
      this.report = report;
    }

    @Override
    protected JsonDeserializer<?> newDelegatingInstance(JsonDeserializer<?> delegate) {
      return new Lists(delegate, item, report);
    }

    @Override
    public Object deserialize(JsonParser p, DeserializationContext ctxt) throws IOException {
      if (!p.hasToken(JsonToken.START_OBJECT)) {
        return super.deserialize(p, ctxt);
      }
      JsonNode tree = ctxt.readTree(p);
      if (!(tree.get("items") instanceof ArrayNode items)) {
        return delegate(_delegatee, tree, p, ctxt);
      }
      List<HasMetadata> read = new ArrayList<>();
      for (JsonNode object : items) {
        try {
          read.add(ctxt.readTreeAsValue(object, item));
        } catch (IOException e) {
          report.accept(new Skipped(head(object, item.getRawClass(), ctxt, e), problem(e)));
        }
      }
      ((ObjectNode) tree).remove("items");
      @SuppressWarnings("unchecked")
      DefaultKubernetesResourceList<HasMetadata> list =
          (DefaultKubernetesResourceList<HasMetadata>) delegate(_delegatee, tree, p, ctxt);
      list.setItems(read);
      return list;
    }
  }

  /** Watch events: one whose object of the kinds cannot be read becomes a DELETED event. */
  private static final class Events extends DelegatingDeserializer {
    private final Map<String, Class<? extends HasMetadata>> kinds;
    private final Consumer<Skipped> report;

    Events(
        JsonDeserializer<?> delegate,
        Map<String, Class<? extends HasMetadata>> kinds,
        Consumer<Skipped> report) {
      super(delegate);
      this.kinds = kinds;
      this.report = report;
    }

    @Override
    protected JsonDeserializer<?> newDelegatingInstance(JsonDeserializer<?> delegate) {
      return new Events(delegate, kinds, report);
    }

    @Override
    public Object deserialize(JsonParser p, DeserializationContext ctxt) throws IOException {
      if (!p.hasToken(JsonToken.START_OBJECT)) {
        return super.deserialize(p, ctxt);
      }
      JsonNode tree = ctxt.readTree(p);
      JsonNode object = tree.path("object");
      Class<? extends HasMetadata> kind =
          kinds.get(object.path("apiVersion").asText() + "/" + object.path("kind").asText());
      if (kind == null) {
        return delegate(_delegatee, tree, p, ctxt);
      }
      try {
        return new WatchEvent(ctxt.readTreeAsValue(object, kind), tree.path("type").asText());
      } catch (IOException e) {
        HasMetadata head = head(object, kind, ctxt, e);
        report.accept(new Skipped(head, problem(e)));
        return new WatchEvent(head, "DELETED");
      }
    }
  }

  /** What {@code delegate} (Jackson's own deserializer of the type) reads of {@code tree}. */
  private static Object delegate(
      JsonDeserializer<?> delegate, JsonNode tree, JsonParser p, DeserializationContext ctxt)
      throws IOException {
    try (JsonParser tokens = tree.traverse(p.getCodec())) {
      tokens.nextToken();
      return delegate.deserialize(tokens, ctxt);
    }
  }

  /**
   * The object's apiVersion, kind and metadata, as an instance of {@code kind}; {@code failure} is
   * thrown again when even these cannot be read (nothing would say which object it was).
   */
  private static HasMetadata head(
      JsonNode object, Class<?> kind, DeserializationContext ctxt, IOException failure)
      throws IOException {
    ObjectNode head = ctxt.getNodeFactory().objectNode();
    for (String field : List.of("apiVersion", "kind", "metadata")) {
      if (object.has(field)) {
        head.set(field, object.get(field));
      }
    }
    try {
      return (HasMetadata) ctxt.readTreeAsValue(head, kind);
    } catch (IOException e) {
      failure.addSuppressed(e);
      throw failure;
    }
  }

  /**
   * What cannot be read: the field's path and what the model wanted there, never the value (which
   * could be anything, a secret pasted into the wrong field included).
   */
  static String problem(Throwable failure) {
    String wanted = failure.getClass().getSimpleName();
    for (Throwable t = failure; t != null; t = t.getCause()) {
      if (t instanceof InvalidFormatException f && f.getTargetType() != null) {
        wanted = "not a valid " + typeName(f.getTargetType());
        break;
      }
      if (t instanceof InputCoercionException c && c.getTargetType() != null) {
        wanted = "not a valid " + typeName(c.getTargetType());
        break;
      }
      if (t instanceof MismatchedInputException m && m.getTargetType() != null) {
        wanted = "not a " + typeName(m.getTargetType());
        break;
      }
    }
    String path = failure instanceof DatabindException d ? path(d) : "";
    return path.isEmpty() ? wanted : path + ": " + wanted;
  }

  private static String path(DatabindException failure) {
    if (!(failure instanceof JsonMappingException mapping)) {
      return "";
    }
    StringBuilder path = new StringBuilder();
    for (JsonMappingException.Reference reference : mapping.getPath()) {
      if (reference.getFieldName() != null) {
        path.append(path.isEmpty() ? "" : ".").append(reference.getFieldName());
      } else if (reference.getIndex() >= 0) {
        path.append('[').append(reference.getIndex()).append(']');
      }
    }
    return path.toString();
  }

  private static String typeName(Class<?> type) {
    if (type == Integer.class || type == int.class) {
      return "32-bit integer (-2147483648 to 2147483647)";
    }
    if (type == Long.class || type == long.class) {
      return "64-bit integer";
    }
    if (type.isEnum()) {
      return "value of " + type.getSimpleName();
    }
    return type.getSimpleName();
  }
}
