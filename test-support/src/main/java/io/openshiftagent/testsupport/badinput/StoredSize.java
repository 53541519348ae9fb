package io.openshiftagent.testsupport.badinput;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.client.utils.Serialization;
import java.nio.charset.StandardCharsets;

/**
 * How large an object is once the API server has stored it: its JSON as the API server writes it
 * (UTF-8; {@code <}, {@code >}, {@code &}, U+2028 and U+2029 escaped to six bytes). etcd refuses a
 * write above 1.5 MiB, so an object whose text is dense in such characters can be refused for its
 * size below our per-field bounds, with a message that names no field (docs/reliability.md).
 */
public final class StoredSize {
  /** etcd's default --max-request-bytes. */
  public static final long ETCD_LIMIT = 1536 * 1024;

  /** The API server's limit on a request body (its JSON as sent, not as stored). */
  static final long REQUEST_LIMIT = 3 * 1024 * 1024;

  /** Below this estimate the API server must decide by its rules alone (metadata is extra). */
  static final long SURELY_STORABLE = ETCD_LIMIT - 64 * 1024;

  private StoredSize() {}

  public static long estimate(GenericKubernetesResource object) {
    String json = Serialization.asJson(object);
    long bytes = json.getBytes(StandardCharsets.UTF_8).length;
    for (int i = 0; i < json.length(); i++) {
      char c = json.charAt(i);
      if (c == '<' || c == '>' || c == '&') {
        bytes += 5; // one byte becomes \u003c
      } else if (c == '\u2028' || c == '\u2029') {
        bytes += 3; // three bytes become \u2028
      }
    }
    return bytes;
  }
}
