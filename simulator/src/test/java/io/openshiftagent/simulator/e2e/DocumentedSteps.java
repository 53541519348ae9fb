package io.openshiftagent.simulator.e2e;

import io.openshiftagent.testsupport.TestPaths;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The numbered steps of a section of a document, each with the shell blocks ({@code ```sh}) written
 * in it, run word for word: each block by {@code bash -euo pipefail} in the repository's root, with
 * the hub's kubeconfig and the built {@code kubectl} first on the {@code PATH}. What a step says in
 * prose alone is the caller's to do.
 */
final class DocumentedSteps {
  private static final Logger LOG = LoggerFactory.getLogger(DocumentedSteps.class);
  private static final Pattern STEP = Pattern.compile("^(\\d+)\\. \\*\\*");
  private static final Pattern FENCE = Pattern.compile("^(\\s*)```(\\w*)\\s*$");

  private final String document;
  private final Map<Integer, List<String>> blocks;

  private DocumentedSteps(String document, Map<Integer, List<String>> blocks) {
    this.document = document;
    this.blocks = blocks;
  }

  /** The steps of the section under {@code heading} ({@code ## ...}) of {@code document}. */
  static DocumentedSteps of(Path document, String heading) {
    List<String> lines;
    try {
      lines = Files.readAllLines(document);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    int start = lines.indexOf(heading);
    if (start < 0) {
      throw new IllegalArgumentException(document + " has no heading " + heading);
    }
    Map<Integer, List<String>> blocks = new LinkedHashMap<>();
    Integer step = null;
    StringBuilder block = null;
    String indent = "";
    for (String line : lines.subList(start + 1, lines.size())) {
      if (block == null && line.startsWith("#")) {
        break; // the next section
      }
      Matcher fence = FENCE.matcher(line);
      if (block != null) {
        if (fence.matches()) {
          blocks.get(step).add(block.toString());
          block = null;
        } else {
          block.append(line.startsWith(indent) ? line.substring(indent.length()) : line);
          block.append('\n');
        }
        continue;
      }
      Matcher numbered = STEP.matcher(line);
      if (numbered.find()) {
        step = Integer.valueOf(numbered.group(1));
        blocks.put(step, new ArrayList<>());
      } else if (fence.matches() && step != null) {
        block = "sh".equals(fence.group(2)) ? new StringBuilder() : null;
        indent = fence.group(1);
      }
    }
    return new DocumentedSteps(document.getFileName() + " " + heading, blocks);
  }

  /** How many steps the section numbers. */
  int count() {
    return blocks.size();
  }

  /** The shell blocks of step {@code number}. */
  List<String> blocks(int number) {
    List<String> of = blocks.get(number);
    if (of == null) {
      throw new IllegalArgumentException(document + " has no step " + number);
    }
    return of;
  }

  /** Runs step {@code number}'s blocks in order; returns their output; fails on the first error. */
  String run(int number, Path kubeconfig) {
    StringBuilder output = new StringBuilder();
    for (String block : blocks(number)) {
      output.append(bash(block, kubeconfig, number));
    }
    return output.toString();
  }

  private String bash(String script, Path kubeconfig, int number) {
    try {
      Path log = Files.createTempFile("documented-step", ".log");
      try {
        ProcessBuilder builder =
            new ProcessBuilder("bash", "-euo", "pipefail", "-c", script)
                .directory(TestPaths.repoRoot().toFile())
                .redirectErrorStream(true)
                .redirectOutput(log.toFile());
        builder.environment().put("KUBECONFIG", kubeconfig.toAbsolutePath().toString());
        builder
            .environment()
            .put("PATH", TestPaths.kubectl().getParent() + ":" + System.getenv("PATH"));
        Process process = builder.start();
        boolean exited = process.waitFor(2, TimeUnit.MINUTES);
        if (!exited) {
          process.destroyForcibly();
        }
        String output = Files.readString(log);
        LOG.info("{}, step {}:\n{}\n{}", document, number, script.strip(), output.strip());
        if (!exited || process.exitValue() != 0) {
          throw new AssertionError(
              document
                  + ", step "
                  + number
                  + (exited ? " exited " + process.exitValue() : " did not end in 2 minutes")
                  + ":\n"
                  + script
                  + output);
        }
        return output;
      } finally {
        Files.delete(log);
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(e);
    }
  }
}
