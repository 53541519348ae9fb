package io.openshiftagent.testsupport.badinput;

import java.util.List;

/**
 * One change to a valid object: the field it is about (dotted, relative to the kind's spec, or
 * {@code metadata.annotations}), the edits that make it, what admission should do, and a short
 * label for reports.
 */
public record Change(String field, List<Edit> edits, Verdict verdict, String label) {
  /** A value that removes the field. */
  public static final Object REMOVE = new Object();

  /** Sets {@code path} (from the spec root, or from the object root) to {@code value}. */
  public record Edit(boolean fromObjectRoot, List<String> path, Object value) {}

  static Change spec(String field, Object value, Verdict verdict, String label) {
    return new Change(
        field, List.of(new Edit(false, List.of(field.split("\\.")), value)), verdict, label);
  }

  @Override
  public String toString() {
    return field + ": " + label + " (" + verdict + ")";
  }
}
