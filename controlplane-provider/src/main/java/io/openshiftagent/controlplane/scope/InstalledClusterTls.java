package io.openshiftagent.controlplane.scope;

import io.fabric8.kubernetes.client.Config;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.KeyFactory;
import java.security.KeyStore;
import java.security.Principal;
import java.security.PrivateKey;
import java.security.cert.Certificate;
import java.security.cert.CertificateFactory;
import java.security.cert.X509Certificate;
import java.security.spec.PKCS8EncodedKeySpec;
import java.util.Base64;
import java.util.Collection;
import java.util.List;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import javax.net.ssl.KeyManager;
import javax.net.ssl.SSLEngine;
import javax.net.ssl.TrustManager;
import javax.net.ssl.TrustManagerFactory;
import javax.net.ssl.X509ExtendedKeyManager;

/**
 * The TLS identity and trust an installed cluster's kubeconfig carries inline (its CA bundle, the
 * client certificate and key, as assisted-service writes them), made without a key store. fabric8
 * puts the client key into a password-protected PKCS#12 store and reads it back (tens of thousands
 * of SHA-256 rounds for each client) and trusts the JVM's CAs besides the kubeconfig's: a control
 * plane looking at thousands of installed clusters a minute spent most of its CPU there. Trusts the
 * kubeconfig's CAs only, as kubectl does.
 */
final class InstalledClusterTls {
  private static final Pattern PEM =
      Pattern.compile("-----BEGIN ([A-Z ]+)-----([^-]+)-----END \\1-----");

  /** DER of PKCS#8's AlgorithmIdentifier for rsaEncryption (OID 1.2.840.113549.1.1.1, NULL). */
  private static final byte[] RSA_ALGORITHM = {
    0x30,
    0x0d,
    0x06,
    0x09,
    0x2a,
    (byte) 0x86,
    0x48,
    (byte) 0x86,
    (byte) 0xf7,
    0x0d,
    0x01,
    0x01,
    0x01,
    0x05,
    0x00
  };

  private final KeyManager[] keyManagers;
  private final TrustManager[] trustManagers;

  private InstalledClusterTls(KeyManager[] keyManagers, TrustManager[] trustManagers) {
    this.keyManagers = keyManagers;
    this.trustManagers = trustManagers;
  }

  /**
   * The kubeconfig's TLS material, when it has its CA bundle, client certificate and key inline and
   * the key is RSA (PKCS#1 or PKCS#8) or PKCS#8 EC; otherwise none (fabric8 then makes it).
   */
  static Optional<InstalledClusterTls> of(Config config) {
    if (config.isTrustCerts()
        || blank(config.getCaCertData())
        || blank(config.getClientCertData())
        || blank(config.getClientKeyData())) {
      return Optional.empty();
    }
    try {
      List<X509Certificate> chain = certificates(decode(config.getClientCertData()));
      Optional<PrivateKey> key = privateKey(decode(config.getClientKeyData()));
      if (key.isEmpty() || chain.isEmpty()) {
        return Optional.empty();
      }
      return Optional.of(
          new InstalledClusterTls(
              new KeyManager[] {new SingleKey(key.get(), chain.toArray(X509Certificate[]::new))},
              trusting(certificates(decode(config.getCaCertData())))));
    } catch (GeneralSecurityException | IllegalArgumentException e) {
      return Optional.empty();
    }
  }

  /**
   * {@code config} without the material this takes over: fabric8 then makes no key store of its
   * own.
   */
  static void takeFrom(Config config) {
    config.setCaCertData(null);
    config.setClientCertData(null);
    config.setClientKeyData(null);
  }

  KeyManager[] keyManagers() {
    return keyManagers;
  }

  TrustManager[] trustManagers() {
    return trustManagers;
  }

  private static TrustManager[] trusting(List<X509Certificate> authorities)
      throws GeneralSecurityException {
    if (authorities.isEmpty()) {
      throw new GeneralSecurityException("no CA certificate");
    }
    KeyStore trusted = KeyStore.getInstance(KeyStore.getDefaultType());
    try {
      trusted.load(null, null);
    } catch (java.io.IOException e) {
      throw new GeneralSecurityException(e);
    }
    for (int i = 0; i < authorities.size(); i++) {
      trusted.setCertificateEntry("ca-" + i, authorities.get(i));
    }
    TrustManagerFactory factory =
        TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
    factory.init(trusted);
    return factory.getTrustManagers();
  }

  private static List<X509Certificate> certificates(String pem) throws GeneralSecurityException {
    Collection<? extends Certificate> read =
        CertificateFactory.getInstance("X.509")
            .generateCertificates(
                new ByteArrayInputStream(pem.getBytes(StandardCharsets.US_ASCII)));
    return read.stream().map(c -> (X509Certificate) c).toList();
  }

  /** An RSA key in PKCS#1 ({@code RSA PRIVATE KEY}) or PKCS#8, or an EC key in PKCS#8. */
  static Optional<PrivateKey> privateKey(String pem) throws GeneralSecurityException {
    Matcher m = PEM.matcher(pem);
    if (!m.find()) {
      return Optional.empty();
    }
    byte[] der = Base64.getMimeDecoder().decode(m.group(2));
    return switch (m.group(1)) {
      case "RSA PRIVATE KEY" ->
          Optional.of(KeyFactory.getInstance("RSA").generatePrivate(pkcs8(der)));
      case "PRIVATE KEY" -> {
        for (String algorithm : List.of("RSA", "EC")) {
          try {
            yield Optional.of(
                KeyFactory.getInstance(algorithm).generatePrivate(new PKCS8EncodedKeySpec(der)));
          } catch (GeneralSecurityException notThisOne) {
            // the next algorithm
          }
        }
        yield Optional.empty();
      }
      default -> Optional.empty();
    };
  }

  /** A PKCS#1 RSA key wrapped as PKCS#8: version 0, the RSA algorithm, the key as octets. */
  private static PKCS8EncodedKeySpec pkcs8(byte[] pkcs1) {
    ByteArrayOutputStream body = new ByteArrayOutputStream();
    body.writeBytes(new byte[] {0x02, 0x01, 0x00});
    body.writeBytes(RSA_ALGORITHM);
    body.write(0x04);
    body.writeBytes(length(pkcs1.length));
    body.writeBytes(pkcs1);
    ByteArrayOutputStream sequence = new ByteArrayOutputStream();
    sequence.write(0x30);
    sequence.writeBytes(length(body.size()));
    sequence.writeBytes(body.toByteArray());
    return new PKCS8EncodedKeySpec(sequence.toByteArray());
  }

  /** A DER length. */
  private static byte[] length(int length) {
    if (length < 0x80) {
      return new byte[] {(byte) length};
    }
    if (length < 0x100) {
      return new byte[] {(byte) 0x81, (byte) length};
    }
    if (length < 0x10000) {
      return new byte[] {(byte) 0x82, (byte) (length >> 8), (byte) length};
    }
    return new byte[] {(byte) 0x83, (byte) (length >> 16), (byte) (length >> 8), (byte) length};
  }

  private static String decode(String base64) {
    return new String(Base64.getMimeDecoder().decode(base64), StandardCharsets.US_ASCII);
  }

  private static boolean blank(String value) {
    return value == null || value.isBlank();
  }

  /** The one client identity of a kubeconfig. */
  private static final class SingleKey extends X509ExtendedKeyManager {
    private static final String ALIAS = "client";
    private final PrivateKey key;
    private final X509Certificate[] chain;

    SingleKey(PrivateKey key, X509Certificate[] chain) {
      this.key = key;
      this.chain = chain;
    }

    @Override
    public String[] getClientAliases(String keyType, Principal[] issuers) {
      return new String[] {ALIAS};
    }

    @Override
    public String chooseClientAlias(String[] keyType, Principal[] issuers, Socket socket) {
      return fits(keyType);
    }

    @Override
    public String chooseEngineClientAlias(String[] keyType, Principal[] issuers, SSLEngine engine) {
      return fits(keyType);
    }

    /** The alias when the server accepts a key of this one's algorithm, else none. */
    private String fits(String[] keyTypes) {
      return keyTypes == null || List.of(keyTypes).contains(key.getAlgorithm()) ? ALIAS : null;
    }

    @Override
    public String[] getServerAliases(String keyType, Principal[] issuers) {
      return null;
    }

    @Override
    public String chooseServerAlias(String keyType, Principal[] issuers, Socket socket) {
      return null;
    }

    @Override
    public X509Certificate[] getCertificateChain(String alias) {
      return ALIAS.equals(alias) ? chain.clone() : null;
    }

    @Override
    public PrivateKey getPrivateKey(String alias) {
      return ALIAS.equals(alias) ? key : null;
    }
  }
}
