package io.openshiftagent.provider.runtime;

import io.fabric8.kubernetes.api.model.authentication.TokenReview;
import io.fabric8.kubernetes.api.model.authentication.TokenReviewBuilder;
import io.fabric8.kubernetes.api.model.authentication.UserInfo;
import io.fabric8.kubernetes.api.model.authorization.v1.SubjectAccessReview;
import io.fabric8.kubernetes.api.model.authorization.v1.SubjectAccessReviewBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.HexFormat;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Who may read {@code /metrics}, decided as controller-runtime's {@code
 * WithAuthenticationAndAuthorization} filter decides it: the bearer token is authenticated by a
 * TokenReview, and its user authorized by a SubjectAccessReview for {@code get} on the non-resource
 * URL {@code /metrics}. Answers are remembered a while per token (by its hash), so that a scraper
 * does not cost two API requests per scrape: a grant for {@link #ALLOWED_FOR}, a refusal for {@link
 * #DENIED_FOR}.
 */
final class MetricsAccess {
  private static final Logger LOG = LoggerFactory.getLogger(MetricsAccess.class);
  static final Duration ALLOWED_FOR = Duration.ofMinutes(1);
  static final Duration DENIED_FOR = Duration.ofSeconds(10);
  private static final int MAX_REMEMBERED = 1000;

  /** The answer to a request: 200 (allowed), 401 (who are you?) or 403 (not you). */
  record Decision(int status, String reason) {
    boolean allowed() {
      return status == 200;
    }
  }

  private record Remembered(Decision decision, Instant until) {}

  private final KubernetesClient client;
  private final Clock clock;
  private final Map<String, Remembered> remembered = new ConcurrentHashMap<>();

  MetricsAccess(KubernetesClient client, Clock clock) {
    this.client = client;
    this.clock = clock;
  }

  /** Decides on the value of a request's {@code Authorization} header, if any. */
  Decision decide(Optional<String> authorization, String path) {
    Optional<String> token =
        authorization
            .filter(a -> a.regionMatches(true, 0, "Bearer ", 0, 7))
            .map(a -> a.substring(7).trim())
            .filter(t -> !t.isEmpty());
    if (token.isEmpty()) {
      return new Decision(401, "Unauthorized: a bearer token is needed");
    }
    String key = hash(token.get()) + " " + path;
    Instant now = clock.instant();
    Remembered known = remembered.get(key);
    if (known != null && now.isBefore(known.until())) {
      return known.decision();
    }
    Decision decision;
    try {
      decision = review(token.get(), path);
    } catch (KubernetesClientException e) {
      // Not remembered: the next scrape asks again.
      LOG.warn("cannot review a metrics request: {}", e.getMessage());
      return new Decision(500, "Internal Server Error: the request could not be reviewed");
    }
    if (remembered.size() >= MAX_REMEMBERED) {
      remembered.clear();
    }
    remembered.put(
        key, new Remembered(decision, now.plus(decision.allowed() ? ALLOWED_FOR : DENIED_FOR)));
    return decision;
  }

  private Decision review(String token, String path) {
    TokenReview review =
        client
            .authentication()
            .v1()
            .tokenReviews()
            .create(new TokenReviewBuilder().withNewSpec().withToken(token).endSpec().build());
    if (review.getStatus() == null || !Boolean.TRUE.equals(review.getStatus().getAuthenticated())) {
      return new Decision(401, "Unauthorized");
    }
    UserInfo user = review.getStatus().getUser();
    SubjectAccessReview access =
        client
            .authorization()
            .v1()
            .subjectAccessReview()
            .create(
                new SubjectAccessReviewBuilder()
                    .withNewSpec()
                    .withUser(user.getUsername())
                    .withUid(user.getUid())
                    .withGroups(user.getGroups())
                    .withExtra(user.getExtra())
                    .withNewNonResourceAttributes()
                    .withPath(path)
                    .withVerb("get")
                    .endNonResourceAttributes()
                    .endSpec()
                    .build());
    if (access.getStatus() != null && Boolean.TRUE.equals(access.getStatus().getAllowed())) {
      return new Decision(200, "OK");
    }
    return new Decision(
        403, "Forbidden: user \"" + user.getUsername() + "\" may not get path \"" + path + "\"");
  }

  private static String hash(String token) {
    try {
      return HexFormat.of()
          .formatHex(
              MessageDigest.getInstance("SHA-256").digest(token.getBytes(StandardCharsets.UTF_8)));
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException(e);
    }
  }
}
