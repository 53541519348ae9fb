package io.openshiftagent.simulator;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.NodeAddress;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceDefinition;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.openshiftagent.testsupport.CrdInstaller;
import io.openshiftagent.testsupport.FreePorts;
import io.openshiftagent.testsupport.TestPaths;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.Socket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * The kubelets of one installed cluster where {@code kubectl exec} needs them: the real kwok
 * ({@code hack/build-kwok.sh}) serving the kubelet API on a loopback port, which each Node
 * advertises ({@code status.daemonEndpoints}, an InternalIP of 127.0.0.1) so that the cluster's
 * kube-apiserver proxies {@code pods/exec} to it as to a kubelet. kwok runs an exec'd command
 * locally, with the environment its {@code Exec} object gives the pod: the etcd pods' {@code
 * etcdctl} container gets {@code ETCDCTL_ENDPOINTS}, the member's own client URL, as OpenShift's
 * etcd pods do. kwok manages no Node and no pod here (the world plays them); it only serves.
 */
final class KwokKubelet implements AutoCloseable {
  static final String NAMESPACE = "openshift-etcd";
  private static final String KWOK_API = "kwok.x-k8s.io/v1alpha1";

  /** A Stage that matches nothing: kwok refuses to start without one, and manages nothing here. */
  private static final String CONFIG =
      """
      apiVersion: kwok.x-k8s.io/v1alpha1
      kind: Stage
      metadata:
        name: unused
      spec:
        resourceRef:
          apiGroup: v1
          kind: Node
        selector:
          matchLabels:
            kwok.x-k8s.io/managed: never
        next: {}
      """;

  private final KubernetesClient workload;
  private final Process process;
  private final int port;

  private KwokKubelet(KubernetesClient workload, Process process, int port) {
    this.workload = workload;
    this.process = process;
    this.port = port;
  }

  /** Starts kwok against the installed cluster's API server, with its Exec CRD. */
  static KwokKubelet start(KubernetesClient workload, String kubeconfigYaml, Path dir) {
    try {
      Files.createDirectories(dir);
      Path kubeconfig = dir.resolve("kubeconfig");
      Files.writeString(kubeconfig, kubeconfigYaml);
      Path config = dir.resolve("kwok.yaml");
      Files.writeString(config, CONFIG);
      installExecCrd(workload);
      int port = FreePorts.next();
      ProcessBuilder builder =
          new ProcessBuilder(
                  TestPaths.tool("kwok").toString(),
                  "--kubeconfig=" + kubeconfig,
                  "--config=" + config,
                  "--server-address=127.0.0.1:" + port,
                  "--manage-nodes-with-label-selector=kwok.x-k8s.io/managed=never",
                  "--enable-crds=Exec")
              .redirectErrorStream(true)
              .redirectOutput(ProcessBuilder.Redirect.appendTo(dir.resolve("kwok.log").toFile()));
      // An exec'd command is looked up on kwok's PATH, as on a host's.
      builder
          .environment()
          .put(
              "PATH",
              TestPaths.tool("etcdctl").getParent()
                  + ":"
                  + System.getenv().getOrDefault("PATH", "/usr/bin:/bin"));
      KwokKubelet kubelet = new KwokKubelet(workload, builder.start(), port);
      try {
        kubelet.awaitServing();
      } catch (RuntimeException e) {
        kubelet.close();
        throw e;
      }
      return kubelet;
    } catch (IOException e) {
      throw new UncheckedIOException("cannot start kwok", e);
    }
  }

  /**
   * Advertises this kubelet on the Node, as a kubelet registers its address and port; done again
   * when another write of the Node's status replaced its addresses.
   */
  void register(Node node) {
    boolean advertised =
        node.getStatus() != null
            && node.getStatus().getDaemonEndpoints() != null
            && node.getStatus().getDaemonEndpoints().getKubeletEndpoint() != null
            && Integer.valueOf(port)
                .equals(node.getStatus().getDaemonEndpoints().getKubeletEndpoint().getPort())
            && node.getStatus().getAddresses() != null
            && node.getStatus().getAddresses().stream()
                .anyMatch(a -> "InternalIP".equals(a.getType()));
    if (advertised) {
      return;
    }
    String name = node.getMetadata().getName();
    List<NodeAddress> addresses =
        List.of(new NodeAddress(name, "Hostname"), new NodeAddress("127.0.0.1", "InternalIP"));
    WorkloadStatus.merge(
        workload.nodes().withName(name),
        Map.of(
            "addresses",
            addresses,
            "daemonEndpoints",
            Map.of("kubeletEndpoint", Map.of("Port", port))));
  }

  /**
   * The etcd pod of a member's host, running, Ready or not, whose {@code etcdctl} container talks
   * to that member.
   */
  void etcdPod(String node, String clientUrl, boolean ready) {
    String name = podName(node);
    GenericKubernetesResource exec = new GenericKubernetesResource();
    exec.setApiVersion(KWOK_API);
    exec.setKind("Exec");
    exec.setMetadata(new ObjectMetaBuilder().withName(name).withNamespace(NAMESPACE).build());
    exec.setAdditionalProperty(
        "spec",
        Map.of(
            "execs",
            List.of(
                Map.of(
                    "containers",
                    List.of("etcdctl"),
                    "local",
                    Map.of(
                        "envs",
                        List.of(Map.of("name", "ETCDCTL_ENDPOINTS", "value", clientUrl)))))));
    workload.resource(exec).unlock().serverSideApply();
    Pod pod = workload.pods().inNamespace(NAMESPACE).withName(name).get();
    if (pod == null) {
      pod =
          workload
              .pods()
              .inNamespace(NAMESPACE)
              .resource(
                  new PodBuilder()
                      .withNewMetadata()
                      .withName(name)
                      .withNamespace(NAMESPACE)
                      .withLabels(Map.of("app", "etcd", "etcd", "true", "k8s-app", "etcd"))
                      .withAnnotations(mirror(node))
                      .addNewOwnerReference()
                      .withApiVersion("v1")
                      .withKind("Node")
                      .withName(node)
                      .withUid(workload.nodes().withName(node).get().getMetadata().getUid())
                      .withController(true)
                      .endOwnerReference()
                      .endMetadata()
                      .withNewSpec()
                      .withNodeName(node)
                      .withAutomountServiceAccountToken(false)
                      .addNewContainer()
                      .withName("etcd")
                      .withImage("quay.io/openshift-release-dev/ocp-v4.0-art-dev:etcd")
                      .endContainer()
                      .addNewContainer()
                      .withName("etcdctl")
                      .withImage("quay.io/openshift-release-dev/ocp-v4.0-art-dev:etcd")
                      .endContainer()
                      .endSpec()
                      .build())
              .create();
    }
    WorkloadStatus.merge(
        workload.pods().inNamespace(NAMESPACE).withName(name),
        WorkloadStatus.runningPod(Map.of("Ready", ready)));
  }

  /**
   * OpenShift's etcd pods are static pods: the kubelet runs them from a file and the API server
   * shows a mirror pod, which a Node drain leaves alone (Cluster API's, like {@code kubectl
   * drain}).
   */
  private static Map<String, String> mirror(String node) {
    String hash = Integer.toHexString(("etcd-" + node).hashCode());
    return Map.of(
        "kubernetes.io/config.mirror", hash,
        "kubernetes.io/config.hash", hash,
        "kubernetes.io/config.source", "file");
  }

  /** The etcd pod of a host that is gone, as the pod garbage collector deletes it. */
  void deleteEtcdPod(String node) {
    // At once, as the pod garbage collector deletes a pod bound to a Node that is gone: no kubelet
    // is left to confirm a graceful deletion.
    workload.pods().inNamespace(NAMESPACE).withName(podName(node)).withGracePeriod(0).delete();
    workload
        .genericKubernetesResources(KWOK_API, "Exec")
        .inNamespace(NAMESPACE)
        .withName(podName(node))
        .delete();
  }

  static String podName(String node) {
    return "etcd-" + node;
  }

  private static void installExecCrd(KubernetesClient workload) throws IOException {
    Path file = TestPaths.toolsBin().resolve("kwok-crds").resolve("kwok.x-k8s.io_execs.yaml");
    try (InputStream in = Files.newInputStream(file)) {
      CustomResourceDefinition crd =
          workload.apiextensions().v1().customResourceDefinitions().load(in).item();
      CrdInstaller.install(workload, List.of(crd), Duration.ofSeconds(30));
    }
  }

  private void awaitServing() {
    long deadline = System.currentTimeMillis() + 30_000;
    while (true) {
      try (Socket ignored = new Socket("127.0.0.1", port)) {
        return;
      } catch (IOException notYet) {
        if (!process.isAlive() || System.currentTimeMillis() > deadline) {
          throw new IllegalStateException("kwok did not serve on 127.0.0.1:" + port);
        }
      }
      try {
        Thread.sleep(100);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new IllegalStateException("interrupted waiting for kwok", e);
      }
    }
  }

  @Override
  public void close() {
    process.destroy();
    try {
      if (!process.waitFor(5, TimeUnit.SECONDS)) {
        process.destroyForcibly();
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      process.destroyForcibly();
    }
  }
}
