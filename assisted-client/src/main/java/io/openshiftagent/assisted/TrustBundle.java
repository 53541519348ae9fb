package io.openshiftagent.assisted;

import io.openshiftagent.assisted.AssistedServiceException.Reason;
import java.io.ByteArrayInputStream;
import java.security.GeneralSecurityException;
import java.security.KeyStore;
import java.security.cert.CertificateException;
import java.security.cert.CertificateFactory;
import java.security.cert.X509Certificate;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLSocketFactory;
import javax.net.ssl.TrustManager;
import javax.net.ssl.TrustManagerFactory;
import javax.net.ssl.X509TrustManager;

/**
 * The JVM's default trusted roots plus the certificates of a PEM bundle, as one trust manager.
 * Built fresh for every client: nothing is cached or installed process-wide, so replacing a bundle
 * never affects a client built from the previous one.
 */
final class TrustBundle {

  private static final Pattern PEM_CERTIFICATE =
      Pattern.compile("-----BEGIN CERTIFICATE-----([A-Za-z0-9+/=\\s]*?)-----END CERTIFICATE-----");

  final X509TrustManager trustManager;
  final SSLSocketFactory socketFactory;

  private TrustBundle(X509TrustManager trustManager, SSLSocketFactory socketFactory) {
    this.trustManager = trustManager;
    this.socketFactory = socketFactory;
  }

  /** Parses every certificate of {@code pem}; text between them (comments) is ignored. */
  static List<X509Certificate> parseCertificates(String pem) throws AssistedServiceException {
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
      throw new AssistedServiceException(
          Reason.INVALID_CA_BUNDLE,
          "certificate #" + (certificates.size() + 1) + " of the CA bundle is not valid: " + e);
    }
    if (certificates.isEmpty()) {
      throw new AssistedServiceException(
          Reason.INVALID_CA_BUNDLE, "the CA bundle holds no PEM certificate");
    }
    return certificates;
  }

  static TrustBundle withDefaultRootsAnd(String pem) throws AssistedServiceException {
    List<X509Certificate> bundle = parseCertificates(pem);
    try {
      KeyStore anchors = KeyStore.getInstance(KeyStore.getDefaultType());
      anchors.load(null, null);
      int index = 0;
      for (X509Certificate root : trustManager(null).getAcceptedIssuers()) {
        anchors.setCertificateEntry("default-" + index++, root);
      }
      index = 0;
      for (X509Certificate certificate : bundle) {
        anchors.setCertificateEntry("bundle-" + index++, certificate);
      }
      X509TrustManager trustManager = trustManager(anchors);
      SSLContext context = SSLContext.getInstance("TLS");
      context.init(null, new TrustManager[] {trustManager}, null);
      return new TrustBundle(trustManager, context.getSocketFactory());
    } catch (GeneralSecurityException | java.io.IOException e) {
      throw new AssistedServiceException(
          Reason.INVALID_CA_BUNDLE, "the CA bundle cannot be used as trust anchors: " + e);
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
    throw new GeneralSecurityException("no X509TrustManager available");
  }
}
