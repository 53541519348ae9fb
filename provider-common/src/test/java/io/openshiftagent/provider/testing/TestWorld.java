package io.openshiftagent.provider.testing;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.Condition;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.ObjectMeta;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.fabric8.kubernetes.api.model.SecretBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.dsl.Resource;
import io.openshiftagent.api.bootstrap.v1alpha2.OpenshiftAssistedConfig;
import io.openshiftagent.api.common.Conditions;
import io.openshiftagent.api.controlplane.v1alpha3.OpenshiftAssistedControlPlane;
import io.openshiftagent.api.external.assisted.Agent;
import io.openshiftagent.api.external.assisted.AgentClusterInstall;
import io.openshiftagent.api.external.assisted.InfraEnv;
import io.openshiftagent.api.external.capi.Machine;
import io.openshiftagent.api.external.hive.ClusterDeployment;
import io.openshiftagent.testsupport.KubeApiServerEnvironment;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Supplier;

/**
 * The in-process test world of both providers: one Cluster API cluster in its own namespace of a
 * real kube-apiserver, with the test playing the parts around the provider under test. {@link
 * #capi} plays Cluster API core, {@link #metal3} Metal3, {@link #assisted} assisted-service, and
 * {@link #providers} whichever of the two providers the test does not run. This class holds what
 * every part and test shares: the namespace, the reads of the objects the tests look at, and
 * waiting.
 */
public final class TestWorld {
  /** How long a test waits for the providers and the API server before it fails. */
  public static final Duration TIMEOUT = Duration.ofSeconds(60);

  public final KubernetesClient client;
  public final String ns;
  public final String clusterName;
  public final ClusterApi capi;
  public final Metal3 metal3;
  public final AssistedService assisted;
  public final Providers providers;

  /**
   * A fresh namespace on {@code env} named after {@code prefix}; its Cluster is still to be made.
   */
  public TestWorld(KubeApiServerEnvironment env, String prefix, String clusterName) {
    this(env.client(), env.createNamespace(prefix), clusterName);
  }

  public TestWorld(KubernetesClient client, String ns, String clusterName) {
    this.client = client;
    this.ns = ns;
    this.clusterName = clusterName;
    this.capi = new ClusterApi(this);
    this.metal3 = new Metal3(this);
    this.assisted = new AssistedService(this);
    this.providers = new Providers(this);
  }

  /** A pull secret holding {@code dockerConfigJson}; replaces one of the same name. */
  public void createPullSecret(String secretName, String dockerConfigJson) {
    client
        .resource(
            new SecretBuilder()
                .withMetadata(meta(secretName, Map.of()))
                .withType("kubernetes.io/dockerconfigjson")
                .addToData(".dockerconfigjson", base64(dockerConfigJson))
                .build())
        .createOr(existing -> existing.update());
  }

  // ---- reads ----

  public <T extends HasMetadata> Resource<T> resource(Class<T> type, String name) {
    return client.resources(type).inNamespace(ns).withName(name);
  }

  public <T extends HasMetadata> T get(Class<T> type, String name) {
    return resource(type, name).get();
  }

  public List<Machine> machines() {
    return client.resources(Machine.class).inNamespace(ns).list().getItems();
  }

  public InfraEnv infraEnv(String name) {
    return get(InfraEnv.class, name);
  }

  public Agent agent(String name) {
    return get(Agent.class, name);
  }

  public ClusterDeployment clusterDeployment(String name) {
    return get(ClusterDeployment.class, name);
  }

  public AgentClusterInstall clusterInstall(String name) {
    return get(AgentClusterInstall.class, name);
  }

  public OpenshiftAssistedConfig config(String name) {
    return get(OpenshiftAssistedConfig.class, name);
  }

  /** The reason of the config's condition {@code type}; null while it has none. */
  public String reason(String config, String type) {
    OpenshiftAssistedConfig c = config(config);
    return c == null || c.getStatus() == null
        ? null
        : Conditions.find(c.getStatus().conditions, type).map(Condition::getReason).orElse(null);
  }

  public OpenshiftAssistedControlPlane controlPlane(String name) {
    return get(OpenshiftAssistedControlPlane.class, name);
  }

  public Optional<Condition> condition(String controlPlane, String type) {
    OpenshiftAssistedControlPlane cp = controlPlane(controlPlane);
    return cp == null || cp.getStatus() == null
        ? Optional.empty()
        : Conditions.find(cp.getStatus().conditions, type);
  }

  /** Waits until the control plane's condition has {@code reason}; returns it. */
  public Condition awaitCondition(String controlPlane, String type, String reason) {
    return awaitCondition(controlPlane, type, reason, "");
  }

  /** Waits until the condition has {@code reason} and its message contains {@code text}. */
  public Condition awaitCondition(String controlPlane, String type, String reason, String text) {
    return await(
        type + " with reason " + reason + " and a message with '" + text + "' on " + controlPlane,
        () ->
            condition(controlPlane, type)
                .filter(c -> reason.equals(c.getReason()) && contains(c.getMessage(), text))
                .orElse(null));
  }

  /** Waits until the provider has reconciled the control plane's current generation. */
  public void awaitObserved(String controlPlane) {
    await(
        "observedGeneration of " + controlPlane,
        () -> {
          OpenshiftAssistedControlPlane cp = controlPlane(controlPlane);
          return cp.getStatus() != null
              && cp.getMetadata().getGeneration().equals(cp.getStatus().observedGeneration);
        });
    assertThat(controlPlane(controlPlane).getStatus().observedGeneration).isNotNull();
  }

  private static boolean contains(String message, String text) {
    return text.isEmpty() || (message != null && message.contains(text));
  }

  // ---- waiting ----

  /**
   * Polls until {@code value} returns neither null nor false, and returns it; a value that throws
   * is not there yet. Fails after {@link #TIMEOUT}, with the last exception as the cause.
   */
  public static <T> T await(String what, Supplier<T> value) {
    long deadline = System.nanoTime() + TIMEOUT.toNanos();
    RuntimeException last = null;
    while (true) {
      try {
        T result = value.get();
        if (result != null && !Boolean.FALSE.equals(result)) {
          return result;
        }
      } catch (RuntimeException e) {
        last = e;
      }
      if (System.nanoTime() > deadline) {
        throw new AssertionError("timed out after " + TIMEOUT + " waiting for " + what, last);
      }
      pause();
    }
  }

  /**
   * Retries {@code assertion} until it passes or the timeout expires (then its failure is thrown).
   */
  public static void eventually(Runnable assertion) {
    long deadline = System.nanoTime() + TIMEOUT.toNanos();
    while (true) {
      try {
        assertion.run();
        return;
      } catch (AssertionError | RuntimeException e) {
        if (System.nanoTime() > deadline) {
          throw e;
        }
      }
      pause();
    }
  }

  private static void pause() {
    try {
      Thread.sleep(50);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new AssertionError(e);
    }
  }

  // ---- for the parts ----

  ObjectMeta meta(String name, Map<String, String> labels) {
    return new ObjectMetaBuilder().withName(name).withNamespace(ns).withLabels(labels).build();
  }

  static String base64(String text) {
    return Base64.getEncoder().encodeToString(text.getBytes(StandardCharsets.UTF_8));
  }
}
