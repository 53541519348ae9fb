package io.openshiftagent.controlplane.cluster;

import io.openshiftagent.api.external.assisted.AgentClusterInstall;
import io.openshiftagent.api.external.assisted.AgentClusterInstallStatus;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * The cluster validations assisted-service reports failing in an AgentClusterInstall's {@code
 * status.validationsInfo} (by category, each {@code {id, status, message}}), in a stable short
 * form. The Validated condition's message says the same, but joins the messages with commas, which
 * the messages themselves contain, so only {@code validationsInfo} tells one validation from the
 * next and a failure from a validation still pending.
 */
final class ClusterValidations {
  /**
   * Validations that fail while hosts are still being discovered, in the normal course of an
   * installation: the hosts' own validations, and the control-plane hosts not all registered yet.
   * Where a host is stuck is the host's story, not the cluster's configuration.
   */
  static final Set<String> HOST_PROGRESS =
      Set.of("all-hosts-are-ready-to-install", "sufficient-masters-count");

  /** The service's VIP check while the hosts have not answered it yet: progress too. */
  private static final Pattern NOT_VERIFIED_YET = Pattern.compile("(?i)\\bnot verified yet\\b");

  /** go-multierror's heading ("1 error occurred:"), and its bullets. */
  private static final Pattern MULTI_ERROR_HEADING = Pattern.compile("^\\d+ errors? occurred:\\s*");

  private static final Pattern BULLET = Pattern.compile("\\s*\\n\\s*\\*\\s*");

  /** The words of a message kept: enough to say what fails, not the advice that follows. */
  static final int WORDS = 12;

  /** One failing validation, with the first words of the service's message. */
  record Failing(String id, String firstWords) {
    @Override
    public String toString() {
      return firstWords.isEmpty() ? id : id + " (" + firstWords + ")";
    }
  }

  private ClusterValidations() {}

  /**
   * The validations a user must act on ({@code failure} or {@code error}, not {@code pending}),
   * sorted by id, leaving out {@link #HOST_PROGRESS} and VIPs not verified yet.
   */
  static List<Failing> needingUser(AgentClusterInstall install) {
    List<Failing> failing = new ArrayList<>();
    if (install.getStatus() == null || install.getStatus().validationsInfo == null) {
      return failing;
    }
    for (List<AgentClusterInstallStatus.Validation> category :
        install.getStatus().validationsInfo.values()) {
      for (AgentClusterInstallStatus.Validation v :
          category == null ? List.<AgentClusterInstallStatus.Validation>of() : category) {
        if (v.id != null
            && ("failure".equals(v.status) || "error".equals(v.status))
            && !HOST_PROGRESS.contains(v.id)) {
          String message = v.message == null ? "" : v.message;
          if (!NOT_VERIFIED_YET.matcher(message).find()) {
            failing.add(new Failing(v.id, firstWords(message)));
          }
        }
      }
    }
    failing.sort(Comparator.comparing(Failing::id));
    return failing;
  }

  /**
   * The first clause of {@code message} (up to a ';' or the end of its first sentence), at most
   * {@link #WORDS} words: it names what fails; the advice after it stays in the service's status.
   */
  static String firstWords(String message) {
    String text = MULTI_ERROR_HEADING.matcher(message.strip()).replaceFirst("");
    text = BULLET.matcher(text).replaceAll("; ").replaceFirst("^\\*\\s*", "").strip();
    int end = text.length();
    int semicolon = text.indexOf(';');
    if (semicolon >= 0) {
      end = semicolon;
    }
    int sentence = text.indexOf(". ");
    if (sentence >= 0 && sentence < end) {
      end = sentence;
    }
    String clause = text.substring(0, end).replaceAll("\\.$", "").strip();
    String[] words = clause.split("\\s+");
    if (words.length <= WORDS) {
      return clause;
    }
    return String.join(" ", List.of(words).subList(0, WORDS)) + " …";
  }
}
