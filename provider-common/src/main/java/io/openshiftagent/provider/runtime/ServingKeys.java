package io.openshiftagent.provider.runtime;

import io.fabric8.kubernetes.client.internal.CertUtils;
import java.io.IOException;
import java.io.InputStream;
import java.net.Socket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.security.GeneralSecurityException;
import java.security.KeyStore;
import java.security.Principal;
import java.security.PrivateKey;
import java.security.cert.Certificate;
import java.security.cert.X509Certificate;
import java.util.List;
import java.util.Optional;
import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLEngine;
import javax.net.ssl.X509ExtendedKeyManager;
import javax.net.ssl.X509KeyManager;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A server's key and certificate (the metrics', the runtime extension hooks'): {@code tls.crt} and
 * {@code tls.key} of a directory (a mounted Secret of type {@code kubernetes.io/tls}, e.g. from
 * cert-manager or OpenShift's service CA), read again when they change so that a rotation needs no
 * restart; or, without one, a {@link SelfSignedCertificate}.
 */
final class ServingKeys extends X509ExtendedKeyManager {
  private static final Logger LOG = LoggerFactory.getLogger(ServingKeys.class);
  private static final char[] PASSWORD = "in-memory".toCharArray();

  private final Optional<Path> directory;
  private volatile X509KeyManager current;
  private volatile FileTime loadedAt;

  private ServingKeys(Optional<Path> directory, X509KeyManager current, FileTime loadedAt) {
    this.directory = directory;
    this.current = current;
    this.loadedAt = loadedAt;
  }

  /** From {@code directory}, else self-signed for {@code hostname}. Fails on unreadable files. */
  static ServingKeys of(Optional<Path> directory, String hostname) {
    try {
      if (directory.isPresent()) {
        FileTime modified = modified(directory.get());
        return new ServingKeys(directory, load(directory.get()), modified);
      }
      SelfSignedCertificate self = SelfSignedCertificate.generate(hostname, List.of(hostname));
      KeyStore store = KeyStore.getInstance("PKCS12");
      store.load(null, PASSWORD);
      store.setKeyEntry(
          "serving", self.keys().getPrivate(), PASSWORD, new Certificate[] {self.certificate()});
      return new ServingKeys(Optional.empty(), keyManager(store), null);
    } catch (IOException | GeneralSecurityException e) {
      throw new IllegalStateException("cannot load the serving certificate: " + e, e);
    }
  }

  SSLContext sslContext() {
    try {
      SSLContext context = SSLContext.getInstance("TLS");
      context.init(new javax.net.ssl.KeyManager[] {this}, null, null);
      return context;
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException(e);
    }
  }

  /** Reads the files again when either changed; keeps the last good ones when they are bad. */
  private X509KeyManager keys() {
    if (directory.isPresent()) {
      try {
        FileTime modified = modified(directory.get());
        if (!modified.equals(loadedAt)) {
          current = load(directory.get());
          loadedAt = modified;
          LOG.info("loaded the new serving certificate from {}", directory.get());
        }
      } catch (IOException | GeneralSecurityException | RuntimeException e) {
        LOG.warn("cannot reload the serving certificate, keeping the last: {}", e.toString());
      }
    }
    return current;
  }

  private static FileTime modified(Path dir) throws IOException {
    FileTime crt = Files.getLastModifiedTime(dir.resolve("tls.crt"));
    FileTime key = Files.getLastModifiedTime(dir.resolve("tls.key"));
    return crt.compareTo(key) > 0 ? crt : key;
  }

  private static X509KeyManager load(Path dir) throws IOException, GeneralSecurityException {
    // The key file does not say its algorithm (PKCS#8) or needs it named (fabric8's reader).
    Exception failure = null;
    for (String algorithm : List.of("RSA", "EC")) {
      try (InputStream crt = Files.newInputStream(dir.resolve("tls.crt"));
          InputStream key = Files.newInputStream(dir.resolve("tls.key"))) {
        return keyManager(CertUtils.createKeyStore(crt, key, algorithm, PASSWORD, null, PASSWORD));
      } catch (GeneralSecurityException | IOException e) {
        failure = e;
      }
    }
    throw new GeneralSecurityException("cannot read " + dir + "/tls.key as RSA or EC", failure);
  }

  private static X509KeyManager keyManager(KeyStore store) throws GeneralSecurityException {
    KeyManagerFactory factory =
        KeyManagerFactory.getInstance(KeyManagerFactory.getDefaultAlgorithm());
    factory.init(store, PASSWORD);
    return (X509KeyManager) factory.getKeyManagers()[0];
  }

  @Override
  public String chooseEngineServerAlias(String keyType, Principal[] issuers, SSLEngine engine) {
    X509KeyManager keys = keys();
    return keys instanceof X509ExtendedKeyManager extended
        ? extended.chooseEngineServerAlias(keyType, issuers, engine)
        : keys.chooseServerAlias(keyType, issuers, null);
  }

  @Override
  public String chooseServerAlias(String keyType, Principal[] issuers, Socket socket) {
    return keys().chooseServerAlias(keyType, issuers, socket);
  }

  @Override
  public String[] getServerAliases(String keyType, Principal[] issuers) {
    return current.getServerAliases(keyType, issuers);
  }

  @Override
  public X509Certificate[] getCertificateChain(String alias) {
    return current.getCertificateChain(alias);
  }

  @Override
  public PrivateKey getPrivateKey(String alias) {
    return current.getPrivateKey(alias);
  }

  @Override
  public String[] getClientAliases(String keyType, Principal[] issuers) {
    return null; // a server only
  }

  @Override
  public String chooseClientAlias(String[] keyType, Principal[] issuers, Socket socket) {
    return null;
  }
}
