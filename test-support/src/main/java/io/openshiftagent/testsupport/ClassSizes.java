package io.openshiftagent.testsupport;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;

/**
 * The size rule of the product's code: a class a reader can hold in mind, at most {@link #LIMIT}
 * lines of source, with no exception written down. Checked by each module's {@code ClassSizeTest}
 * over its own {@code src/main/java} (Maven runs a module's tests in its directory).
 */
public final class ClassSizes {
  public static final int LIMIT = 300;

  private ClassSizes() {}

  /** The source files under the module's {@code src/main/java} longer than {@link #LIMIT}. */
  public static List<String> overTheLimit() {
    Path sources = Path.of("src", "main", "java");
    try (Stream<Path> files = Files.walk(sources)) {
      return files
          .filter(f -> f.toString().endsWith(".java"))
          .map(f -> new Sized(f, lines(f)))
          .filter(sized -> sized.lines() > LIMIT)
          .map(sized -> sized.file() + " (" + sized.lines() + " lines)")
          .sorted()
          .toList();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private record Sized(Path file, long lines) {}

  private static long lines(Path file) {
    try (Stream<String> lines = Files.lines(file)) {
      return lines.count();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
