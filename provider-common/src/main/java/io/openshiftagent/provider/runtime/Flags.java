package io.openshiftagent.provider.runtime;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * A command line as Cluster API's managers read theirs (Go's pflag): {@code --flag=value}, {@code
 * --flag value}, a boolean {@code --flag} alone, {@code _} read as {@code -} in names, and the klog
 * verbosity as {@code -v=N}, {@code -vN}, {@code -v N} or {@code --v=N}. Deprecated spellings are
 * accepted and noted.
 */
final class Flags {
  /**
   * One flag. {@code value} is the placeholder in the help, empty for a boolean; {@code
   * replacedBy}, when present, marks it deprecated in favour of that flag.
   */
  record Flag(String name, String value, String description, Optional<String> replacedBy) {
    static Flag of(String name, String value, String description) {
      return new Flag(name, value, description, Optional.empty());
    }

    static Flag deprecated(String name, String value, String replacedBy) {
      return new Flag(name, value, "", Optional.of(replacedBy));
    }

    boolean isBoolean() {
      return value.isEmpty();
    }
  }

  /** What was given: each flag's last value (booleans as {@code true}/{@code false}). */
  record Parsed(Map<String, String> values, List<String> deprecated) {
    Optional<String> get(String name) {
      return Optional.ofNullable(values.get(name));
    }

    boolean has(String name) {
      return values.containsKey(name);
    }
  }

  private final List<Flag> flags;

  Flags(List<Flag> flags) {
    this.flags = List.copyOf(flags);
  }

  /** Throws {@link IllegalArgumentException} with the reason. */
  Parsed parse(String... args) {
    Map<String, String> values = new LinkedHashMap<>();
    List<String> deprecated = new ArrayList<>();
    for (int i = 0; i < args.length; i++) {
      String arg = args[i];
      String name;
      String value = null;
      if (arg.startsWith("--")) {
        name = arg.substring(2);
      } else if (arg.startsWith("-v")) {
        name = "v";
        String rest = arg.substring(2);
        value = rest.isEmpty() ? null : rest.startsWith("=") ? rest.substring(1) : rest;
      } else {
        throw new IllegalArgumentException("unexpected argument '" + arg + "'");
      }
      int eq = name.indexOf('=');
      if (eq >= 0) {
        value = name.substring(eq + 1);
        name = name.substring(0, eq);
      }
      name = name.replace('_', '-');
      Flag flag = find(name);
      if (flag.isBoolean()) {
        if (value == null && i + 1 < args.length && isBooleanWord(args[i + 1])) {
          value = args[++i]; // --leader-elect true, as this provider has always read it
        }
        value = value == null ? "true" : parseBoolean(name, value);
      } else if (value == null && i + 1 < args.length && !args[i + 1].startsWith("-")) {
        value = args[++i];
      } else if (value == null) {
        throw new IllegalArgumentException(dashes(name) + " needs a value");
      }
      flag.replacedBy().ifPresent(r -> deprecated.add(dashes(flag.name()) + ": use " + r));
      values.put(name, value);
    }
    return new Parsed(values, deprecated);
  }

  /** The --help text: the flags, then the deprecated spellings. */
  String usage(String command, String description) {
    StringBuilder text = new StringBuilder();
    text.append("Usage: ")
        .append(command)
        .append(" [flags]\n\n")
        .append(description)
        .append("\n\nFlags:\n");
    for (Flag flag : flags) {
      if (flag.replacedBy().isEmpty()) {
        text.append(line(flag, flag.description()));
      }
    }
    text.append("\nDeprecated flags (still accepted):\n");
    for (Flag flag : flags) {
      flag.replacedBy()
          .ifPresent(r -> text.append(line(flag, "DEPRECATED: use " + r + " instead")));
    }
    return text.toString();
  }

  private static String line(Flag flag, String description) {
    String left = "  " + dashes(flag.name()) + (flag.isBoolean() ? "" : "=" + flag.value());
    return String.format("%-44s %s%n", left, description);
  }

  private Flag find(String name) {
    return flags.stream()
        .filter(f -> f.name().equals(name))
        .findFirst()
        .orElseThrow(() -> new IllegalArgumentException("unknown flag " + dashes(name)));
  }

  private static String dashes(String name) {
    return (name.equals("v") ? "-" : "--") + name;
  }

  private static boolean isBooleanWord(String word) {
    return word.equalsIgnoreCase("true") || word.equalsIgnoreCase("false");
  }

  /** Go's strconv.ParseBool. */
  private static String parseBoolean(String name, String value) {
    return switch (value) {
      case "1", "t", "T", "TRUE", "true", "True" -> "true";
      case "0", "f", "F", "FALSE", "false", "False" -> "false";
      default ->
          throw new IllegalArgumentException(
              dashes(name) + " must be true or false, not '" + value + "'");
    };
  }
}
