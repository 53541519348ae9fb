package io.openshiftagent.bootstrap;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.util.List;

/** JSON checks and rendering for the user-supplied ignition overrides and the installer args. */
final class JsonDocuments {
  static final ObjectMapper MAPPER = new ObjectMapper();

  private JsonDocuments() {}

  /** Whether {@code text} is a JSON object (what an ignition override must be). */
  static boolean isObject(String text) {
    try {
      JsonNode node = MAPPER.readTree(text);
      return node != null && node.isObject();
    } catch (JsonProcessingException e) {
      return false;
    }
  }

  static String array(List<String> values) {
    try {
      return MAPPER.writeValueAsString(values);
    } catch (JsonProcessingException e) {
      throw new IllegalStateException(e);
    }
  }
}
