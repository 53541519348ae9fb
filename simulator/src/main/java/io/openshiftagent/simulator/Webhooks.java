package io.openshiftagent.simulator;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.LabelSelector;
import io.fabric8.kubernetes.api.model.LabelSelectorBuilder;
import io.fabric8.kubernetes.api.model.admissionregistration.v1.MutatingWebhookConfiguration;
import io.fabric8.kubernetes.api.model.admissionregistration.v1.ValidatingWebhookConfiguration;
import io.fabric8.kubernetes.api.model.admissionregistration.v1.WebhookClientConfig;
import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceDefinition;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.dsl.NonDeletingOperation;
import io.openshiftagent.testsupport.TestPki;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A manager's webhooks as its release registers them, pointed at the manager's local server: the
 * admission webhook configurations and the CRDs' conversion webhooks name {@code
 * https://127.0.0.1:<port><path>} instead of the in-cluster Service, with the CA of a throwaway
 * certificate authority whose serving certificate (for 127.0.0.1) the manager serves.
 */
final class Webhooks {
  private static final Logger LOG = LoggerFactory.getLogger(Webhooks.class);

  private final KubernetesClient hub;
  private final TestPki ca;
  private final String caBundle;
  private final List<HasMetadata> registered = new ArrayList<>();
  private int port;

  /** A new certificate authority for one manager's webhook server. */
  Webhooks(KubernetesClient hub, String name) {
    this.hub = hub;
    try {
      this.ca = TestPki.newCertificateAuthority(name + "-webhook-ca");
      this.caBundle =
          Base64.getEncoder().encodeToString(ca.caPem().getBytes(StandardCharsets.UTF_8));
    } catch (Exception e) {
      throw new IllegalStateException("cannot make the webhook CA of " + name, e);
    }
  }

  /**
   * Writes the serving certificate and key ({@code tls.crt}, {@code tls.key}, as cert-manager's
   * Secret has them) into {@code dir}, for a server on {@code port}.
   */
  Path writeServingCertificate(Path dir, int port) {
    this.port = port;
    try {
      Files.createDirectories(dir);
      TestPki.PemKeyPair serving = ca.pemServerCertificateFor127001("webhook");
      Files.writeString(dir.resolve("tls.crt"), serving.certificate());
      Files.writeString(dir.resolve("tls.key"), serving.privateKey());
      return dir;
    } catch (Exception e) {
      throw new IllegalStateException("cannot write a webhook serving certificate", e);
    }
  }

  /** The objects of a YAML file of manifests. */
  static List<HasMetadata> read(KubernetesClient hub, Path manifests) {
    try (InputStream in = Files.newInputStream(manifests)) {
      return hub.load(in).items();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /**
   * Registers the admission webhook configurations among {@code objects}, their names prefixed with
   * {@code namePrefix}, pointed at this server; with a {@code namespace}, for that namespace's
   * objects only (a manager that watches one namespace).
   */
  void registerAdmission(List<HasMetadata> objects, String namePrefix, String namespace) {
    LabelSelector only =
        namespace == null
            ? null
            : new LabelSelectorBuilder()
                .addToMatchLabels("kubernetes.io/metadata.name", namespace)
                .build();
    for (HasMetadata object : objects) {
      if (object instanceof MutatingWebhookConfiguration mutating) {
        mutating.getWebhooks().forEach(w -> local(w.getClientConfig()));
        if (only != null) {
          mutating.getWebhooks().forEach(w -> w.setNamespaceSelector(only));
        }
      } else if (object instanceof ValidatingWebhookConfiguration validating) {
        validating.getWebhooks().forEach(w -> local(w.getClientConfig()));
        if (only != null) {
          validating.getWebhooks().forEach(w -> w.setNamespaceSelector(only));
        }
      } else {
        continue;
      }
      object.getMetadata().setName(namePrefix + object.getMetadata().getName());
      object.getMetadata().setNamespace(null);
      registered.add(hub.resource(object).createOr(NonDeletingOperation::update));
    }
  }

  /** Points a CRD's conversion webhook, if it has one, at this server. */
  void pointConversionHere(CustomResourceDefinition crd) {
    var conversion = crd.getSpec().getConversion();
    if (conversion != null && conversion.getWebhook() != null) {
      var config = conversion.getWebhook().getClientConfig();
      String path =
          config.getService().getPath() == null ? "/convert" : config.getService().getPath();
      config.setService(null);
      config.setUrl("https://127.0.0.1:" + port + path);
      config.setCaBundle(caBundle);
    }
  }

  private void local(WebhookClientConfig config) {
    String path = config.getService().getPath();
    config.setService(null);
    config.setUrl("https://127.0.0.1:" + port + path);
    config.setCaBundle(caBundle);
  }

  /**
   * Removes the admission webhook configurations: with failurePolicy Fail they must not outlive the
   * server behind them. Best effort (the hub may be stopping too).
   */
  void unregister() {
    for (HasMetadata webhook : registered) {
      try {
        hub.resource(webhook).delete();
      } catch (RuntimeException e) {
        LOG.warn("could not remove {}: {}", webhook.getMetadata().getName(), e.getMessage());
      }
    }
    registered.clear();
  }
}
