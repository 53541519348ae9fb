package io.openshiftagent.testsupport;

import java.io.StringWriter;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.KeyStore;
import java.security.cert.Certificate;
import java.security.cert.X509Certificate;
import java.security.spec.ECGenParameterSpec;
import java.time.Duration;
import java.time.Instant;
import java.util.Base64;
import java.util.Date;
import java.util.concurrent.atomic.AtomicLong;
import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.SSLContext;
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

/** A throwaway certificate authority, made at test time, and server certificates it signs. */
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

  public String caPem() throws Exception {
    return pem(caCertificate);
  }

  /** A server TLS context whose certificate, signed by this CA, is valid for 127.0.0.1 only. */
  public SSLContext serverContextFor127001() throws Exception {
    KeyPair keys = newKeyPair();
    X509Certificate certificate = serverCertificateFor127001(keys, "fake assisted-service");

    char[] password = "test".toCharArray();
    KeyStore store = KeyStore.getInstance("PKCS12");
    store.load(null, null);
    store.setKeyEntry(
        "server", keys.getPrivate(), password, new Certificate[] {certificate, caCertificate});
    KeyManagerFactory keyManagers =
        KeyManagerFactory.getInstance(KeyManagerFactory.getDefaultAlgorithm());
    keyManagers.init(store, password);
    SSLContext context = SSLContext.getInstance("TLS");
    context.init(keyManagers.getKeyManagers(), null, null);
    return context;
  }

  /**
   * A server certificate for 127.0.0.1 signed by this CA, and its private key, both PEM encoded:
   * the {@code tls.crt} and {@code tls.key} files a Go server (for example a webhook server) reads.
   */
  public PemKeyPair pemServerCertificateFor127001(String commonName) throws Exception {
    KeyPair keys = newKeyPair();
    X509Certificate certificate = serverCertificateFor127001(keys, commonName);
    // PKCS#8 with a named curve, which Go's crypto/tls reads.
    String key =
        "-----BEGIN PRIVATE KEY-----\n"
            + Base64.getMimeEncoder(64, "\n".getBytes(StandardCharsets.US_ASCII))
                .encodeToString(keys.getPrivate().getEncoded())
            + "\n-----END PRIVATE KEY-----\n";
    return new PemKeyPair(pem(certificate), key);
  }

  /** A PEM certificate and its PEM private key. */
  public record PemKeyPair(String certificate, String privateKey) {}

  private X509Certificate serverCertificateFor127001(KeyPair keys, String commonName)
      throws Exception {
    X509v3CertificateBuilder builder =
        new JcaX509v3CertificateBuilder(
            new X500Name(caCertificate.getSubjectX500Principal().getName()),
            serial(),
            notBefore(),
            notAfter(),
            new X500Name("CN=" + commonName),
            keys.getPublic());
    builder.addExtension(
        Extension.subjectAlternativeName,
        false,
        new GeneralNames(new GeneralName(GeneralName.iPAddress, "127.0.0.1")));
    builder.addExtension(
        Extension.extendedKeyUsage, false, new ExtendedKeyUsage(KeyPurposeId.id_kp_serverAuth));
    return sign(builder, caKeys);
  }

  public static String pem(X509Certificate certificate) throws Exception {
    StringWriter text = new StringWriter();
    try (JcaPEMWriter writer = new JcaPEMWriter(text)) {
      writer.writeObject(certificate);
    }
    return text.toString();
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
