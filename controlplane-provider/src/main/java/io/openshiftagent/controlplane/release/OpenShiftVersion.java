package io.openshiftagent.controlplane.release;

import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * An OpenShift or OKD release version ({@code 4.20.0}, {@code 4.20.0-ec.1}, {@code
 * 4.19.0-okd-scos.1}), ordered as semantic versions.
 */
public record OpenShiftVersion(int major, int minor, int patch, String preRelease)
    implements Comparable<OpenShiftVersion> {
  private static final Pattern SEMVER =
      Pattern.compile("^v?(\\d+)\\.(\\d+)\\.(\\d+)(?:-([0-9A-Za-z.-]+))?(?:\\+[0-9A-Za-z.-]+)?$");
  private static final Pattern OKD_GA = Pattern.compile("^okd-scos\\.\\d+$");

  public static OpenShiftVersion parse(String text) {
    Matcher m = text == null ? null : SEMVER.matcher(text.trim());
    if (m == null || !m.matches()) {
      throw new IllegalArgumentException("not an OpenShift version: " + text);
    }
    return new OpenShiftVersion(
        Integer.parseInt(m.group(1)),
        Integer.parseInt(m.group(2)),
        Integer.parseInt(m.group(3)),
        m.group(4) == null ? "" : m.group(4));
  }

  /** OKD (CentOS Stream CoreOS) releases carry a pre-release starting with okd-scos. */
  public boolean isOkd() {
    return preRelease.startsWith("okd-scos");
  }

  /**
   * A generally available release, which the Cluster Version Operator can find by version alone: no
   * pre-release, or OKD's {@code okd-scos.N}.
   */
  public boolean isGenerallyAvailable() {
    return preRelease.isEmpty() || OKD_GA.matcher(preRelease).matches();
  }

  /** The Kubernetes minor version this release runs: OpenShift 4.N runs Kubernetes 1.(N+13). */
  public String kubernetesMinorVersion() {
    return "v1." + (minor + 13L);
  }

  @Override
  public int compareTo(OpenShiftVersion o) {
    int c = Integer.compare(major, o.major);
    if (c == 0) {
      c = Integer.compare(minor, o.minor);
    }
    if (c == 0) {
      c = Integer.compare(patch, o.patch);
    }
    return c != 0 ? c : comparePreRelease(preRelease, o.preRelease);
  }

  private static int comparePreRelease(String a, String b) {
    if (a.equals(b)) {
      return 0;
    }
    if (a.isEmpty() || b.isEmpty()) {
      return a.isEmpty() ? 1 : -1; // a release sorts after its pre-releases
    }
    String[] x = a.split("\\.");
    String[] y = b.split("\\.");
    for (int i = 0; i < Math.min(x.length, y.length); i++) {
      boolean xNum = x[i].matches("\\d+");
      boolean yNum = y[i].matches("\\d+");
      int c;
      if (xNum && yNum) {
        // Semver numbers have no leading zeros and may exceed 64 bits: the longer is larger.
        c =
            x[i].length() != y[i].length()
                ? Integer.compare(x[i].length(), y[i].length())
                : x[i].compareTo(y[i]);
      } else if (xNum != yNum) {
        c = xNum ? -1 : 1;
      } else {
        c = x[i].compareTo(y[i]);
      }
      if (c != 0) {
        return c;
      }
    }
    return Integer.compare(x.length, y.length);
  }

  @Override
  public String toString() {
    return major + "." + minor + "." + patch + (preRelease.isEmpty() ? "" : "-" + preRelease);
  }
}
