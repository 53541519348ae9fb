package io.openshiftagent.testsupport;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The releases users name by version, as quay.io serves them: OpenShift's z-stream releases of each
 * minor the control plane accepts (x86_64) and the recent OKD okd-scos releases, from the compact
 * list {@code releases/published.txt} (a minor per line: its first and last release, every number
 * between served). A world's registry serves them all ({@link ReleaseRegistry#withPublished()}).
 */
public final class PublishedReleases {
  private static final String RESOURCE = "/releases/published.txt";

  /** A release name with its last number apart: {@code 4.16.} {@code 70}, {@code ...scos.} 8. */
  private static final Pattern LAST_NUMBER = Pattern.compile("(.*\\D)(\\d+)");

  private PublishedReleases() {}

  /**
   * Every published release as {@link ReleaseRegistry} names them: {@code <version>-x86_64} for
   * OpenShift, {@code <version>} for OKD.
   */
  public static List<String> all() {
    List<String> releases = new ArrayList<>();
    for (String line : lines()) {
      String[] range = line.trim().split("\\s+");
      Matcher first = LAST_NUMBER.matcher(range[0]);
      Matcher last = LAST_NUMBER.matcher(range[range.length - 1]);
      if (range.length != 2
          || !first.matches()
          || !last.matches()
          || !first.group(1).equals(last.group(1))) {
        throw new IllegalStateException(RESOURCE + ": not a range of one minor: " + line);
      }
      boolean okd = range[0].contains("-okd-scos");
      for (int n = Integer.parseInt(first.group(2)); n <= Integer.parseInt(last.group(2)); n++) {
        releases.add(first.group(1) + n + (okd ? "" : "-x86_64"));
      }
    }
    return releases;
  }

  /**
   * The ranges, as people read them: {@code 4.14.0–4.14.71, 4.15.0–4.15.67, ...} (the OKD ones when
   * {@code okd}, else OpenShift's).
   */
  public static String ranges(boolean okd) {
    return lines().stream()
        .map(line -> line.trim().split("\\s+"))
        .filter(range -> range[0].contains("-okd-scos") == okd)
        .map(range -> range[0] + "–" + range[range.length - 1])
        .collect(java.util.stream.Collectors.joining(", "));
  }

  private static List<String> lines() {
    try (InputStream in = PublishedReleases.class.getResourceAsStream(RESOURCE)) {
      return new String(in.readAllBytes(), StandardCharsets.UTF_8)
          .lines()
          .filter(l -> !l.isBlank() && !l.startsWith("#"))
          .toList();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
