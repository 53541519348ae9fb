package io.openshiftagent.testsupport;

import java.io.ByteArrayInputStream;
import java.io.StringWriter;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.KeyStore;
import java.security.cert.Certificate;
import java.security.cert.CertificateFactory;
import java.security.cert.X509Certificate;
import java.security.spec.ECGenParameterSpec;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Base64;
import java.util.Date;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.SSLContext;
import javax.net.ssl.TrustManagerFactory;
import org.bouncycastle.asn1.x500.X500Name;
import org.bouncycastle.asn1.x509.BasicConstraints;
import org.bouncycastle.asn1.x509.ExtendedKeyUsage;
import org.bouncycastle.asn1.x509.Extension;
import org.bouncycastle.asn1.x509.GeneralName;
import org.bouncycastle.asn1.x509.GeneralNames;
import org.bouncycastle.asn1.x509.KeyPurposeId;
import org.bouncycastle.asn1.x509.KeyUsage;
import org.bouncycastle.cert.X509v3CertificateBuilder;
import org.bouncycastle.cert.jcajce.JcaX509CertificateConverter;
import org.bouncycastle.cert.jcajce.JcaX509v3CertificateBuilder;
import org.bouncycastle.openssl.jcajce.JcaPEMWriter;
import org.bouncycastle.operator.jcajce.JcaContentSignerBuilder;

/**
 * A throwaway certificate authority, made at test time, and the server and client certificates it
 * signs.
 */
public final class TestPki {

  private static final AtomicLong SERIAL = new AtomicLong(System.nanoTime());

  private final KeyPair caKeys;
  private final X509Certificate caCertificate;

  private TestPki(KeyPair caKeys, X509Certificate caCertificate) {
    this.caKeys = caKeys;
    this.caCertificate = caCertificate;
  }

  public static TestPki newCertificateAuthority(String name) throws Exception {
    KeyPair keys = newKeyPair();
    X500Name subject = new X500Name("CN=" + name);
    X509v3CertificateBuilder builder =
        new JcaX509v3CertificateBuilder(
            subject, serial(), notBefore(), notAfter(), subject, keys.getPublic());
    builder.addExtension(Extension.basicConstraints, true, new BasicConstraints(true));
    builder.addExtension(
        Extension.keyUsage, true, new KeyUsage(KeyUsage.keyCertSign | KeyUsage.cRLSign));
    return new TestPki(keys, sign(builder, keys));
  }

  public X509Certificate caCertificate() {
    return caCertificate;
  }

  /** The CA's private key (EC P-256): for a test service that signs tokens as this CA. */
  public java.security.PrivateKey caPrivateKey() {
    return caKeys.getPrivate();
  }

  public String caPem() throws Exception {
    return pem(caCertificate);
  }

  /** A server TLS context whose certificate, signed by this CA, is valid for 127.0.0.1 only. */
  public SSLContext serverContextFor127001() throws Exception {
    return serverContextFor127001(false);
  }

  /**
   * The same, trusting this CA's client certificates too: a server that asks for one (as a
   * kube-apiserver does) verifies it.
   */
  public SSLContext serverContextFor127001(boolean trustClients) throws Exception {
    KeyPair keys = newKeyPair();
    return serverContext(
        keys, serverCertificateFor127001(keys, "fake assisted-service"), trustClients);
  }

  /**
   * A server TLS context whose certificate, signed by this CA, is valid for the name {@code
   * localhost} only: another host than 127.0.0.1 to a client, though the same loopback.
   */
  public SSLContext serverContextForLocalhost() throws Exception {
    KeyPair keys = newKeyPair();
    X509v3CertificateBuilder builder = issuedTo("CN=localhost", keys);
    builder.addExtension(
        Extension.subjectAlternativeName,
        false,
        new GeneralNames(new GeneralName(GeneralName.dNSName, "localhost")));
    builder.addExtension(
        Extension.extendedKeyUsage, false, new ExtendedKeyUsage(KeyPurposeId.id_kp_serverAuth));
    return serverContext(keys, sign(builder, caKeys), false);
  }

  private SSLContext serverContext(KeyPair keys, X509Certificate certificate, boolean trustClients)
      throws Exception {

    char[] password = "test".toCharArray();
    KeyStore store = KeyStore.getInstance("PKCS12");
    store.load(null, null);
    store.setKeyEntry(
        "server", keys.getPrivate(), password, new Certificate[] {certificate, caCertificate});
    KeyManagerFactory keyManagers =
        KeyManagerFactory.getInstance(KeyManagerFactory.getDefaultAlgorithm());
    keyManagers.init(store, password);
    TrustManagerFactory trust = null;
    if (trustClients) {
      KeyStore clients = KeyStore.getInstance("PKCS12");
      clients.load(null, null);
      clients.setCertificateEntry("ca", caCertificate);
      trust = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
      trust.init(clients);
    }
    SSLContext context = SSLContext.getInstance("TLS");
    context.init(
        keyManagers.getKeyManagers(), trust == null ? null : trust.getTrustManagers(), null);
    return context;
  }

  /**
   * A server certificate for 127.0.0.1 signed by this CA, and its private key, both PEM encoded:
   * the {@code tls.crt} and {@code tls.key} files a Go server (for example a webhook server) reads.
   */
  public PemKeyPair pemServerCertificateFor127001(String commonName) throws Exception {
    KeyPair keys = newKeyPair();
    X509Certificate certificate = serverCertificateFor127001(keys, commonName);
    return new PemKeyPair(pem(certificate), pem(keys));
  }

  /**
   * A server certificate signed by this CA for 127.0.0.1 and the DNS names {@code dnsNames}, and
   * its private key, both PEM encoded: for a server a client reaches by a Service's name (the
   * aggregator checks an APIService's server as {@code <service>.<namespace>.svc}).
   */
  public PemKeyPair pemServerCertificate(String commonName, List<String> dnsNames)
      throws Exception {
    KeyPair keys = newKeyPair();
    X509v3CertificateBuilder builder = issuedTo("CN=" + commonName, keys);
    List<GeneralName> names = new ArrayList<>();
    names.add(new GeneralName(GeneralName.iPAddress, "127.0.0.1"));
    dnsNames.forEach(name -> names.add(new GeneralName(GeneralName.dNSName, name)));
    builder.addExtension(
        Extension.subjectAlternativeName,
        false,
        new GeneralNames(names.toArray(GeneralName[]::new)));
    builder.addExtension(
        Extension.extendedKeyUsage, false, new ExtendedKeyUsage(KeyPurposeId.id_kp_serverAuth));
    return new PemKeyPair(pem(sign(builder, caKeys)), pem(keys));
  }

  /**
   * A client certificate signed by this CA and its private key, both PEM encoded. Kubernetes reads
   * the common name as the user and the organization as the group ({@code system:masters}: a
   * cluster admin).
   */
  public PemKeyPair pemClientCertificate(String commonName, String organization) throws Exception {
    // RSA: fabric8 reads a kubeconfig's PKCS#8 client key as RSA unless told otherwise.
    KeyPairGenerator rsa = KeyPairGenerator.getInstance("RSA");
    rsa.initialize(2048);
    KeyPair keys = rsa.generateKeyPair();
    X509v3CertificateBuilder builder = issuedTo("O=" + organization + ",CN=" + commonName, keys);
    builder.addExtension(
        Extension.extendedKeyUsage, false, new ExtendedKeyUsage(KeyPurposeId.id_kp_clientAuth));
    return new PemKeyPair(pem(sign(builder, caKeys)), pem(keys));
  }

  /** A new key pair, PEM encoded (for example to sign and verify service-account tokens). */
  public static PemKeys newPemKeys() throws Exception {
    KeyPair keys = newKeyPair();
    return new PemKeys(
        pem("PUBLIC KEY", keys.getPublic().getEncoded()),
        pem("PRIVATE KEY", keys.getPrivate().getEncoded()));
  }

  /** A PEM public key and its PEM private key. */
  public record PemKeys(String publicKey, String privateKey) {}

  /** A client TLS context that trusts this CA only. */
  public SSLContext clientContext() throws Exception {
    return clientContextTrusting(List.of(caCertificate));
  }

  /** A client TLS context that trusts the certificates of a PEM bundle only. */
  public static SSLContext clientContextTrusting(String pemBundle) throws Exception {
    List<X509Certificate> certificates = new ArrayList<>();
    for (Certificate certificate :
        CertificateFactory.getInstance("X.509")
            .generateCertificates(
                new ByteArrayInputStream(pemBundle.getBytes(StandardCharsets.US_ASCII)))) {
      certificates.add((X509Certificate) certificate);
    }
    return clientContextTrusting(certificates);
  }

  private static SSLContext clientContextTrusting(List<X509Certificate> certificates)
      throws Exception {
    KeyStore trusted = KeyStore.getInstance("PKCS12");
    trusted.load(null, null);
    for (int i = 0; i < certificates.size(); i++) {
      trusted.setCertificateEntry("ca-" + i, certificates.get(i));
    }
    TrustManagerFactory trust =
        TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
    trust.init(trusted);
    SSLContext context = SSLContext.getInstance("TLS");
    context.init(null, trust.getTrustManagers(), null);
    return context;
  }

  /** A PEM certificate and its PEM private key. */
  public record PemKeyPair(String certificate, String privateKey) {}

  private X509Certificate serverCertificateFor127001(KeyPair keys, String commonName)
      throws Exception {
    X509v3CertificateBuilder builder = issuedTo("CN=" + commonName, keys);
    builder.addExtension(
        Extension.subjectAlternativeName,
        false,
        new GeneralNames(new GeneralName(GeneralName.iPAddress, "127.0.0.1")));
    builder.addExtension(
        Extension.extendedKeyUsage, false, new ExtendedKeyUsage(KeyPurposeId.id_kp_serverAuth));
    return sign(builder, caKeys);
  }

  /** A certificate of {@code subject} for {@code keys}, to be signed by this CA. */
  private X509v3CertificateBuilder issuedTo(String subject, KeyPair keys) {
    return new JcaX509v3CertificateBuilder(
        new X500Name(caCertificate.getSubjectX500Principal().getName()),
        serial(),
        notBefore(),
        notAfter(),
        new X500Name(subject),
        keys.getPublic());
  }

  public static String pem(X509Certificate certificate) throws Exception {
    StringWriter text = new StringWriter();
    try (JcaPEMWriter writer = new JcaPEMWriter(text)) {
      writer.writeObject(certificate);
    }
    return text.toString();
  }

  /** PKCS#8 (EC keys with a named curve), which Go's crypto/tls and the kube-apiserver read. */
  private static String pem(KeyPair keys) {
    return pem("PRIVATE KEY", keys.getPrivate().getEncoded());
  }

  private static String pem(String type, byte[] der) {
    return "-----BEGIN "
        + type
        + "-----\n"
        + Base64.getMimeEncoder(64, "\n".getBytes(StandardCharsets.US_ASCII)).encodeToString(der)
        + "\n-----END "
        + type
        + "-----\n";
  }

  private static KeyPair newKeyPair() throws Exception {
    KeyPairGenerator generator = KeyPairGenerator.getInstance("EC");
    generator.initialize(new ECGenParameterSpec("secp256r1"));
    return generator.generateKeyPair();
  }

  private static X509Certificate sign(X509v3CertificateBuilder builder, KeyPair signer)
      throws Exception {
    return new JcaX509CertificateConverter()
        .getCertificate(
            builder.build(
                new JcaContentSignerBuilder("SHA256withECDSA").build(signer.getPrivate())));
  }

  private static BigInteger serial() {
    return BigInteger.valueOf(SERIAL.incrementAndGet());
  }

  private static Date notBefore() {
    return Date.from(Instant.now().minus(Duration.ofHours(1)));
  }

  private static Date notAfter() {
    return Date.from(Instant.now().plus(Duration.ofDays(1)));
  }
}
