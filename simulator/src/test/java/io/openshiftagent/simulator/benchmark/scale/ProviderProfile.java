package io.openshiftagent.simulator.benchmark.scale;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import jdk.jfr.consumer.RecordedEvent;
import jdk.jfr.consumer.RecordedFrame;
import jdk.jfr.consumer.RecordedStackTrace;
import jdk.jfr.consumer.RecordingFile;

/**
 * Where a provider's time and allocations go over a phase: a Java Flight Recording ({@code jcmd
 * <pid> JFR.start settings=profile}) read back as the methods most often on top of the CPU samples,
 * the first method of ours ({@code io.openshiftagent}) under them, and the allocated classes and
 * our allocating methods by weight.
 */
final class ProviderProfile {
  private static final String RECORDING = "scale";
  private static final String OURS = "io.openshiftagent.";

  private ProviderProfile() {}

  static void start(long pid) throws IOException, InterruptedException {
    jcmd(pid, "JFR.start", "name=" + RECORDING, "settings=profile");
  }

  /** Stops the recording, keeps it in {@code file} and prints its summary. */
  static void stopAndPrint(long pid, Path file, String provider)
      throws IOException, InterruptedException {
    jcmd(pid, "JFR.stop", "name=" + RECORDING, "filename=" + file.toAbsolutePath());
    Map<String, Long> top = new HashMap<>();
    Map<String, Long> ours = new HashMap<>();
    Map<String, Long> allocated = new HashMap<>();
    Map<String, Long> allocatedBy = new HashMap<>();
    long samples = 0;
    long allocatedTotal = 0;
    for (RecordedEvent event : RecordingFile.readAllEvents(file)) {
      String type = event.getEventType().getName();
      RecordedStackTrace stack = event.getStackTrace();
      if (stack == null || stack.getFrames().isEmpty()) {
        continue;
      }
      if (type.equals("jdk.ExecutionSample")) {
        samples++;
        top.merge(method(stack.getFrames().get(0)), 1L, Long::sum);
        ours.merge(firstOurs(stack.getFrames()), 1L, Long::sum);
      } else if (type.equals("jdk.ObjectAllocationSample")) {
        long weight = event.getLong("weight");
        allocatedTotal += weight;
        allocated.merge(event.getClass("objectClass").getName(), weight, Long::sum);
        allocatedBy.merge(firstOurs(stack.getFrames()), weight, Long::sum);
      }
    }
    System.out.printf(
        "  %s: %d CPU samples, %.0f MiB allocated (recording %s)%n",
        provider, samples, allocatedTotal / 1048576.0, file);
    print("on CPU, top frame", top, samples, "%");
    print("on CPU, our first frame", ours, samples, "%");
    print("allocated, by class", allocated, allocatedTotal, "%");
    print("allocated, by our first frame", allocatedBy, allocatedTotal, "%");
  }

  private static void print(String title, Map<String, Long> counts, long total, String unit) {
    System.out.printf("    %s:%n", title);
    counts.entrySet().stream()
        .sorted(Map.Entry.<String, Long>comparingByValue().reversed())
        .limit(8)
        .forEach(
            e ->
                System.out.printf(
                    "      %5.1f %s  %s%n",
                    e.getValue() * 100.0 / Math.max(1, total), unit, e.getKey()));
  }

  private static String firstOurs(List<RecordedFrame> frames) {
    for (RecordedFrame frame : frames) {
      if (frame.getMethod().getType().getName().startsWith(OURS)) {
        return method(frame);
      }
    }
    return "(none of ours)";
  }

  private static String method(RecordedFrame frame) {
    String type = frame.getMethod().getType().getName();
    return type.substring(type.lastIndexOf('.') + 1) + "." + frame.getMethod().getName();
  }

  private static void jcmd(long pid, String... command) throws IOException, InterruptedException {
    Path jcmd = Path.of(System.getProperty("java.home"), "bin", "jcmd");
    List<String> line = new java.util.ArrayList<>(List.of(jcmd.toString(), Long.toString(pid)));
    line.addAll(List.of(command));
    Process process = new ProcessBuilder(line).redirectErrorStream(true).start();
    String out = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    if (!process.waitFor(2, TimeUnit.MINUTES) || process.exitValue() != 0) {
      throw new IOException(String.join(" ", line) + " failed: " + out);
    }
  }
}
