package io.openshiftagent.provider.runtime;

import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Stream;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLParameters;

/**
 * The TLS versions and cipher suites the metrics server offers, as Cluster API's managers (Go's
 * crypto/tls) have them: a minimum version, and the TLS 1.2 cipher suites by their IANA names. TLS
 * 1.3's suites are all offered, as Go offers them (it cannot be told otherwise).
 */
public record TlsSettings(String minVersion, List<String> cipherSuites) {
  /** OpenShift's and Mozilla's Intermediate profile: the default everywhere. */
  public static final TlsSettings INTERMEDIATE =
      new TlsSettings(
          "VersionTLS12",
          List.of(
              "TLS_ECDHE_ECDSA_WITH_AES_128_GCM_SHA256",
              "TLS_ECDHE_RSA_WITH_AES_128_GCM_SHA256",
              "TLS_ECDHE_ECDSA_WITH_AES_256_GCM_SHA384",
              "TLS_ECDHE_RSA_WITH_AES_256_GCM_SHA384",
              "TLS_ECDHE_ECDSA_WITH_CHACHA20_POLY1305_SHA256",
              "TLS_ECDHE_RSA_WITH_CHACHA20_POLY1305_SHA256"));

  /** The OpenSSL names OpenShift's TLS profiles use, with their IANA names (library-go's map). */
  static final Map<String, String> OPENSSL_TO_IANA =
      Map.ofEntries(
          Map.entry("ECDHE-ECDSA-AES128-GCM-SHA256", "TLS_ECDHE_ECDSA_WITH_AES_128_GCM_SHA256"),
          Map.entry("ECDHE-RSA-AES128-GCM-SHA256", "TLS_ECDHE_RSA_WITH_AES_128_GCM_SHA256"),
          Map.entry("ECDHE-ECDSA-AES256-GCM-SHA384", "TLS_ECDHE_ECDSA_WITH_AES_256_GCM_SHA384"),
          Map.entry("ECDHE-RSA-AES256-GCM-SHA384", "TLS_ECDHE_RSA_WITH_AES_256_GCM_SHA384"),
          Map.entry(
              "ECDHE-ECDSA-CHACHA20-POLY1305", "TLS_ECDHE_ECDSA_WITH_CHACHA20_POLY1305_SHA256"),
          Map.entry("ECDHE-RSA-CHACHA20-POLY1305", "TLS_ECDHE_RSA_WITH_CHACHA20_POLY1305_SHA256"),
          Map.entry("ECDHE-ECDSA-AES128-SHA256", "TLS_ECDHE_ECDSA_WITH_AES_128_CBC_SHA256"),
          Map.entry("ECDHE-RSA-AES128-SHA256", "TLS_ECDHE_RSA_WITH_AES_128_CBC_SHA256"),
          Map.entry("ECDHE-ECDSA-AES128-SHA", "TLS_ECDHE_ECDSA_WITH_AES_128_CBC_SHA"),
          Map.entry("ECDHE-RSA-AES128-SHA", "TLS_ECDHE_RSA_WITH_AES_128_CBC_SHA"),
          Map.entry("ECDHE-ECDSA-AES256-SHA", "TLS_ECDHE_ECDSA_WITH_AES_256_CBC_SHA"),
          Map.entry("ECDHE-RSA-AES256-SHA", "TLS_ECDHE_RSA_WITH_AES_256_CBC_SHA"),
          Map.entry("AES128-GCM-SHA256", "TLS_RSA_WITH_AES_128_GCM_SHA256"),
          Map.entry("AES256-GCM-SHA384", "TLS_RSA_WITH_AES_256_GCM_SHA384"),
          Map.entry("AES128-SHA256", "TLS_RSA_WITH_AES_128_CBC_SHA256"),
          Map.entry("AES128-SHA", "TLS_RSA_WITH_AES_128_CBC_SHA"),
          Map.entry("AES256-SHA", "TLS_RSA_WITH_AES_256_CBC_SHA"),
          Map.entry("DES-CBC3-SHA", "TLS_RSA_WITH_3DES_EDE_CBC_SHA"),
          Map.entry("DHE-RSA-AES128-GCM-SHA256", "TLS_DHE_RSA_WITH_AES_128_GCM_SHA256"),
          Map.entry("DHE-RSA-AES256-GCM-SHA384", "TLS_DHE_RSA_WITH_AES_256_GCM_SHA384"));

  private static final Set<String> TLS13_SUITES =
      Set.of("TLS_AES_128_GCM_SHA256", "TLS_AES_256_GCM_SHA384", "TLS_CHACHA20_POLY1305_SHA256");

  /**
   * Settings from an OpenShift profile's {@code minTLSVersion} and OpenSSL cipher names. TLS 1.0
   * and 1.1 become 1.2 (the JVM disables them); names without an IANA equivalent or a JVM
   * implementation are left out, and named in {@code skipped}.
   */
  static TlsSettings fromProfile(
      String minTlsVersion, List<String> openSslCiphers, List<String> skipped) {
    List<String> suites = new ArrayList<>();
    for (String name : openSslCiphers) {
      if (TLS13_SUITES.contains(name)) {
        continue;
      }
      String iana = OPENSSL_TO_IANA.getOrDefault(name, name);
      if (supported().contains(iana)) {
        suites.add(iana);
      } else {
        skipped.add(name);
      }
    }
    String min = "VersionTLS13".equals(minTlsVersion) ? "VersionTLS13" : "VersionTLS12";
    return new TlsSettings(min, List.copyOf(suites));
  }

  /** {@code --tls-cipher-suites}: each name must be one the JVM implements. */
  static List<String> checkCipherSuites(List<String> names) {
    for (String name : names) {
      if (!supported().contains(name)) {
        throw new IllegalArgumentException(
            "--tls-cipher-suites: '" + name + "' is not a cipher suite this JVM implements");
      }
    }
    return List.copyOf(names);
  }

  /** This with the command line's settings, where given, in its place. */
  TlsSettings overriddenBy(ProviderOptions.TlsOptions options) {
    return new TlsSettings(
        options.minVersion().orElse(minVersion),
        options.cipherSuites().isEmpty() ? cipherSuites : options.cipherSuites());
  }

  /** Restricts a connection's parameters to these settings. */
  void applyTo(SSLParameters parameters) {
    boolean tls12 = minVersion.equals("VersionTLS12") && !cipherSuites.isEmpty();
    parameters.setProtocols(tls12 ? new String[] {"TLSv1.3", "TLSv1.2"} : new String[] {"TLSv1.3"});
    parameters.setCipherSuites(
        Stream.concat(TLS13_SUITES.stream().sorted(), tls12 ? cipherSuites.stream() : Stream.of())
            .toArray(String[]::new));
  }

  private static Set<String> supported() {
    try {
      return Set.copyOf(
          Arrays.asList(SSLContext.getDefault().getSupportedSSLParameters().getCipherSuites()));
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("the JVM has no TLS", e);
    }
  }
}
