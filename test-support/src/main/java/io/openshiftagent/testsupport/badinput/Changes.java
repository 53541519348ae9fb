package io.openshiftagent.testsupport.badinput;

import static io.openshiftagent.testsupport.badinput.Verdict.ACCEPTED;
import static io.openshiftagent.testsupport.badinput.Verdict.REJECTED;

import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;

/** Building blocks of the change catalogs: one field, a verdict, a readable label. */
final class Changes {
  private Changes() {}

  static Arbitrary<Change> accepted(String field, Arbitrary<?> values) {
    return values.map(v -> Change.spec(field, v, ACCEPTED, describe(v)));
  }

  static Arbitrary<Change> rejected(String field, Arbitrary<?> values) {
    return values.map(v -> Change.spec(field, v, REJECTED, describe(v)));
  }

  static Arbitrary<Change> accepted(String field, Object... values) {
    return accepted(field, Arbitraries.of(values));
  }

  static Arbitrary<Change> rejected(String field, Object... values) {
    return rejected(field, Arbitraries.of(values));
  }

  static Arbitrary<Change> removed(String field, Verdict verdict) {
    return Arbitraries.just(Change.spec(field, Change.REMOVE, verdict, "removed"));
  }

  /** Text up to {@code max} code points: short, or exactly at the limit; one over is refused. */
  static Arbitrary<Change> boundedText(String field, int max) {
    return boundedText(field, 0, max);
  }

  static Arbitrary<Change> boundedText(String field, int min, int max) {
    List<Arbitrary<Change>> options = new ArrayList<>();
    options.add(accepted(field, Values.text(Math.max(min, 0), Math.min(max, 40))));
    options.add(accepted(field, Values.textOfLength(max)));
    options.add(rejected(field, Values.textOfLength(max + 1)));
    if (min > 0) {
      options.add(rejected(field, Values.textOfLength(min - 1)));
    }
    return Arbitraries.oneOf(options);
  }

  /**
   * An http:// URL up to {@code max} characters, as assisted-service takes a proxy; one over,
   * another scheme or no URL is refused.
   */
  static Arbitrary<Change> httpUrl(String field, int max) {
    String prefix = "http://proxy.example.com:3128/";
    return Arbitraries.oneOf(
        accepted(field, "http://proxy.example.com:3128", "http://10.0.0.1:3128"),
        accepted(field, prefix + "a".repeat(max - prefix.length())),
        rejected(field, prefix + "a".repeat(max + 1 - prefix.length())),
        rejected(field, "https://proxy.example.com:3128", "proxy.example.com:3128"));
  }

  /** A list of up to {@code maxItems} items, at the limit, and one over. */
  static Arbitrary<Change> boundedList(String field, Arbitrary<?> items, int maxItems) {
    return Arbitraries.oneOf(
        accepted(field, items.list().ofMaxSize(Math.min(maxItems, 6))),
        accepted(field, items.list().ofSize(maxItems)),
        rejected(field, items.list().ofSize(maxItems + 1)));
  }

  /** A list whose items are good but for one bad one, at a random place. */
  static Arbitrary<Change> listWithBadItem(String field, Arbitrary<?> good, Arbitrary<?> bad) {
    return net.jqwik.api.Combinators.combine(good.list().ofMaxSize(3), bad, Arbitraries.integers())
        .as(
            (items, item, at) -> {
              List<Object> list = new ArrayList<>(items);
              list.add(Math.floorMod(at, list.size() + 1), item);
              return Change.spec(field, list, REJECTED, describe(list));
            });
  }

  /** The same change set in another place of the spec (the control plane's embedded config). */
  static Change prefixed(String prefix, Change change) {
    if (prefix.isEmpty()) {
      return change;
    }
    List<String> path = new ArrayList<>(List.of(prefix.split("\\.")));
    return new Change(
        prefix + "." + change.field(),
        change.edits().stream()
            .map(
                e -> {
                  List<String> full = new ArrayList<>(path);
                  full.addAll(e.path());
                  return new Change.Edit(e.fromObjectRoot(), full, e.value());
                })
            .toList(),
        change.verdict(),
        change.label());
  }

  /** An annotation on the object (or, for a template, on what it makes). */
  static Arbitrary<Change> annotation(Kind kind, String key, Arbitrary<String> values) {
    String field = String.join(".", kind.annotationsPath());
    List<String> path = new ArrayList<>(kind.annotationsPath());
    path.add(key);
    return values.map(
        v ->
            new Change(
                field,
                List.of(new Change.Edit(true, path, v)),
                ACCEPTED,
                key.substring(key.indexOf('/') + 1) + "=" + describe(v)));
  }

  /** A short, printable description of a generated value; huge ones by size. */
  static String describe(Object value) {
    if (value == Change.REMOVE) {
      return "removed";
    }
    if (value instanceof String s) {
      int length = Values.length(s);
      if (length > 40) {
        return "<" + length + " code points: " + escape(s.substring(0, 12)) + "...>";
      }
      return "\"" + escape(s) + "\"";
    }
    if (value instanceof Collection<?> list) {
      if (list.size() > 6) {
        return "<" + list.size() + " items, first " + describe(list.iterator().next()) + ">";
      }
      return list.stream().map(Changes::describe).toList().toString();
    }
    if (value instanceof Map<?, ?> map) {
      StringBuilder s = new StringBuilder("{");
      map.forEach((k, v) -> s.append(k).append('=').append(describe(v)).append(", "));
      return (s.length() > 1 ? s.substring(0, s.length() - 2) : s) + "}";
    }
    return String.valueOf(value);
  }

  private static String escape(String s) {
    StringBuilder out = new StringBuilder();
    s.codePoints()
        .forEach(
            cp -> {
              if (cp < 0x20 || cp == 0x7F || (cp > 0x7E && !Character.isLetterOrDigit(cp))) {
                out.append(String.format("\\u{%x}", cp));
              } else {
                out.appendCodePoint(cp);
              }
            });
    return out.toString();
  }
}
