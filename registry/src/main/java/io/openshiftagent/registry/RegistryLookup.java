package io.openshiftagent.registry;

import com.google.cloud.tools.jib.api.InsecureRegistryException;
import com.google.cloud.tools.jib.api.RegistryAuthenticationFailedException;
import com.google.cloud.tools.jib.api.RegistryException;
import com.google.cloud.tools.jib.api.RegistryUnauthorizedException;
import com.google.cloud.tools.jib.event.EventHandlers;
import com.google.cloud.tools.jib.http.FailoverHttpClient;
import com.google.cloud.tools.jib.http.PerLookupHttpClients;
import com.google.cloud.tools.jib.http.ResponseException;
import com.google.cloud.tools.jib.image.json.ManifestTemplate;
import com.google.cloud.tools.jib.image.json.OciIndexTemplate;
import com.google.cloud.tools.jib.image.json.V22ManifestListTemplate;
import com.google.cloud.tools.jib.registry.ManifestAndDigest;
import com.google.cloud.tools.jib.registry.RegistryClient;
import com.google.cloud.tools.jib.registry.RegistryCredentialsNotSentException;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.net.ConnectException;
import java.net.NoRouteToHostException;
import java.net.UnknownHostException;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.stream.Stream;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Asks one registry for the manifest a tag (or digest) names, with jib-core's registry client:
 * anonymous first, then the authentication the registry asks for ({@code WWW-Authenticate}: a
 * bearer token from its token service, or basic), with the credential given. One try, bounded by
 * the timeout per request: retrying is the caller's business.
 */
public final class RegistryLookup {
  private static final Logger LOG = LoggerFactory.getLogger(RegistryLookup.class);
  private static final String JIB_HTTP_TIMEOUT = "jib.httpTimeout";

  private final String userAgent;

  /**
   * @param timeout how long one connection or read may take; jib reads it from a system property,
   *     so it is one value for the whole process (the last one set)
   */
  public RegistryLookup(Duration timeout, String userAgent) {
    System.setProperty(JIB_HTTP_TIMEOUT, Long.toString(timeout.toMillis()));
    this.userAgent = userAgent;
  }

  /** The manifest {@code image} names at its registry. */
  public Manifest manifest(
      ImageReference image,
      Optional<PullSecret.Credential> credential,
      SSLContext tls,
      boolean insecure)
      throws LookupFailure {
    FailoverHttpClient http =
        PerLookupHttpClients.create(tls, insecure, e -> LOG.debug("{}: {}", image, e.getMessage()));
    try {
      RegistryClient client =
          RegistryClient.factory(EventHandlers.NONE, image.registry(), image.repository(), http)
              .setCredential(
                  credential
                      .map(
                          c ->
                              com.google.cloud.tools.jib.api.Credential.from(
                                  c.username(), c.password()))
                      .orElse(null))
              .setUserAgent(userAgent)
              .newRegistryClient();
      ManifestAndDigest<ManifestTemplate> found;
      try {
        found = client.pullManifest(image.qualifier());
      } catch (RegistryUnauthorizedException e) {
        String challenge = challenge(e.getHttpResponseException());
        if (e.getHttpResponseException().getStatusCode() != 401 || challenge == null) {
          throw e;
        }
        client.authPullByWwwAuthenticate(challenge);
        found = client.pullManifest(image.qualifier());
      }
      return describe(found);
    } catch (RegistryUnauthorizedException e) {
      int status = e.getHttpResponseException().getStatusCode();
      throw new LookupFailure(
          status == 403 ? LookupFailure.Problem.FORBIDDEN : LookupFailure.Problem.UNAUTHORIZED,
          image,
          status == 403 ? "403 Forbidden" : "401 Unauthorized",
          null);
    } catch (RegistryAuthenticationFailedException | RegistryCredentialsNotSentException e) {
      throw new LookupFailure(
          LookupFailure.Problem.UNAUTHORIZED,
          image,
          "its token service refused the credentials",
          null);
    } catch (InsecureRegistryException e) {
      throw new LookupFailure(
          LookupFailure.Problem.TLS, image, "TLS failed: " + rootMessage(e), null);
    } catch (ResponseException e) {
      throw new LookupFailure(
          LookupFailure.Problem.ERROR, image, "answered HTTP " + e.getStatusCode(), null);
    } catch (IOException e) {
      throw new LookupFailure(ioProblem(e), image, ioDetail(e), null);
    } catch (RegistryException e) {
      // jib's RegistryErrorException (not public): 400, 404 or 405, with the registry's errors.
      int status = e.getCause() instanceof ResponseException r ? r.getStatusCode() : 0;
      throw new LookupFailure(
          status == 404 ? LookupFailure.Problem.NOT_FOUND : LookupFailure.Problem.ERROR,
          image,
          status == 404 ? "manifest unknown (404)" : firstLine(e.getMessage()),
          null);
    } finally {
      try {
        http.shutDown();
      } catch (IOException e) {
        LOG.debug("closing the connections to {}: {}", image.registry(), e.toString());
      }
    }
  }

  private static String challenge(com.google.api.client.http.HttpResponseException e) {
    List<?> values = e.getHeaders().getHeaderStringValues("WWW-Authenticate");
    return values == null || values.isEmpty() ? null : values.get(0).toString();
  }

  private static Manifest describe(ManifestAndDigest<ManifestTemplate> found) {
    ManifestTemplate manifest = found.getManifest();
    String digest = found.getDigest().toString();
    if (manifest instanceof V22ManifestListTemplate list) {
      return new Manifest(
          digest,
          V22ManifestListTemplate.MANIFEST_MEDIA_TYPE,
          list.getManifests().stream()
              .map(m -> m.getPlatform())
              .filter(p -> p != null && "linux".equals(p.getOs()))
              .map(p -> p.getArchitecture())
              .distinct()
              .toList(),
          true);
    }
    if (manifest instanceof OciIndexTemplate index) {
      return new Manifest(
          digest,
          OciIndexTemplate.MEDIA_TYPE,
          index.getManifests().stream()
              .map(m -> m.getPlatform())
              .filter(p -> p != null && "linux".equals(p.getOs()))
              .map(p -> p.getArchitecture())
              .distinct()
              .toList(),
          true);
    }
    return new Manifest(digest, manifest.getManifestMediaType(), List.of(), false);
  }

  static LookupFailure.Problem ioProblem(IOException e) {
    if (causes(e).anyMatch(c -> c instanceof SSLException)) {
      return LookupFailure.Problem.TLS;
    }
    if (causes(e).anyMatch(c -> c instanceof InterruptedIOException)) {
      return LookupFailure.Problem.TIMEOUT; // socket and connect timeouts
    }
    if (causes(e)
        .anyMatch(
            c ->
                c instanceof ConnectException
                    || c instanceof UnknownHostException
                    || c instanceof NoRouteToHostException)) {
      return LookupFailure.Problem.UNREACHABLE;
    }
    return LookupFailure.Problem.ERROR;
  }

  private static String ioDetail(IOException e) {
    return switch (ioProblem(e)) {
      case TLS -> "TLS failed: " + rootMessage(e);
      case TIMEOUT -> "no answer in time (" + rootMessage(e) + ")";
      case UNREACHABLE -> "cannot connect: " + rootMessage(e);
      default -> e.getClass().getSimpleName() + ": " + rootMessage(e);
    };
  }

  private static Stream<Throwable> causes(Throwable e) {
    return Stream.iterate(e, t -> t != null, Throwable::getCause).limit(10);
  }

  private static String rootMessage(Throwable e) {
    Throwable root = causes(e).reduce((a, b) -> b).orElse(e);
    return firstLine(
        root.getMessage() == null ? root.getClass().getSimpleName() : root.getMessage());
  }

  private static String firstLine(String message) {
    if (message == null) {
      return "";
    }
    int newline = message.indexOf('\n');
    return (newline < 0 ? message : message.substring(0, newline)).trim();
  }
}
