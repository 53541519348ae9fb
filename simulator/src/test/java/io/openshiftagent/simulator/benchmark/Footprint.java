package io.openshiftagent.simulator.benchmark;

import io.openshiftagent.testsupport.ProviderProcess;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A provider process's memory over its life: from its GC log, the most heap it ever used (just
 * before a collection, or now), the most it committed and the most that survived a collection; from
 * the kernel, its peak resident set size (VmHWM) and the CPU time it used.
 *
 * @param peakHeapUsed the heap in use at its highest, garbage included
 * @param peakLiveHeap the heap in use just after a collection, at its highest
 */
public record Footprint(
    long peakHeapUsed,
    long peakHeapCommitted,
    long peakLiveHeap,
    int collections,
    long peakRss,
    Duration cpu) {

  /** {@code GC(12) Pause Young (Allocation Failure) 45M->12M(98M) 3.210ms} */
  private static final Pattern PAUSE =
      Pattern.compile("GC\\(\\d+\\) Pause .*? (\\d+)([KMG])->(\\d+)([KMG])\\((\\d+)([KMG])\\)");

  private static final Pattern HEAP_USED =
      Pattern.compile("(?m)^jvm_memory_used_bytes\\{[^}]*area=\"heap\"[^}]*\\} (\\S+)$");

  /** Reads the footprint of a running process: its GC log, its /metrics and /proc. */
  public static Footprint of(ProviderProcess process, Path gcLog) throws IOException {
    Footprint collected = fromGcLog(Files.readAllLines(gcLog));
    return new Footprint(
        Math.max(collected.peakHeapUsed(), heapUsedNow(process.metrics())),
        collected.peakHeapCommitted(),
        collected.peakLiveHeap(),
        collected.collections(),
        process.peakResidentBytes(),
        process.cpuTime());
  }

  /** What the collections' lines of a GC log ({@code -Xlog:gc}) say; no RSS. */
  public static Footprint fromGcLog(List<String> lines) {
    long used = 0;
    long committed = 0;
    long live = 0;
    int collections = 0;
    for (String line : lines) {
      Matcher m = PAUSE.matcher(line);
      if (m.find()) {
        collections++;
        used = Math.max(used, bytes(m.group(1), m.group(2)));
        live = Math.max(live, bytes(m.group(3), m.group(4)));
        committed = Math.max(committed, bytes(m.group(5), m.group(6)));
      }
    }
    return new Footprint(used, committed, live, collections, 0, Duration.ZERO);
  }

  /** The heap in use now, summed over its pools, from the Prometheus text. */
  static long heapUsedNow(String metrics) {
    Matcher m = HEAP_USED.matcher(metrics);
    double sum = 0;
    while (m.find()) {
      sum += Double.parseDouble(m.group(1));
    }
    return (long) sum;
  }

  static long bytes(String amount, String unit) {
    long n = Long.parseLong(amount);
    return switch (unit) {
      case "K" -> n << 10;
      case "M" -> n << 20;
      default -> n << 30;
    };
  }

  public static String mib(long bytes) {
    return String.format("%.0f MiB", bytes / 1048576.0);
  }

  public List<String> describe() {
    return List.of(
        mib(peakHeapUsed),
        mib(peakHeapCommitted),
        mib(peakLiveHeap),
        "" + collections,
        mib(peakRss),
        String.format("%.0f s", cpu.toMillis() / 1e3));
  }
}
