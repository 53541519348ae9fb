package io.openshiftagent.testsupport;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceDefinition;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.dsl.base.PatchContext;
import io.fabric8.kubernetes.client.dsl.base.PatchType;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** Installs CRD manifests with server-side apply and waits until the API server serves them. */
public final class CrdInstaller {
  private static final Logger LOG = LoggerFactory.getLogger(CrdInstaller.class);
  private static final String FIELD_MANAGER = "openshift-agent-tests";
  private static final Duration ESTABLISHED = Duration.ofSeconds(60);

  private CrdInstaller() {}

  /** Reads every CustomResourceDefinition in the YAML files under {@code dir} (recursively). */
  public static List<CustomResourceDefinition> read(KubernetesClient client, Path dir) {
    List<CustomResourceDefinition> crds = new ArrayList<>();
    try (Stream<Path> files = Files.walk(dir)) {
      for (Path file : files.filter(CrdInstaller::isYaml).sorted().toList()) {
        try (InputStream in = Files.newInputStream(file)) {
          for (HasMetadata item : client.load(in).items()) {
            if (item instanceof CustomResourceDefinition crd) {
              crds.add(crd);
            }
          }
        }
      }
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read CRDs under " + dir, e);
    }
    return crds;
  }

  /**
   * Installs every CRD under the directories (see {@link #read}) and waits until each is
   * Established; returns them.
   */
  public static List<CustomResourceDefinition> installFrom(
      KubernetesClient client, List<Path> dirs) {
    for (Path dir : dirs) {
      if (!Files.isDirectory(dir)) {
        throw new IllegalStateException(dir + " is missing: run hack/fetch-upstream-crds.sh");
      }
    }
    long started = System.nanoTime();
    List<CustomResourceDefinition> crds = new ArrayList<>();
    for (Path dir : dirs) {
      crds.addAll(read(client, dir));
    }
    install(client, crds, ESTABLISHED);
    LOG.info(
        "{} CRDs established in {} ms", crds.size(), (System.nanoTime() - started) / 1_000_000);
    return crds;
  }

  /**
   * Labels the Metal3 machine CRDs with their Cluster API contract versions, as clusterctl does
   * when it installs CAPM3 (the upstream CRD files lack the label), so that the control plane can
   * read which version implements the contract.
   */
  public static void labelMetal3MachineContracts(KubernetesClient client) {
    for (String crd :
        List.of(
            "metal3machinetemplates.infrastructure.cluster.x-k8s.io",
            "metal3machines.infrastructure.cluster.x-k8s.io")) {
      client
          .apiextensions()
          .v1()
          .customResourceDefinitions()
          .withName(crd)
          .patch(
              PatchContext.of(PatchType.JSON_MERGE),
              "{\"metadata\":{\"labels\":{\"cluster.x-k8s.io/v1beta2\":\"v1beta1_v1beta2\"}}}");
    }
  }

  /** Applies the CRDs and waits until each is Established. */
  public static void install(
      KubernetesClient client, List<CustomResourceDefinition> crds, Duration timeout) {
    for (CustomResourceDefinition crd : crds) {
      crd.getMetadata().setResourceVersion(null);
      client.resource(crd).fieldManager(FIELD_MANAGER).forceConflicts().serverSideApply();
    }
    awaitEstablished(
        client, timeout, crds.stream().map(crd -> crd.getMetadata().getName()).toList());
  }

  /**
   * Waits until each named CRD is Established, through a watch. Unlike {@code kubectl wait
   * --for=condition=Established}, it also waits for a CRD whose status the API server has not
   * written yet (kubectl fails on the missing conditions).
   */
  public static void awaitEstablished(
      KubernetesClient client, Duration timeout, List<String> names) {
    for (String name : names) {
      client
          .apiextensions()
          .v1()
          .customResourceDefinitions()
          .withName(name)
          .waitUntilCondition(
              CrdInstaller::isEstablished, timeout.toMillis(), TimeUnit.MILLISECONDS);
    }
  }

  public static boolean isEstablished(CustomResourceDefinition crd) {
    return crd != null
        && crd.getStatus() != null
        && crd.getStatus().getConditions() != null
        && crd.getStatus().getConditions().stream()
            .anyMatch(c -> "Established".equals(c.getType()) && "True".equals(c.getStatus()));
  }

  private static boolean isYaml(Path p) {
    String name = p.getFileName().toString();
    return Files.isRegularFile(p) && (name.endsWith(".yaml") || name.endsWith(".yml"));
  }
}
