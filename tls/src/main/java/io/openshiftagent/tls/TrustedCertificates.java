package io.openshiftagent.tls;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.KeyStore;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.security.cert.CertificateException;
import java.security.cert.CertificateFactory;
import java.security.cert.X509Certificate;
import java.util.ArrayList;
import java.util.Base64;
import java.util.Collection;
import java.util.HexFormat;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import javax.net.ssl.SSLContext;
import javax.net.ssl.TrustManager;
import javax.net.ssl.TrustManagerFactory;
import javax.net.ssl.X509TrustManager;

/**
 * The certificate authorities an HTTPS client trusts: the JVM's own (the public ones) plus the
 * certificates of PEM bundles a user gave (a CA bundle Secret, the hub's trusted CA bundle, a
 * mirror's {@code ca-bundle.crt}). A value: nothing is cached or installed process-wide, so a
 * client built for one set never trusts what a later set adds, and a replaced bundle never affects
 * a client built from the one before.
 */
public final class TrustedCertificates {
  private static final Pattern PEM_CERTIFICATE =
      Pattern.compile("-----BEGIN CERTIFICATE-----([A-Za-z0-9+/=\\s]*?)-----END CERTIFICATE-----");

  private final List<X509Certificate> extra;
  private final String fingerprint;

  private TrustedCertificates(List<X509Certificate> extra, String fingerprint) {
    this.extra = extra;
    this.fingerprint = fingerprint;
  }

  /** Only the JVM's certificate authorities. */
  public static TrustedCertificates jvmDefaults() {
    return new TrustedCertificates(List.of(), "");
  }

  /**
   * The JVM's authorities plus every certificate of each PEM bundle; blank (or null) bundles are
   * skipped. Text between the certificates (comments) is ignored, as are other PEM blocks.
   *
   * @throws IllegalArgumentException naming the certificate that cannot be read, or when a
   *     non-blank bundle holds no certificate
   */
  public static TrustedCertificates withBundles(Collection<String> pemBundles) {
    List<X509Certificate> certificates = new ArrayList<>();
    StringBuilder all = new StringBuilder();
    for (String pem : pemBundles) {
      if (pem != null && !pem.isBlank()) {
        certificates.addAll(certificates(pem));
        all.append(pem);
      }
    }
    return certificates.isEmpty()
        ? jvmDefaults()
        : new TrustedCertificates(List.copyOf(certificates), sha256(all.toString()));
  }

  /** {@link #withBundles} of one bundle. */
  public static TrustedCertificates withBundle(String pem) {
    return withBundles(pem == null ? List.of() : List.of(pem));
  }

  /**
   * Every certificate of a PEM bundle, in order.
   *
   * @throws IllegalArgumentException as {@link #withBundles}
   */
  public static List<X509Certificate> certificates(String pem) {
    List<X509Certificate> certificates = new ArrayList<>();
    Matcher block = PEM_CERTIFICATE.matcher(pem);
    try {
      CertificateFactory factory = CertificateFactory.getInstance("X.509");
      while (block.find()) {
        byte[] der = Base64.getMimeDecoder().decode(block.group(1));
        certificates.add(
            (X509Certificate) factory.generateCertificate(new ByteArrayInputStream(der)));
      }
    } catch (CertificateException | IllegalArgumentException e) {
      throw new IllegalArgumentException(
          "certificate #" + (certificates.size() + 1) + " of a CA bundle is not valid: " + e);
    }
    if (certificates.isEmpty()) {
      throw new IllegalArgumentException("a CA bundle holds no PEM certificate");
    }
    return List.copyOf(certificates);
  }

  /** These authorities and {@code other}'s. */
  public TrustedCertificates and(TrustedCertificates other) {
    if (other.extra.isEmpty()) {
      return this;
    }
    if (extra.isEmpty()) {
      return other;
    }
    List<X509Certificate> both = new ArrayList<>(extra);
    both.addAll(other.extra);
    return new TrustedCertificates(
        List.copyOf(both), sha256(fingerprint + " " + other.fingerprint));
  }

  /** The certificates trusted besides the JVM's. */
  public List<X509Certificate> extra() {
    return extra;
  }

  /** Tells two sets apart (empty for the JVM's defaults alone). */
  public String fingerprint() {
    return fingerprint;
  }

  /** A trust manager for the JVM's authorities and these. */
  public X509TrustManager trustManager() {
    try {
      KeyStore anchors = KeyStore.getInstance(KeyStore.getDefaultType());
      anchors.load(null, null);
      int n = 0;
      for (X509Certificate root : trustManager(null).getAcceptedIssuers()) {
        anchors.setCertificateEntry("jvm-" + n++, root);
      }
      for (X509Certificate certificate : extra) {
        anchors.setCertificateEntry("extra-" + n++, certificate);
      }
      return trustManager(anchors);
    } catch (GeneralSecurityException | IOException e) {
      throw new IllegalStateException("cannot build a trust manager", e);
    }
  }

  /** A TLS context trusting the JVM's authorities and these. */
  public SSLContext sslContext() {
    return context(trustManager());
  }

  /** A TLS context that accepts any certificate: for registries marked insecure only. */
  public static SSLContext trustingAnyCertificate() {
    return context(
        new X509TrustManager() {
          @Override
          public void checkClientTrusted(X509Certificate[] chain, String authType) {}

          @Override
          public void checkServerTrusted(X509Certificate[] chain, String authType) {}

          @Override
          public X509Certificate[] getAcceptedIssuers() {
            return new X509Certificate[0];
          }
        });
  }

  private static SSLContext context(X509TrustManager trust) {
    try {
      SSLContext context = SSLContext.getInstance("TLS");
      context.init(null, new TrustManager[] {trust}, null);
      return context;
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException("cannot build a TLS context", e);
    }
  }

  private static X509TrustManager trustManager(KeyStore anchors) throws GeneralSecurityException {
    TrustManagerFactory factory =
        TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
    factory.init(anchors);
    for (TrustManager manager : factory.getTrustManagers()) {
      if (manager instanceof X509TrustManager x509) {
        return x509;
      }
    }
    throw new GeneralSecurityException("the JVM has no X.509 trust manager");
  }

  private static String sha256(String text) {
    try {
      return HexFormat.of()
          .formatHex(
              MessageDigest.getInstance("SHA-256").digest(text.getBytes(StandardCharsets.UTF_8)));
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException(e);
    }
  }
}
