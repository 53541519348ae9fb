package io.openshiftagent.simulator.benchmark.scale;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * What a JVM's heap holds once its garbage is collected: {@code jcmd <pid> GC.class_histogram}
 * (which runs a full collection first), its total and its largest classes. The live heap of a
 * provider with the fleet present, against its live heap with nothing, is its memory per Machine.
 *
 * @param liveBytes the heap's live objects, in bytes
 * @param top the classes holding the most, largest first
 */
record HeapHistogram(long liveBytes, List<Entry> top, String text) {
  private static final Pattern ROW = Pattern.compile("^\\s*\\d+:\\s+(\\d+)\\s+(\\d+)\\s+(\\S+)");
  private static final Pattern TOTAL = Pattern.compile("^Total\\s+(\\d+)\\s+(\\d+)");

  /** One class: how many instances, how many bytes. */
  record Entry(String className, long instances, long bytes) {}

  /** Takes the histogram of the process {@code pid}, and keeps its text in {@code file}. */
  static HeapHistogram of(long pid, Path file) throws IOException, InterruptedException {
    Path jcmd = Path.of(System.getProperty("java.home"), "bin", "jcmd");
    Process process =
        new ProcessBuilder(jcmd.toString(), Long.toString(pid), "GC.class_histogram")
            .redirectErrorStream(true)
            .start();
    String text = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    if (!process.waitFor(2, TimeUnit.MINUTES) || process.exitValue() != 0) {
      throw new IOException("jcmd " + pid + " GC.class_histogram failed: " + text);
    }
    Files.createDirectories(file.getParent());
    Files.writeString(file, text);
    return parse(text);
  }

  static HeapHistogram parse(String text) {
    long total = 0;
    List<Entry> top = new ArrayList<>();
    for (String line : text.split("\n")) {
      Matcher row = ROW.matcher(line);
      if (row.find() && top.size() < 15) {
        top.add(
            new Entry(row.group(3), Long.parseLong(row.group(1)), Long.parseLong(row.group(2))));
      }
      Matcher t = TOTAL.matcher(line);
      if (t.find()) {
        total = Long.parseLong(t.group(2));
      }
    }
    return new HeapHistogram(total, top, text);
  }
}
