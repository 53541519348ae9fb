package io.openshiftagent.registry;

import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.KeyStore;
import java.security.cert.Certificate;
import java.security.cert.CertificateException;
import java.security.cert.CertificateFactory;
import java.security.cert.X509Certificate;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import javax.net.ssl.SSLContext;
import javax.net.ssl.TrustManagerFactory;
import javax.net.ssl.X509TrustManager;

/**
 * The certificate authorities a registry's TLS certificate may chain to: the JVM's own (the public
 * ones) plus PEM bundles given by the user (the hub's trusted CA bundle, the mirrors' {@code
 * ca-bundle.crt}).
 */
public final class TrustedCertificates {
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
   * The JVM's authorities plus every certificate of each PEM bundle (blank bundles are skipped).
   *
   * @throws IllegalArgumentException when a non-blank bundle holds no readable certificate
   */
  public static TrustedCertificates withBundles(Collection<String> pemBundles) {
    List<X509Certificate> certificates = new ArrayList<>();
    StringBuilder all = new StringBuilder();
    for (String pem : pemBundles) {
      if (pem == null || pem.isBlank()) {
        continue;
      }
      Collection<? extends Certificate> read;
      try {
        read =
            CertificateFactory.getInstance("X.509")
                .generateCertificates(
                    new ByteArrayInputStream(pem.getBytes(StandardCharsets.UTF_8)));
      } catch (CertificateException e) {
        throw new IllegalArgumentException(
            "a CA bundle is not PEM certificates: " + e.getMessage());
      }
      if (read.isEmpty()) {
        throw new IllegalArgumentException("a CA bundle holds no certificate");
      }
      read.forEach(c -> certificates.add((X509Certificate) c));
      all.append(pem);
    }
    return new TrustedCertificates(
        List.copyOf(certificates),
        certificates.isEmpty()
            ? ""
            : PullSecret.sha256(all.toString().getBytes(StandardCharsets.UTF_8)));
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
        List.copyOf(both),
        PullSecret.sha256(
            (fingerprint + " " + other.fingerprint).getBytes(StandardCharsets.UTF_8)));
  }

  /** Tells two sets apart (empty for the JVM's defaults alone). */
  public String fingerprint() {
    return fingerprint;
  }

  /** A TLS context trusting these authorities. */
  public SSLContext sslContext() {
    try {
      KeyStore store = KeyStore.getInstance(KeyStore.getDefaultType());
      store.load(null, null);
      int n = 0;
      for (X509Certificate issuer : jvmTrustManager().getAcceptedIssuers()) {
        store.setCertificateEntry("jvm-" + n++, issuer);
      }
      for (X509Certificate certificate : extra) {
        store.setCertificateEntry("extra-" + n++, certificate);
      }
      TrustManagerFactory factory =
          TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
      factory.init(store);
      SSLContext context = SSLContext.getInstance("TLS");
      context.init(null, factory.getTrustManagers(), null);
      return context;
    } catch (GeneralSecurityException | java.io.IOException e) {
      throw new IllegalStateException("cannot build a TLS context", e);
    }
  }

  /** A TLS context that accepts any certificate: for {@code insecure = true} mirrors only. */
  static SSLContext trustingAnyCertificate() {
    X509TrustManager any =
        new X509TrustManager() {
          @Override
          public void checkClientTrusted(X509Certificate[] chain, String authType) {}

          @Override
          public void checkServerTrusted(X509Certificate[] chain, String authType) {}

          @Override
          public X509Certificate[] getAcceptedIssuers() {
            return new X509Certificate[0];
          }
        };
    try {
      SSLContext context = SSLContext.getInstance("TLS");
      context.init(null, new javax.net.ssl.TrustManager[] {any}, null);
      return context;
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException(e);
    }
  }

  private static X509TrustManager jvmTrustManager() throws GeneralSecurityException {
    TrustManagerFactory factory =
        TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
    factory.init((KeyStore) null);
    for (var manager : factory.getTrustManagers()) {
      if (manager instanceof X509TrustManager x509) {
        return x509;
      }
    }
    throw new IllegalStateException("the JVM has no X.509 trust manager");
  }
}
