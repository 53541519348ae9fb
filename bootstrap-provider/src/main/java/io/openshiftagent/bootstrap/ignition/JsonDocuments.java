package io.openshiftagent.bootstrap.ignition;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.List;

/**
 * JSON checks and rendering for ignition documents, the user-supplied overrides and installer args.
 */
public final class JsonDocuments {
  static final ObjectMapper MAPPER = new ObjectMapper();

  private JsonDocuments() {}

  /** Whether {@code text} is a JSON object (what an ignition override must be). */
  public static boolean isObject(String text) {
    try {
      JsonNode node = MAPPER.readTree(text);
      return node != null && node.isObject();
    } catch (JsonProcessingException e) {
      return false;
    }
  }

  /** An ignition {@code storage.files} entry that writes {@code content} at {@code path}. */
  static ObjectNode ignitionFile(String path, int mode, String content) {
    ObjectNode file = MAPPER.createObjectNode();
    file.put("path", path);
    file.put("mode", mode);
    file.put("overwrite", true);
    file.putObject("contents")
        .put(
            "source",
            "data:text/plain;charset=utf-8;base64,"
                + Base64.getEncoder().encodeToString(content.getBytes(StandardCharsets.UTF_8)));
    return file;
  }

  static String write(JsonNode node) {
    try {
      return MAPPER.writeValueAsString(node);
    } catch (JsonProcessingException e) {
      throw new IllegalStateException(e);
    }
  }

  public static String array(List<String> values) {
    try {
      return MAPPER.writeValueAsString(values);
    } catch (JsonProcessingException e) {
      throw new IllegalStateException(e);
    }
  }
}
