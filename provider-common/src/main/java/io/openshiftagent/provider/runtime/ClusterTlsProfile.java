package io.openshiftagent.provider.runtime;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.dsl.base.ResourceDefinitionContext;
import io.fabric8.kubernetes.client.informers.ResourceEventHandler;
import io.fabric8.kubernetes.client.informers.SharedIndexInformer;
import io.openshiftagent.provider.reconcile.DaemonThreads;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The cluster-wide TLS profile of an OpenShift hub ({@code apiserver.config.openshift.io/cluster}),
 * followed as it changes, and honoured as OpenShift's library-go says a component must: only when
 * its {@code tlsAdherence} is {@code StrictAllComponents} (or a value not known yet); with no
 * opinion or {@code LegacyAdheringComponentsOnly}, Intermediate. A hub is OpenShift when its API
 * serves {@code apiservers} in {@code config.openshift.io/v1}; on any other, nothing is followed.
 * Each change of the settings that result is handed to the caller, who applies it in place: no
 * restart, so no restart loop on a profile the provider cannot use.
 */
final class ClusterTlsProfile implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(ClusterTlsProfile.class);
  static final ResourceDefinitionContext API_SERVERS =
      new ResourceDefinitionContext.Builder()
          .withGroup("config.openshift.io")
          .withVersion("v1")
          .withKind("APIServer")
          .withPlural("apiservers")
          .withNamespaced(false)
          .build();

  private final KubernetesClient client;
  private final Consumer<TlsSettings> onChange;
  private final ScheduledExecutorService detection =
      Executors.newSingleThreadScheduledExecutor(DaemonThreads.named("tls-profile"));
  private volatile SharedIndexInformer<GenericKubernetesResource> informer;
  private TlsSettings last = TlsSettings.INTERMEDIATE;
  private int attempts;

  private ClusterTlsProfile(KubernetesClient client, Consumer<TlsSettings> onChange) {
    this.client = client;
    this.onChange = onChange;
  }

  /**
   * Looks in the background whether the hub is OpenShift (trying again until its API answers) and,
   * if so, follows its profile, calling {@code onChange} with the settings it asks for whenever
   * they differ from the last ones (Intermediate at first).
   */
  static ClusterTlsProfile follow(KubernetesClient client, Consumer<TlsSettings> onChange) {
    ClusterTlsProfile profile = new ClusterTlsProfile(client, onChange);
    profile.detection.execute(profile::detect);
    return profile;
  }

  /** The settings {@code apiServer} asks of this component; Intermediate when it is absent. */
  @SuppressWarnings("unchecked")
  static TlsSettings settings(GenericKubernetesResource apiServer, List<String> skipped) {
    Map<String, Object> spec =
        apiServer == null
            ? Map.of()
            : (Map<String, Object>)
                apiServer.getAdditionalProperties().getOrDefault("spec", Map.of());
    String adherence = Objects.toString(spec.get("tlsAdherence"), "");
    if (adherence.isEmpty() || adherence.equals("LegacyAdheringComponentsOnly")) {
      return TlsSettings.INTERMEDIATE;
    }
    Map<String, Object> profile =
        (Map<String, Object>) spec.getOrDefault("tlsSecurityProfile", Map.of());
    String type = Objects.toString(profile.get("type"), "Intermediate");
    return switch (type) {
      case "Old" -> TlsSettings.fromProfile("VersionTLS10", OLD, skipped);
      case "Modern" -> new TlsSettings("VersionTLS13", List.of());
      case "Custom" -> {
        Map<String, Object> custom = (Map<String, Object>) profile.getOrDefault("custom", Map.of());
        yield TlsSettings.fromProfile(
            Objects.toString(custom.get("minTLSVersion"), "VersionTLS12"),
            (List<String>) custom.getOrDefault("ciphers", List.of()),
            skipped);
      }
      default -> TlsSettings.INTERMEDIATE;
    };
  }

  /** OpenShift's Old profile's TLS 1.2 suites (openshift/api's TLSProfiles). */
  private static final List<String> OLD =
      List.of(
          "ECDHE-ECDSA-AES128-GCM-SHA256",
          "ECDHE-RSA-AES128-GCM-SHA256",
          "ECDHE-ECDSA-AES256-GCM-SHA384",
          "ECDHE-RSA-AES256-GCM-SHA384",
          "ECDHE-ECDSA-CHACHA20-POLY1305",
          "ECDHE-RSA-CHACHA20-POLY1305",
          "ECDHE-ECDSA-AES128-SHA256",
          "ECDHE-RSA-AES128-SHA256",
          "ECDHE-ECDSA-AES128-SHA",
          "ECDHE-RSA-AES128-SHA",
          "ECDHE-ECDSA-AES256-SHA",
          "ECDHE-RSA-AES256-SHA",
          "AES128-GCM-SHA256",
          "AES256-GCM-SHA384",
          "AES128-SHA256",
          "AES128-SHA",
          "AES256-SHA",
          "DES-CBC3-SHA");

  private void detect() {
    boolean openShift;
    try {
      // The group list first: asking for the resources of a group not served is an error.
      openShift =
          client.getApiGroups().getGroups().stream()
                  .anyMatch(
                      g ->
                          g.getName().equals("config.openshift.io")
                              && g.getVersions().stream()
                                  .anyMatch(v -> v.getVersion().equals("v1")))
              && client.getApiResources("config.openshift.io/v1").getResources().stream()
                  .anyMatch(r -> r.getName().equals("apiservers"));
    } catch (RuntimeException e) {
      long delay = Math.min(30, 1L << Math.min(5, attempts++));
      LOG.warn(
          "cannot tell whether the hub is OpenShift, asking again in {} s: {}",
          delay,
          e.getMessage());
      detection.schedule(this::detect, delay, TimeUnit.SECONDS);
      return;
    }
    if (!openShift) {
      LOG.info("the hub is not OpenShift: the metrics server keeps the Intermediate TLS profile");
      return;
    }
    LOG.info(
        "the hub is OpenShift: following the TLS profile of apiserver.config.openshift.io/cluster");
    SharedIndexInformer<GenericKubernetesResource> watch =
        client.genericKubernetesResources(API_SERVERS).withName("cluster").runnableInformer(0);
    watch.addEventHandler(
        new ResourceEventHandler<>() {
          @Override
          public void onAdd(GenericKubernetesResource apiServer) {
            changed(apiServer);
          }

          @Override
          public void onUpdate(GenericKubernetesResource before, GenericKubernetesResource after) {
            changed(after);
          }

          @Override
          public void onDelete(GenericKubernetesResource apiServer, boolean unknownFinalState) {
            changed(null);
          }
        });
    informer = watch;
    watch.start();
  }

  private synchronized void changed(GenericKubernetesResource apiServer) {
    List<String> skipped = new ArrayList<>();
    TlsSettings now = settings(apiServer, skipped);
    if (!skipped.isEmpty()) {
      LOG.warn("the cluster TLS profile names cipher suites this JVM does not offer: {}", skipped);
    }
    if (!now.equals(last)) {
      last = now;
      LOG.info(
          "the cluster TLS profile asks for {} and {}: applied to the metrics server",
          now.minVersion(),
          now.cipherSuites().isEmpty() ? "TLS 1.3's cipher suites only" : now.cipherSuites());
      onChange.accept(now);
    }
  }

  /** The last settings handed on. */
  synchronized TlsSettings current() {
    return last;
  }

  @Override
  public void close() {
    detection.shutdownNow();
    Optional.ofNullable(informer).ifPresent(SharedIndexInformer::close);
  }
}
