package io.openshiftagent.testsupport;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/**
 * The kube-apiserver flags of its aggregation layer, as a real control plane sets them (kubeadm's
 * defaults): a front-proxy CA whose client certificate the aggregator presents to an extension API
 * server (an APIService's server), with the user, groups and extras of the request it proxies in
 * {@code X-Remote-*} headers. The API server publishes that CA and those header names in the
 * ConfigMap {@code kube-system/extension-apiserver-authentication}, from which an extension server
 * (assisted-service's admission server) authenticates the aggregator's requests. Without them the
 * aggregator proxies no identity, and an extension server refuses every request as anonymous.
 */
public final class AggregationLayer {
  /** The common name of the aggregator's client certificate, as kubeadm names it. */
  static final String PROXY_CLIENT = "front-proxy-client";

  private AggregationLayer() {}

  /** Writes a fresh front-proxy CA and client certificate into {@code dir}; returns the flags. */
  public static List<String> apiServerFlags(Path dir) {
    try {
      Files.createDirectories(dir);
      TestPki ca = TestPki.newCertificateAuthority("front-proxy-ca");
      TestPki.PemKeyPair client = ca.pemClientCertificate(PROXY_CLIENT, "front-proxy");
      Path caFile = write(dir.resolve("front-proxy-ca.crt"), ca.caPem());
      Path certFile = write(dir.resolve("front-proxy-client.crt"), client.certificate());
      Path keyFile = write(dir.resolve("front-proxy-client.key"), client.privateKey());
      return List.of(
          "--requestheader-client-ca-file",
          caFile.toString(),
          "--requestheader-allowed-names",
          PROXY_CLIENT,
          "--requestheader-username-headers",
          "X-Remote-User",
          "--requestheader-group-headers",
          "X-Remote-Group",
          "--requestheader-extra-headers-prefix",
          "X-Remote-Extra-",
          "--proxy-client-cert-file",
          certFile.toString(),
          "--proxy-client-key-file",
          keyFile.toString());
    } catch (IOException e) {
      throw new UncheckedIOException("cannot write the front-proxy certificates in " + dir, e);
    } catch (Exception e) {
      throw new IllegalStateException("cannot make the front-proxy certificates", e);
    }
  }

  private static Path write(Path file, String pem) throws IOException {
    Files.writeString(file, pem);
    return file.toAbsolutePath();
  }
}
