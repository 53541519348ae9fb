package io.openshiftagent.controlplane;

import static io.openshiftagent.provider.testing.TestWorld.await;
import static io.openshiftagent.testsupport.LocalHttp.get;
import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceDefinition;
import io.fabric8.kubernetes.api.model.events.v1.Event;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.dsl.NonNamespaceOperation;
import io.fabric8.kubernetes.client.dsl.Resource;
import io.fabric8.kubernetes.client.dsl.base.PatchContext;
import io.fabric8.kubernetes.client.dsl.base.PatchType;
import io.fabric8.kubernetes.client.utils.Serialization;
import io.openshiftagent.api.controlplane.v1alpha3.OpenshiftAssistedControlPlane;
import io.openshiftagent.provider.runtime.ProviderOptions;
import io.openshiftagent.provider.runtime.ProviderRuntime;
import io.openshiftagent.provider.testing.TestWorld;
import io.openshiftagent.testsupport.CrdInstaller;
import io.openshiftagent.testsupport.FreePorts;
import io.openshiftagent.testsupport.KubeApiServerEnvironment;
import io.openshiftagent.testsupport.LogCapture;
import io.openshiftagent.testsupport.WithKubeApiServer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Control planes the Java model cannot read (a deletion timeout past Cluster API's int32, which our
 * CRD admitted before its bound; the Go provider's CRD does not, as the API server checks its
 * {@code format: int32}), next to good ones, with the provider started as its {@code main} starts
 * it: each unreadable one is reported (a log line, a counter, a Warning Event on it) and skipped,
 * whether it was there at start, created afterwards or made unreadable by a change; the good ones
 * are reconciled; the provider stays ready and live.
 */
@WithKubeApiServer
class UnreadableObjectTest {
  private static final String CRD = "openshiftassistedcontrolplanes.controlplane.cluster.x-k8s.io";
  private static final String SCHEMA =
      "/spec/versions/0/schema/openAPIV3Schema/properties/spec/properties/machineTemplate"
          + "/properties/deletion/properties/nodeDrainTimeoutSeconds";

  /** The field's schema in the Go provider's CRD: the API server checks the int32 format. */
  private static final String GO_PROVIDERS_SCHEMA =
      "{\"type\":\"integer\",\"format\":\"int32\",\"minimum\":0}";

  /** The field's schema in our CRD before its bound. */
  private static final String UNBOUNDED_SCHEMA = "{\"type\":\"integer\",\"minimum\":0}";

  private static final String FIELD = "spec.machineTemplate.deletion.nodeDrainTimeoutSeconds";
  private static final long TOO_LARGE = 1L << 40;
  private static final String COUNTER = "openshift_agent_unreadable_objects_total";

  @Test
  void anUnreadableControlPlaneIsReportedAndSkippedAndTheOthersGoOn(KubeApiServerEnvironment env)
      throws Exception {
    KubernetesClient client = env.client();
    TestWorld c = new TestWorld(env, "unreadable", "unreadable");
    Path kubeconfig = Files.createTempFile("kubeconfig", ".yaml");
    Files.writeString(kubeconfig, env.kubeConfigYaml());
    ControlPlaneProvider provider = new ControlPlaneProvider(Fixtures.providerEnvironment());
    ProviderOptions options =
        ProviderOptions.parse(
            provider.defaultLeaseName(),
            "--kubeconfig=" + kubeconfig,
            "--namespace=" + c.ns,
            "--leader-elect=false",
            "--metrics-bind-address=127.0.0.1:" + FreePorts.next(),
            "--health-probe-bind-address=127.0.0.1:" + FreePorts.next());
    try (LogCapture logs = new LogCapture()) {
      // The Go provider's CRD admits no such object: the int32 format is checked. (Until the API
      // server has taken the changed schema, our bound refuses it with another message.)
      setSchema(client, GO_PROVIDERS_SCHEMA);
      await(
          "the Go provider's schema to refuse the value",
          () -> {
            try {
              client.resource(unreadable(c, "refused")).create();
              throw new AssertionError("admitted under the Go provider's schema");
            } catch (KubernetesClientException e) {
              return e.getCode() == 422
                  && e.getMessage().contains("must be of type integer with format int32");
            }
          });
      setSchema(client, UNBOUNDED_SCHEMA);
      createUnreadable(c, "broken");
      client.resource(Fixtures.controlPlane(c.ns, "good", 1)).create();

      try (ProviderRuntime runtime = ProviderRuntime.start(provider, options)) {
        // Read at start, through the informer's list.
        c.awaitCondition("good", "Available", "WaitingForCluster");
        assertReported(c, runtime, logs, "broken", 1);
        assertThat(get(runtime.healthPort(), "/readyz").statusCode()).isEqualTo(200);
        assertThat(get(runtime.healthPort(), "/healthz").statusCode()).isEqualTo(200);

        // Created while the provider runs: a watch event it cannot read; the watch goes on.
        createUnreadable(c, "broken-later");
        assertReported(c, runtime, logs, "broken-later", 2);
        client.resource(Fixtures.controlPlane(c.ns, "good-later", 1)).create();
        c.awaitCondition("good-later", "Available", "WaitingForCluster");

        // A good one changed into one it cannot read: reported, and no longer reconciled.
        controlPlanes(client, c.ns)
            .withName("good-later")
            .patch(
                PatchContext.of(PatchType.JSON_MERGE),
                "{\"spec\":{\"machineTemplate\":{\"deletion\":{\"nodeDrainTimeoutSeconds\":"
                    + TOO_LARGE
                    + "}}}}");
        assertReported(c, runtime, logs, "good-later", 3);
        client.resource(Fixtures.controlPlane(c.ns, "good-last", 1)).create();
        c.awaitCondition("good-last", "Available", "WaitingForCluster");

        assertThat(get(runtime.healthPort(), "/readyz").statusCode()).isEqualTo(200);
        assertThat(get(runtime.healthPort(), "/healthz").statusCode()).isEqualTo(200);
        // Once per version of each, and never the value.
        assertThat(logs.lines())
            .filteredOn(l -> l.contains("UnreadableObjectReport"))
            .hasSize(3)
            .noneMatch(l -> l.contains(String.valueOf(TOO_LARGE)));
      }
    } finally {
      // Other tests' providers watch every namespace: leave nothing they cannot read.
      for (String name : List.of("broken", "broken-later", "good-later")) {
        Resource<GenericKubernetesResource> cp = controlPlanes(client, c.ns).withName(name);
        if (cp.get() != null) {
          cp.patch(PatchContext.of(PatchType.JSON_MERGE), "{\"metadata\":{\"finalizers\":null}}");
          cp.withTimeout(30, java.util.concurrent.TimeUnit.SECONDS).delete();
        }
      }
      CustomResourceDefinition ours =
          env.installedCrds().stream()
              .filter(crd -> crd.getMetadata().getName().equals(CRD))
              .findFirst()
              .orElseThrow();
      CrdInstaller.install(client, List.of(ours), Duration.ofSeconds(60));
    }
  }

  /**
   * Asserts that {@code name} was reported: an Event on it naming the field, a log line naming it
   * and the field, and the counter at {@code count}.
   */
  private static void assertReported(
      TestWorld c, ProviderRuntime runtime, LogCapture logs, String name, int count) {
    Event event =
        await(
            "an Event on " + name,
            () ->
                c.client.events().v1().events().inNamespace(c.ns).list().getItems().stream()
                    .filter(e -> name.equals(e.getRegarding().getName()))
                    .filter(e -> "Unreadable".equals(e.getReason()))
                    .findFirst()
                    .orElse(null));
    assertThat(event.getType()).isEqualTo("Warning");
    assertThat(event.getRegarding().getKind()).isEqualTo("OpenshiftAssistedControlPlane");
    assertThat(event.getNote()).contains(FIELD).doesNotContain(String.valueOf(TOO_LARGE));
    assertThat(logs.lines()).anyMatch(l -> l.contains(c.ns + "/" + name) && l.contains(FIELD));
    await(
        COUNTER + " at " + count,
        () ->
            get(runtime.metricsPort(), "/metrics")
                .body()
                .contains(COUNTER + "{kind=\"OpenshiftAssistedControlPlane\"} " + count + ".0"));
  }

  private static void setSchema(KubernetesClient client, String schema) {
    client
        .apiextensions()
        .v1()
        .customResourceDefinitions()
        .withName(CRD)
        .patch(
            PatchContext.of(PatchType.JSON),
            "[{\"op\":\"replace\",\"path\":\"" + SCHEMA + "\",\"value\":" + schema + "}]");
  }

  /** Creates {@link #unreadable} once the API server has taken the unbounded schema. */
  private static void createUnreadable(TestWorld c, String name) {
    GenericKubernetesResource raw = unreadable(c, name);
    // Refused until then.
    await("the changed CRD to admit " + name, () -> c.client.resource(raw).create());
  }

  /** A control plane as the fixtures make it, with a deletion timeout no int holds. */
  private static GenericKubernetesResource unreadable(TestWorld c, String name) {
    OpenshiftAssistedControlPlane cp = Fixtures.controlPlane(c.ns, name, 1);
    GenericKubernetesResource raw =
        Serialization.unmarshal(Serialization.asJson(cp), GenericKubernetesResource.class);
    @SuppressWarnings("unchecked")
    Map<String, Object> template =
        (Map<String, Object>)
            ((Map<String, Object>) raw.getAdditionalProperties().get("spec"))
                .get("machineTemplate");
    template.put("deletion", Map.of("nodeDrainTimeoutSeconds", TOO_LARGE));
    return raw;
  }

  private static NonNamespaceOperation<
          GenericKubernetesResource,
          io.fabric8.kubernetes.api.model.GenericKubernetesResourceList,
          Resource<GenericKubernetesResource>>
      controlPlanes(KubernetesClient client, String namespace) {
    return client
        .genericKubernetesResources(
            HasMetadata.getApiVersion(OpenshiftAssistedControlPlane.class),
            HasMetadata.getKind(OpenshiftAssistedControlPlane.class))
        .inNamespace(namespace);
  }
}
