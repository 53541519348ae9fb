package io.openshiftagent.bootstrap.identity;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.function.UnaryOperator;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A {@code nodeRegistration} value: text with references to host metadata variables, {@code
 * $METADATA_NAME} or {@code ${METADATA_UUID}}. A reference resolves to the variable's value, or to
 * nothing when the host has no such variable, as in the Go provider's host units.
 *
 * @param parts the text and the references, in order
 */
public record MetadataTemplate(List<Part> parts) {
  /** A piece of the value. */
  public sealed interface Part {}

  /** Literal text. */
  public record Text(String text) implements Part {}

  /** A reference to the variable {@code name}. */
  public record Reference(String name) implements Part {}

  /** A variable name, as the Go provider accepts it (no shell expression can hide in it). */
  static final String NAME = "[A-Za-z_][A-Za-z0-9_]*";

  private static final Pattern REFERENCE =
      Pattern.compile("\\$(?:\\{(" + NAME + ")\\}|(" + NAME + "))");

  /**
   * Parses {@code value}; every {@code $} must start a reference.
   *
   * @throws IllegalArgumentException naming the first {@code $} that does not
   */
  public static MetadataTemplate parse(String value) {
    List<Part> parts = new ArrayList<>();
    Matcher m = REFERENCE.matcher(value);
    int at = 0;
    while (at < value.length()) {
      int dollar = value.indexOf('$', at);
      if (dollar < 0) {
        parts.add(new Text(value.substring(at)));
        break;
      }
      if (dollar > at) {
        parts.add(new Text(value.substring(at, dollar)));
      }
      if (!m.find(dollar) || m.start() != dollar) {
        throw new IllegalArgumentException(
            "'"
                + value
                + "': '$' at position "
                + dollar
                + " must start a variable reference such as $METADATA_NAME or ${METADATA_NAME}");
      }
      parts.add(new Reference(m.group(1) != null ? m.group(1) : m.group(2)));
      at = m.end();
    }
    return new MetadataTemplate(List.copyOf(parts));
  }

  /** Whether the value references nothing: it is the same on every host. */
  public boolean isStatic() {
    return parts.stream().noneMatch(Reference.class::isInstance);
  }

  /** The variables referenced, in order of first use. */
  public Set<String> variables() {
    Set<String> names = new LinkedHashSet<>();
    parts.stream()
        .filter(Reference.class::isInstance)
        .forEach(p -> names.add(((Reference) p).name()));
    return names;
  }

  /** The value with each reference replaced by {@code lookup} of its variable. */
  public String resolve(UnaryOperator<String> lookup) {
    StringBuilder resolved = new StringBuilder();
    for (Part part : parts) {
      resolved.append(
          part instanceof Text text ? text.text() : lookup.apply(((Reference) part).name()));
    }
    return resolved.toString();
  }
}
