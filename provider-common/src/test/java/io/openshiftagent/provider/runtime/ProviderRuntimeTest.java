package io.openshiftagent.provider.runtime;

import static io.openshiftagent.testsupport.LocalHttp.get;
import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.coordination.v1.Lease;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.javaoperatorsdk.operator.Operator;
import io.javaoperatorsdk.operator.api.reconciler.Context;
import io.javaoperatorsdk.operator.api.reconciler.ControllerConfiguration;
import io.javaoperatorsdk.operator.api.reconciler.Reconciler;
import io.javaoperatorsdk.operator.api.reconciler.UpdateControl;
import io.openshiftagent.api.bootstrap.v1alpha2.OpenshiftAssistedConfig;
import io.openshiftagent.api.bootstrap.v1alpha2.OpenshiftAssistedConfigSpec;
import io.openshiftagent.testsupport.FreePorts;
import io.openshiftagent.testsupport.KubeApiServerEnvironment;
import io.openshiftagent.testsupport.WithKubeApiServer;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;
import org.junit.jupiter.api.Test;

/**
 * The runtime on the real API server: probes, per-controller metrics, watch scope, and a leader
 * Lease taken on start and released on stop.
 */
@WithKubeApiServer
class ProviderRuntimeTest {

  /** Records which configs it saw. */
  @ControllerConfiguration(name = "recorder")
  static class RecordingReconciler implements Reconciler<OpenshiftAssistedConfig> {
    final Set<String> seen = ConcurrentHashMap.newKeySet();

    @Override
    public UpdateControl<OpenshiftAssistedConfig> reconcile(
        OpenshiftAssistedConfig config, Context<OpenshiftAssistedConfig> ctx) {
      seen.add(config.getMetadata().getNamespace() + "/" + config.getMetadata().getName());
      return UpdateControl.noUpdate();
    }
  }

  /**
   * Blocks each reconcile of an object named {@code wedge} until released, and records every object
   * it reconciled.
   */
  @ControllerConfiguration(name = "wedging")
  static class WedgingReconciler implements Reconciler<OpenshiftAssistedConfig> {
    final CountDownLatch wedged = new CountDownLatch(1);
    final CountDownLatch release = new CountDownLatch(1);
    final Set<String> seen = ConcurrentHashMap.newKeySet();

    @Override
    public UpdateControl<OpenshiftAssistedConfig> reconcile(
        OpenshiftAssistedConfig config, Context<OpenshiftAssistedConfig> ctx)
        throws InterruptedException {
      if (config.getMetadata().getName().equals("wedge")) {
        wedged.countDown();
        release.await();
      }
      seen.add(config.getMetadata().getName());
      return UpdateControl.noUpdate();
    }
  }

  static final class TestProvider implements ProviderRuntime.Provider {
    final Reconciler<OpenshiftAssistedConfig> reconciler;

    TestProvider(Reconciler<OpenshiftAssistedConfig> reconciler) {
      this.reconciler = reconciler;
    }

    @Override
    public String command() {
      return "test-provider";
    }

    @Override
    public String description() {
      return "test";
    }

    @Override
    public String defaultLeaseName() {
      return "test-provider-leader";
    }

    @Override
    public void register(Operator operator, KubernetesClient client, ControllerScope scope) {
      ProviderOperator.register(operator, reconciler, scope.apply());
    }
  }

  @Test
  void probesMetricsWatchScopeAndLease(KubeApiServerEnvironment env) throws Exception {
    KubernetesClient client = env.client();
    String watched = env.createNamespace("runtime-watched");
    String other = env.createNamespace("runtime-other");
    Path kubeconfig = Files.createTempFile("kubeconfig", ".yaml");
    Files.writeString(kubeconfig, env.kubeConfigYaml());
    RecordingReconciler recorder = new RecordingReconciler();
    TestProvider provider = new TestProvider(recorder);
    ProviderOptions options =
        ProviderOptions.parse(
            provider.defaultLeaseName(),
            "--kubeconfig=" + kubeconfig,
            "--namespace=" + watched,
            "--watch-filter=team-a",
            "--leader-elect=true",
            "--leader-election-namespace=" + watched,
            "--metrics-bind-address=127.0.0.1:" + FreePorts.next(),
            "--health-probe-bind-address=127.0.0.1:" + FreePorts.next());

    try (ProviderRuntime runtime = ProviderRuntime.start(provider, options)) {
      await(() -> get(runtime.healthPort(), "/readyz").statusCode() == 200);
      assertThat(get(runtime.healthPort(), "/healthz").statusCode()).isEqualTo(200);

      client.resource(config(watched, "in-scope", "team-a")).create();
      client.resource(config(watched, "other-filter", "team-b")).create();
      client.resource(config(other, "other-namespace", "team-a")).create();
      await(() -> recorder.seen.contains(watched + "/in-scope"));

      // A reconcile's success is counted just after it returns: wait for the counter itself.
      await(
          () ->
              get(runtime.metricsPort(), "/metrics")
                  .body()
                  .contains(
                      "controller_runtime_reconcile_total{controller=\"recorder\",result=\"success\"} "));
      String metrics = get(runtime.metricsPort(), "/metrics").body();
      assertThat(metrics)
          .contains(
              "controller_runtime_reconcile_total{controller=\"recorder\",result=\"error\"} 0.0",
              "controller_runtime_reconcile_errors_total{controller=\"recorder\"} 0.0",
              "workqueue_depth{controller=\"recorder\",name=\"recorder\"} 0.0",
              "controller_runtime_active_workers{controller=\"recorder\"} 0.0")
          .containsPattern(
              "controller_runtime_reconcile_time_seconds_count\\{controller=\"recorder\"} [1-9]")
          .containsPattern(
              "workqueue_adds_total\\{controller=\"recorder\",name=\"recorder\"} [1-9]");
      assertThat(metrics).contains("jvm_memory_used_bytes");

      Lease lease = client.leases().inNamespace(watched).withName("test-provider-leader").get();
      assertThat(lease).isNotNull();
      assertThat(lease.getSpec().getHolderIdentity()).isNotBlank();
    }
    assertThat(recorder.seen).containsExactly(watched + "/in-scope");
    Lease released = client.leases().inNamespace(watched).withName("test-provider-leader").get();
    assertThat(released.getSpec().getHolderIdentity()).as("Lease released on stop").isNullOrEmpty();
  }

  /**
   * One worker, wedged on one object while another waits for it: {@code /healthz} answers 500
   * naming both once the 2 s stall timeout has passed, and 200 again once the reconcile returns.
   */
  @Test
  void healthzFailsWhileReconcilingIsWedgedAndRecoversWhenItMoves(KubeApiServerEnvironment env)
      throws Exception {
    KubernetesClient client = env.client();
    String namespace = env.createNamespace("runtime-wedged");
    Path kubeconfig = Files.createTempFile("kubeconfig", ".yaml");
    Files.writeString(kubeconfig, env.kubeConfigYaml());
    WedgingReconciler reconciler = new WedgingReconciler();
    TestProvider provider = new TestProvider(reconciler);
    ProviderOptions options =
        ProviderOptions.parse(
            provider.defaultLeaseName(),
            "--kubeconfig=" + kubeconfig,
            "--namespace=" + namespace,
            "--leader-elect=false",
            "--concurrency=1",
            "--liveness-stall-timeout=2s",
            "--metrics-bind-address=0",
            "--health-probe-bind-address=127.0.0.1:" + FreePorts.next());

    try (ProviderRuntime runtime = ProviderRuntime.start(provider, options)) {
      await(() -> get(runtime.healthPort(), "/readyz").statusCode() == 200);
      client.resource(config(namespace, "first", "any")).create();
      await(() -> reconciler.seen.contains("first"));
      HttpResponse<String> moving = get(runtime.healthPort(), "/healthz");
      assertThat(moving.statusCode()).isEqualTo(200);
      assertThat(moving.body()).isEqualTo("ok");

      client.resource(config(namespace, "wedge", "any")).create();
      assertThat(reconciler.wedged.await(30, TimeUnit.SECONDS)).isTrue();
      client.resource(config(namespace, "queued", "any")).create();
      await(
          () ->
              get(runtime.healthPort(), "/healthz").body().contains("queued waiting for a worker"));
      HttpResponse<String> wedged = get(runtime.healthPort(), "/healthz");
      assertThat(wedged.statusCode()).isEqualTo(500);
      assertThat(wedged.body())
          .startsWith("reconciling stalled (--liveness-stall-timeout=2s):\n")
          .containsPattern(
              "controller wedging: "
                  + namespace
                  + "/wedge reconciling since \\d{4}-\\d\\d-\\d\\dT[0-9:]+Z \\(\\d+s\\)\n")
          .containsPattern(
              "controller wedging: "
                  + namespace
                  + "/queued waiting for a worker since [0-9T:Z-]+ \\(\\d+s\\), no reconcile"
                  + " finished since [0-9T:Z-]+\n");

      reconciler.release.countDown();
      await(() -> reconciler.seen.containsAll(Set.of("wedge", "queued")));
      await(() -> get(runtime.healthPort(), "/healthz").statusCode() == 200);
      assertThat(get(runtime.healthPort(), "/healthz").body()).isEqualTo("ok");
    } finally {
      reconciler.release.countDown();
    }
  }

  private static OpenshiftAssistedConfig config(String namespace, String name, String watchFilter) {
    OpenshiftAssistedConfig config = new OpenshiftAssistedConfig();
    config.getMetadata().setNamespace(namespace);
    config.getMetadata().setName(name);
    config.getMetadata().setLabels(java.util.Map.of("cluster.x-k8s.io/watch-filter", watchFilter));
    config.setSpec(new OpenshiftAssistedConfigSpec());
    return config;
  }

  private static void await(Supplier<Boolean> condition) throws InterruptedException {
    long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
    RuntimeException last = null;
    while (System.nanoTime() < deadline) {
      try {
        if (condition.get()) {
          return;
        }
      } catch (RuntimeException e) {
        last = e; // not there yet
      }
      Thread.sleep(100);
    }
    throw new AssertionError("condition not met within 30s", last);
  }
}
