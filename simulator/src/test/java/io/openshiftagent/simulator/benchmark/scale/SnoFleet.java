package io.openshiftagent.simulator.benchmark.scale;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.NamespaceBuilder;
import io.fabric8.kubernetes.api.model.SecretBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.utils.Serialization;
import io.openshiftagent.api.external.ExternalKinds;
import io.openshiftagent.simulator.ApiVersions;
import io.openshiftagent.testsupport.TestPaths;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The fleet of the scale benchmark: single-node clusters made from the clusterctl template users
 * apply ({@code templates/cluster-template-sno.yaml}), each in a namespace of its own (as a hub
 * keeps its clusters), with its pull secret and one BareMetalHost (with its BMC Secret). The
 * control plane resolves the release in the world's release registry.
 */
final class SnoFleet {
  private static final Pattern VARIABLE = Pattern.compile("\\$\\{([A-Z_]+)(?::=([^}]*))?\\}");
  private static final String RELEASE_REPOSITORY_ANNOTATION =
      "cluster.x-k8s.io/release-image-repository-override";

  private final String template;
  private final String releaseRepository;
  private final Optional<String> watchFilter;

  /**
   * @param releaseRepository where the control plane resolves the release (annotation)
   * @param watchFilter the value of Cluster API's watch-filter label on every object, if any
   */
  SnoFleet(String releaseRepository, Optional<String> watchFilter) {
    try {
      this.template =
          Files.readString(TestPaths.repoRoot().resolve("templates/cluster-template-sno.yaml"));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    this.releaseRepository = releaseRepository;
    this.watchFilter = watchFilter;
  }

  static String namespace(int index) {
    return String.format("scale-%04d", index);
  }

  static String cluster(int index) {
    return String.format("sno-%04d", index);
  }

  /** Applies cluster {@code index} (from 1): its namespace, Secrets, host, then the cluster. */
  void apply(KubernetesClient hub, int index) {
    String ns = namespace(index);
    hub.namespaces()
        .resource(new NamespaceBuilder().withNewMetadata().withName(ns).endMetadata().build())
        .create();
    for (HasMetadata object : objects(hub, index)) {
      object.getMetadata().setNamespace(ns);
      hub.resource(object).create();
    }
  }

  List<HasMetadata> objects(KubernetesClient hub, int index) {
    String cluster = cluster(index);
    String host = cluster + "-host";
    List<HasMetadata> objects = new ArrayList<>();
    objects.add(
        labelled(
            new SecretBuilder()
                .withNewMetadata()
                .withName("pull-secret")
                .endMetadata()
                .withType("kubernetes.io/dockerconfigjson")
                .addToStringData(
                    ".dockerconfigjson",
                    "{\"auths\":{\"registry.example.com\":{\"auth\":\"dXNlcjpwYXNz\"}}}")
                .build()));
    objects.add(
        labelled(
            new SecretBuilder()
                .withNewMetadata()
                .withName(host + "-bmc")
                .endMetadata()
                .addToStringData("username", "admin")
                .addToStringData("password", "secret")
                .build()));
    GenericKubernetesResource bmh = new GenericKubernetesResource();
    bmh.setApiVersion(ApiVersions.METAL3);
    bmh.setKind("BareMetalHost");
    bmh.setMetadata(new io.fabric8.kubernetes.api.model.ObjectMetaBuilder().withName(host).build());
    bmh.setAdditionalProperty(
        "spec",
        Map.of(
            "online", true,
            "bootMACAddress", String.format("52:54:%02x:%02x:00:00", index >> 8, index & 0xff),
            "bmc",
                Map.of(
                    "address",
                        "redfish-virtualmedia://192.168.222.1:8000/redfish/v1/Systems/" + host,
                    "credentialsName", host + "-bmc")));
    objects.add(labelled(bmh));
    Map<String, String> variables = new LinkedHashMap<>();
    variables.put("CLUSTER_NAME", cluster);
    variables.put("NAMESPACE", namespace(index));
    variables.put("NODE_IP", "192.168.222.30");
    variables.put("OPENSHIFT_VERSION", "4.20.0");
    variables.put("BASE_DOMAIN", "scale.lab");
    variables.put(
        "SSH_AUTHORIZED_KEY",
        "ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIPWCmCQBl8AFoeTGj8v52CkBt9PxUkUJ7Ss2++ELtgNq user@example");
    variables.put("IMAGE_URL", "https://example.com/rhcos-4.20.0-x86_64-nutanix.x86_64.qcow2");
    variables.put(
        "IMAGE_CHECKSUM", "https://example.com/rhcos-4.20.0-x86_64-nutanix.x86_64.qcow2.sha256sum");
    for (HasMetadata object :
        hub.load(
                new ByteArrayInputStream(
                    substitute(template, variables).getBytes(StandardCharsets.UTF_8)))
            .items()) {
      GenericKubernetesResource generic =
          object instanceof GenericKubernetesResource g
              ? g
              : Serialization.unmarshal(
                  Serialization.asJson(object), GenericKubernetesResource.class);
      if (generic.getKind().equals("OpenshiftAssistedControlPlane")) {
        generic
            .getMetadata()
            .getAnnotations()
            .put(RELEASE_REPOSITORY_ANNOTATION, releaseRepository);
        watchFilter.ifPresent(filter -> labelMachines(generic, filter));
      }
      objects.add(labelled(generic));
    }
    return objects;
  }

  private <T extends HasMetadata> T labelled(T object) {
    watchFilter.ifPresent(
        filter -> {
          if (object.getMetadata().getLabels() == null) {
            object.getMetadata().setLabels(new LinkedHashMap<>());
          }
          object.getMetadata().getLabels().put(ExternalKinds.WATCH_FILTER_LABEL, filter);
        });
    return object;
  }

  /** The control-plane Machines (and what is made for them) carry the label too. */
  @SuppressWarnings("unchecked")
  private static void labelMachines(GenericKubernetesResource cp, String filter) {
    Map<String, Object> spec = (Map<String, Object>) cp.getAdditionalProperties().get("spec");
    Map<String, Object> template =
        (Map<String, Object>) spec.computeIfAbsent("machineTemplate", k -> new LinkedHashMap<>());
    Map<String, Object> metadata =
        (Map<String, Object>) template.computeIfAbsent("metadata", k -> new LinkedHashMap<>());
    Map<String, Object> labels =
        (Map<String, Object>) metadata.computeIfAbsent("labels", k -> new LinkedHashMap<>());
    labels.put(ExternalKinds.WATCH_FILTER_LABEL, filter);
  }

  /** {@code ${NAME}} and {@code ${NAME:=default}}, as clusterctl substitutes them. */
  static String substitute(String text, Map<String, String> variables) {
    Matcher m = VARIABLE.matcher(text);
    StringBuilder out = new StringBuilder();
    while (m.find()) {
      String value = variables.getOrDefault(m.group(1), m.group(2));
      if (value == null) {
        throw new IllegalArgumentException("no value for ${" + m.group(1) + "}");
      }
      m.appendReplacement(out, Matcher.quoteReplacement(value));
    }
    return m.appendTail(out).toString();
  }
}
