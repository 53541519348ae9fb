package io.openshiftagent.controlplane;

import static io.openshiftagent.controlplane.Fixtures.failureDomain;
import static io.openshiftagent.controlplane.Fixtures.names;
import static io.openshiftagent.provider.testing.TestWorld.eventually;
import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.Condition;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.dsl.base.PatchContext;
import io.fabric8.kubernetes.client.dsl.base.PatchType;
import io.javaoperatorsdk.operator.Operator;
import io.openshiftagent.api.bootstrap.v1alpha2.OpenshiftAssistedConfig;
import io.openshiftagent.api.common.Conditions;
import io.openshiftagent.api.controlplane.v1alpha3.OpenshiftAssistedControlPlane;
import io.openshiftagent.api.controlplane.v1alpha3.OpenshiftAssistedControlPlaneTemplate;
import io.openshiftagent.api.external.ExternalKinds;
import io.openshiftagent.api.external.capi.Machine;
import io.openshiftagent.controlplane.machines.UpToDate;
import io.openshiftagent.controlplane.release.ReleaseImage;
import io.openshiftagent.provider.testing.TestWorld;
import io.openshiftagent.testsupport.KubeApiServerEnvironment;
import io.openshiftagent.testsupport.WithKubeApiServer;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;
import org.assertj.core.api.ThrowingConsumer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** Control-plane Machines on a real API server: creation, scaling, up-to-date tracking, pause. */
@WithKubeApiServer
class ControlPlaneMachinesTest {
  private static Operator operator;
  private static KubernetesClient client;
  private static KubeApiServerEnvironment env;

  @BeforeAll
  static void start() {
    env = KubeApiServerEnvironment.shared();
    client = env.client();
    operator = Fixtures.startProvider(env);
  }

  @AfterAll
  static void stop() {
    operator.stop();
  }

  @Test
  void createsEachMachineWithItsConfigAndInfrastructureCloneSpreadOverFailureDomains() {
    TestWorld c = Fixtures.provisioned(env, "create");
    c.capi.setFailureDomains(
        failureDomain("fd-a", true),
        failureDomain("fd-b", true),
        failureDomain("fd-c", true),
        failureDomain("workers-only", false));
    OpenshiftAssistedControlPlane cp = Fixtures.controlPlane(c.ns, "cp", 3);
    cp.getSpec().machineTemplate.metadata = new io.openshiftagent.api.common.ObjectMetaTemplate();
    cp.getSpec().machineTemplate.metadata.labels = Map.of("team", "infra");
    // Every Machine ever created in the namespace, to show that each was created once.
    Set<String> created = java.util.concurrent.ConcurrentHashMap.newKeySet();
    var createdMachines =
        client
            .resources(Machine.class)
            .inNamespace(c.ns)
            .inform(added(m -> created.add(m.getMetadata().getUid())));
    cp = c.providers.createControlPlane(cp);
    String uid = cp.getMetadata().getUid();

    eventually(() -> assertThat(c.machines()).hasSize(3));
    List<Machine> machines = c.machines();
    assertThat(machines.stream().map(m -> m.getSpec().failureDomain).collect(Collectors.toSet()))
        .containsExactlyInAnyOrder("fd-a", "fd-b", "fd-c");
    for (Machine m : machines) {
      String name = m.getMetadata().getName();
      assertThat(name).startsWith("cp-");
      assertThat(m.getMetadata().getLabels())
          .containsEntry(ExternalKinds.CLUSTER_NAME_LABEL, c.clusterName)
          .containsEntry(ExternalKinds.CONTROL_PLANE_LABEL, "")
          .containsEntry(ExternalKinds.CONTROL_PLANE_NAME_LABEL, "cp")
          .containsEntry("team", "infra");
      assertThat(m.getMetadata().getOwnerReferences()).hasSize(1);
      assertThat(m.getMetadata().getOwnerReferences().get(0).getUid()).isEqualTo(uid);
      assertThat(m.getMetadata().getOwnerReferences().get(0).getController()).isTrue();
      assertThat(m.getSpec().clusterName).isEqualTo(c.clusterName);
      assertThat(m.getSpec().bootstrap.configRef.kind).isEqualTo("OpenshiftAssistedConfig");
      assertThat(m.getSpec().bootstrap.configRef.name).isEqualTo(name);
      assertThat(m.getSpec().infrastructureRef.kind).isEqualTo("Metal3Machine");
      assertThat(m.getSpec().infrastructureRef.name).isEqualTo(name);

      OpenshiftAssistedConfig config = c.get(OpenshiftAssistedConfig.class, name);
      assertThat(config.getSpec().sshAuthorizedKey).isEqualTo("ssh-ed25519 AAAA discovery");
      assertThat(config.getMetadata().getLabels())
          .containsEntry(ExternalKinds.CLUSTER_NAME_LABEL, c.clusterName)
          .containsEntry(ExternalKinds.CONTROL_PLANE_NAME_LABEL, "cp");
      assertThat(config.getMetadata().getOwnerReferences().get(0).getUid()).isEqualTo(uid);

      GenericKubernetesResource infra =
          client
              .genericKubernetesResources(
                  "infrastructure.cluster.x-k8s.io/v1beta2", "Metal3Machine")
              .inNamespace(c.ns)
              .withName(name)
              .get();
      assertThat(infra.getMetadata().getLabels())
          .containsEntry("from-template", "yes")
          .containsEntry(ExternalKinds.CLUSTER_NAME_LABEL, c.clusterName);
      assertThat(infra.getMetadata().getAnnotations())
          .containsEntry(UpToDate.CLONED_FROM_NAME, Fixtures.TEMPLATE)
          .containsEntry(
              UpToDate.CLONED_FROM_GROUP_KIND,
              "Metal3MachineTemplate.infrastructure.cluster.x-k8s.io");
      assertThat(infra.getAdditionalProperties().get("spec").toString()).contains("install_coreos");
    }
    eventually(
        () -> {
          var status = c.controlPlane("cp").getStatus();
          assertThat(status.replicas).isEqualTo(3);
          assertThat(status.upToDateReplicas).isEqualTo(3);
          assertThat(status.readyReplicas).isZero();
          assertThat(status.selector)
              .isEqualTo(
                  "cluster.x-k8s.io/cluster-name="
                      + c.clusterName
                      + ",cluster.x-k8s.io/control-plane,cluster.x-k8s.io/control-plane-name=cp");
        });
    c.awaitCondition("cp", "MachinesReady", "NotReady");
    c.awaitCondition("cp", "MachinesUpToDate", "UpToDate");
    // Created once each (as Cluster API's KubeadmControlPlane, a Machine created is no Event).
    List<String> uids = c.machines().stream().map(m -> m.getMetadata().getUid()).toList();
    eventually(() -> assertThat(created).containsExactlyInAnyOrderElementsOf(uids));
    createdMachines.close();
    eventually(
        () ->
            c.machines()
                .forEach(
                    m ->
                        assertThat(Conditions.isTrue(m.getStatus().conditions, "UpToDate"))
                            .isTrue()));
  }

  @Test
  @SuppressWarnings("unchecked")
  void aControlPlaneMadeFromItsClusterClassTemplateIsReconciled() {
    TestWorld c = Fixtures.provisioned(env, "clusterclass");
    OpenshiftAssistedControlPlaneTemplate template = new OpenshiftAssistedControlPlaneTemplate();
    template.setMetadata(
        new io.fabric8.kubernetes.api.model.ObjectMetaBuilder()
            .withName("cp-class")
            .withNamespace(c.ns)
            .build());
    template.setSpec(new OpenshiftAssistedControlPlaneTemplate.Spec());
    template.getSpec().template = new OpenshiftAssistedControlPlaneTemplate.Resource();
    template.getSpec().template.spec = new OpenshiftAssistedControlPlaneTemplate.ResourceSpec();
    template.getSpec().template.spec.distributionVersion = "4.20.0";
    template.getSpec().template.spec.config = Fixtures.controlPlane(c.ns, "x", 3).getSpec().config;
    template = client.resource(template).create();

    // What the topology controller does: the template's spec, plus replicas, the Kubernetes
    // version of the topology and the infrastructure template of the ClusterClass.
    Map<String, Object> spec =
        io.fabric8.kubernetes.client.utils.Serialization.jsonMapper()
            .convertValue(template.getSpec().template.spec, Map.class);
    spec.put("replicas", 3);
    spec.put("version", "v1.33.0");
    spec.put(
        "machineTemplate",
        Map.of(
            "spec",
            Map.of(
                "infrastructureRef",
                Map.of(
                    "apiGroup", "infrastructure.cluster.x-k8s.io",
                    "kind", "Metal3MachineTemplate",
                    "name", Fixtures.TEMPLATE))));
    OpenshiftAssistedControlPlane cp = new OpenshiftAssistedControlPlane();
    cp.setMetadata(
        new io.fabric8.kubernetes.api.model.ObjectMetaBuilder()
            .withName("cp")
            .withNamespace(c.ns)
            .addToAnnotations(
                ReleaseImage.REPOSITORY_OVERRIDE_ANNOTATION, Fixtures.releases().ocpRepository())
            .build());
    cp.setSpec(
        io.fabric8.kubernetes.client.utils.Serialization.jsonMapper()
            .convertValue(
                spec,
                io.openshiftagent.api.controlplane.v1alpha3.OpenshiftAssistedControlPlaneSpec
                    .class));
    c.providers.createControlPlane(cp);
    eventually(() -> assertThat(c.machines()).hasSize(3));
    assertThat(c.clusterInstall("cp").getSpec().provisionRequirements.controlPlaneAgents)
        .isEqualTo(3);
  }

  @Test
  void scalesOneMachineAtATimeWaitingForReadinessAndPrefersMarkedMachinesOnScaleDown() {
    TestWorld c = Fixtures.provisioned(env, "scale");
    c.providers.createControlPlane(Fixtures.controlPlane(c.ns, "cp", 3));
    eventually(() -> assertThat(c.machines()).hasSize(3));
    c.assisted.setInstallerState("cp", "installed", "Cluster is installed");
    c.machines().forEach(c.capi::setMachineReady);

    c.resource(OpenshiftAssistedControlPlane.class, "cp").scale(5);
    eventually(() -> assertThat(c.machines()).hasSize(4));
    Condition waiting = c.awaitCondition("cp", "ScalingUp", "WaitingForMachinesReady");
    assertThat(waiting.getStatus()).isEqualTo("True");
    assertThat(waiting.getMessage()).contains("scaling up from 4 to 5");
    assertThat(c.machines()).hasSize(4); // still waiting for the fourth
    c.machines().forEach(c.capi::setMachineReady);
    eventually(() -> assertThat(c.machines()).hasSize(5));
    c.machines().forEach(c.capi::setMachineReady);
    c.awaitCondition("cp", "ScalingUp", "NotScalingUp");

    Machine marked = c.machines().get(2);
    client
        .resource(marked)
        .patch(
            PatchContext.of(PatchType.JSON_MERGE),
            "{\"metadata\":{\"annotations\":{\""
                + ExternalKinds.DELETE_MACHINE_ANNOTATION
                + "\":\"\"}}}");
    c.resource(OpenshiftAssistedControlPlane.class, "cp").scale(4);
    eventually(() -> assertThat(c.machines()).hasSize(4));
    assertThat(c.machines())
        .extracting(m -> m.getMetadata().getName())
        .doesNotContain(marked.getMetadata().getName());

    c.resource(OpenshiftAssistedControlPlane.class, "cp").scale(1);
    Condition refused = c.awaitCondition("cp", "ScalingDown", "TopologyChangeNotSupported");
    assertThat(refused.getMessage()).contains("at least 3");
    eventually(() -> assertThat(c.machines()).hasSize(3));
    c.awaitObserved("cp");
    assertThat(c.machines()).hasSize(3);
    assertThat(c.condition("cp", "ScalingDown").orElseThrow().getReason())
        .isEqualTo("TopologyChangeNotSupported");
  }

  @Test
  void outOfDateMachinesAreMarkedAndReplacedFromTheCurrentSpecWhenDeleted() {
    TestWorld c = Fixtures.provisioned(env, "uptodate");
    c.metal3.createTemplate("cp-template-2", "disabled");
    c.providers.createControlPlane(Fixtures.controlPlane(c.ns, "cp", 3));
    eventually(() -> assertThat(c.machines()).hasSize(3));
    c.awaitCondition("cp", "MachinesUpToDate", "UpToDate");
    Set<String> original = names(c.machines());
    // Their bootstrap data made, the hosts may boot: they are the user's to replace (OnDelete).
    original.forEach(name -> dataMade(c, name));

    c.resource(OpenshiftAssistedControlPlane.class, "cp")
        .patch(
            PatchContext.of(PatchType.JSON_MERGE),
            "{\"spec\":{\"openshiftAssistedConfigSpec\":{\"additionalNTPSources\":[\"ntp.example.com\"]}}}");
    Condition notUpToDate = c.awaitCondition("cp", "MachinesUpToDate", "NotUpToDate");
    assertThat(notUpToDate.getMessage()).contains("OpenshiftAssistedConfig differs");
    c.awaitCondition("cp", "RollingOut", "RollingOut");
    eventually(
        () -> {
          assertThat(c.controlPlane("cp").getStatus().upToDateReplicas).isZero();
          c.machines()
              .forEach(
                  m -> {
                    var upToDate =
                        Conditions.find(m.getStatus().conditions, "UpToDate").orElseThrow();
                    assertThat(upToDate.getStatus()).isEqualTo("False");
                    assertThat(upToDate.getReason()).isEqualTo("NotUpToDate");
                  });
        });
    assertThat(names(c.machines())).isEqualTo(original); // OnDelete: nothing is replaced by itself

    Machine replacement = replace(c, c.machines().get(0));
    OpenshiftAssistedConfig config =
        c.get(OpenshiftAssistedConfig.class, replacement.getMetadata().getName());
    assertThat(config.getSpec().additionalNTPSources).containsExactly("ntp.example.com");
    eventually(() -> assertThat(c.controlPlane("cp").getStatus().upToDateReplicas).isEqualTo(1));
    dataMade(c, replacement.getMetadata().getName());

    // A new infrastructure template makes every Machine out of date, with the template named.
    c.resource(OpenshiftAssistedControlPlane.class, "cp")
        .patch(
            PatchContext.of(PatchType.JSON_MERGE),
            "{\"spec\":{\"machineTemplate\":{\"spec\":{\"infrastructureRef\":{\"name\":\"cp-template-2\"}}}}}");
    eventually(
        () -> {
          assertThat(c.controlPlane("cp").getStatus().upToDateReplicas).isZero();
          assertThat(c.condition("cp", "MachinesUpToDate").orElseThrow().getMessage())
              .contains(
                  "cloned from Metal3MachineTemplate.infrastructure.cluster.x-k8s.io/"
                      + Fixtures.TEMPLATE);
        });
  }

  /**
   * Before the installation a changed spec reaches the Machines whose hosts never booted by itself,
   * one at a time, with OnDelete too; one whose bootstrap data was made stays the user's.
   */
  @Test
  void beforeTheInstallationMachinesWhoseHostsNeverBootedAreReplacedOneAtATime() {
    TestWorld c = Fixtures.provisioned(env, "neverbooted");
    c.providers.createControlPlane(Fixtures.controlPlane(c.ns, "cp", 3));
    eventually(() -> assertThat(c.machines()).hasSize(3));
    c.awaitCondition("cp", "MachinesUpToDate", "UpToDate");
    Set<String> original = names(c.machines());
    // Oldest first, then by name: the order of the replacements. The data is made for the last
    // one, which a reconcile that has not seen the data yet could not pick first.
    List<String> byAge =
        c.machines().stream()
            .sorted(
                java.util.Comparator.comparing(
                        (Machine m) -> m.getMetadata().getCreationTimestamp())
                    .thenComparing(m -> m.getMetadata().getName()))
            .map(m -> m.getMetadata().getName())
            .toList();
    String dataMade = byAge.get(2);
    List<String> replaced = byAge.subList(0, 2);
    dataMade(c, dataMade);
    // What happens to Machines, in order: the originals deleted, the new ones added.
    List<String> steps = new java.util.concurrent.CopyOnWriteArrayList<>();
    var watched =
        client
            .resources(Machine.class)
            .inNamespace(c.ns)
            .inform(
                new io.fabric8.kubernetes.client.informers.ResourceEventHandler<>() {
                  @Override
                  public void onAdd(Machine m) {
                    if (!original.contains(m.getMetadata().getName())) {
                      steps.add("add");
                    }
                  }

                  @Override
                  public void onUpdate(Machine old, Machine m) {}

                  @Override
                  public void onDelete(Machine m, boolean unknownFinalState) {
                    steps.add("delete " + m.getMetadata().getName());
                  }
                });

    // Every reason RollingOut has had: the replacement may be over before a poll would see it.
    Set<String> rollingOut = java.util.concurrent.ConcurrentHashMap.newKeySet();
    var watchedControlPlane =
        client
            .resources(OpenshiftAssistedControlPlane.class)
            .inNamespace(c.ns)
            .inform(
                new io.fabric8.kubernetes.client.informers.ResourceEventHandler<>() {
                  @Override
                  public void onAdd(OpenshiftAssistedControlPlane cp) {
                    onUpdate(null, cp);
                  }

                  @Override
                  public void onUpdate(
                      OpenshiftAssistedControlPlane old, OpenshiftAssistedControlPlane cp) {
                    if (cp.getStatus() != null) {
                      Conditions.find(cp.getStatus().conditions, "RollingOut")
                          .ifPresent(r -> rollingOut.add(r.getReason()));
                    }
                  }

                  @Override
                  public void onDelete(OpenshiftAssistedControlPlane cp, boolean unknown) {}
                });
    String key = "ssh-ed25519 AAAA fixed";
    c.resource(OpenshiftAssistedControlPlane.class, "cp")
        .patch(
            PatchContext.of(PatchType.JSON_MERGE),
            "{\"spec\":{\"openshiftAssistedConfigSpec\":{\"sshAuthorizedKey\":\"" + key + "\"}}}");
    eventually(
        () -> {
          assertThat(c.machines()).hasSize(3);
          assertThat(names(c.machines()))
              .contains(dataMade)
              .doesNotContainAnyElementsOf(
                  original.stream().filter(n -> !n.equals(dataMade)).toList());
        });
    Condition onDelete = c.awaitCondition("cp", "RollingOut", "RollingOut");
    watched.close();
    watchedControlPlane.close();
    assertThat(rollingOut).contains("ReplacingNeverBootedMachines");
    assertThat(onDelete.getMessage())
        .isEqualTo(
            "1 Machines do not match the spec: delete them one at a time (OnDelete rollout) and"
                + " each is replaced by a Machine made from the current spec: "
                + dataMade);
    // One at a time: each replacement made before the next deletion.
    assertThat(steps)
        .containsExactly("delete " + replaced.get(0), "add", "delete " + replaced.get(1), "add");
    for (Machine m : c.machines()) {
      if (!m.getMetadata().getName().equals(dataMade)) {
        assertThat(c.get(OpenshiftAssistedConfig.class, m.getMetadata().getName()).getSpec())
            .extracting(spec -> spec.sshAuthorizedKey)
            .isEqualTo(key);
      }
    }
    eventually(
        () ->
            assertThat(
                    client.events().v1().events().inNamespace(c.ns).list().getItems().stream()
                        .filter(e -> "ReplaceNeverBooted".equals(e.getAction()))
                        .map(e -> e.getNote()))
                .containsExactlyInAnyOrder(
                    replaced.stream()
                        .map(
                            n ->
                                "Deleted Machine "
                                    + n
                                    + " to replace it: its host never booted and it does not match"
                                    + " the spec (its OpenshiftAssistedConfig differs from"
                                    + " spec.openshiftAssistedConfigSpec); the installation has"
                                    + " not started, so its replacement is made from the current"
                                    + " spec")
                        .toArray(String[]::new)));
  }

  /** Plays the bootstrap provider: the config's bootstrap data is made. */
  private static void dataMade(TestWorld c, String config) {
    client
        .resources(OpenshiftAssistedConfig.class)
        .inNamespace(c.ns)
        .withName(config)
        .subresource("status")
        .patch(
            PatchContext.of(PatchType.JSON_MERGE),
            "{\"status\":{\"dataSecretName\":\""
                + config
                + "\",\"initialization\":{\"dataSecretCreated\":true}}}");
  }

  @Test
  void aNewControlPlanesConfigsAndClonesAreMadeWhileItsInfrastructureIsAwaited() {
    TestWorld c = Fixtures.templated(env, "prepared").capi.createCluster("cp", false, true, false);
    c.providers.createControlPlane(Fixtures.controlPlane(c.ns, "cp", 3));
    c.awaitCondition("cp", "Available", "WaitingForInfrastructure");
    eventually(
        () -> {
          assertThat(configs(c)).hasSize(3);
          assertThat(metal3Machines(c)).hasSize(3);
        });
    assertThat(c.machines()).as("the contract holds the Machines").isEmpty();
    Map<String, String> prepared =
        configs(c).stream()
            .collect(
                Collectors.toMap(
                    cfg -> cfg.getMetadata().getName(), cfg -> cfg.getMetadata().getUid()));
    assertThat(metal3Machines(c).stream().map(m -> m.getMetadata().getName()))
        .containsExactlyInAnyOrderElementsOf(prepared.keySet());

    c.capi.setInfrastructureProvisioned();
    eventually(() -> assertThat(c.machines()).hasSize(3));
    assertThat(c.machines().stream().map(m -> m.getSpec().bootstrap.configRef.name))
        .as("each Machine takes a prepared config and clone")
        .containsExactlyInAnyOrderElementsOf(prepared.keySet());
    assertThat(c.machines().stream().map(m -> m.getSpec().infrastructureRef.name))
        .containsExactlyInAnyOrderElementsOf(prepared.keySet());
    assertThat(configs(c))
        .as("the prepared configs, not new ones")
        .allSatisfy(
            cfg ->
                assertThat(cfg.getMetadata().getUid())
                    .isEqualTo(prepared.get(cfg.getMetadata().getName())));
  }

  @Test
  void partsPreparedForASpecChangedMeanwhileAreReplaced() {
    TestWorld c =
        Fixtures.templated(env, "reprepared").capi.createCluster("cp", false, true, false);
    c.providers.createControlPlane(Fixtures.controlPlane(c.ns, "cp", 3));
    eventually(() -> assertThat(configs(c)).hasSize(3));
    Set<String> stale =
        configs(c).stream().map(cfg -> cfg.getMetadata().getName()).collect(Collectors.toSet());
    // A merge patch without a resourceVersion, as kubectl patch sends: the controller writes the
    // status meanwhile, which a patch bound to the version read would conflict with.
    c.resource(OpenshiftAssistedControlPlane.class, "cp")
        .patch(
            PatchContext.of(PatchType.JSON_MERGE),
            "{\"spec\":{\"openshiftAssistedConfigSpec\":"
                + "{\"sshAuthorizedKey\":\"ssh-ed25519 BBBB changed\"}}}");

    c.capi.setInfrastructureProvisioned();
    eventually(
        () -> {
          assertThat(c.machines()).hasSize(3);
          assertThat(configs(c)).hasSize(3);
          assertThat(metal3Machines(c)).hasSize(3);
        });
    assertThat(c.machines().stream().map(m -> m.getMetadata().getName()))
        .doesNotContainAnyElementsOf(stale);
    assertThat(configs(c))
        .allSatisfy(
            cfg ->
                assertThat(cfg.getSpec().sshAuthorizedKey).isEqualTo("ssh-ed25519 BBBB changed"));
  }

  private static List<GenericKubernetesResource> metal3Machines(TestWorld c) {
    return client
        .genericKubernetesResources("infrastructure.cluster.x-k8s.io/v1beta2", "Metal3Machine")
        .inNamespace(c.ns)
        .list()
        .getItems()
        .stream()
        .filter(m -> m.getMetadata().getDeletionTimestamp() == null)
        .toList();
  }

  @Test
  void aMachineThatCannotBeCreatedLeavesNoConfigOrInfrastructureMachineBehind() {
    TestWorld c = Fixtures.provisioned(env, "rollback");
    // An admission policy (CEL, in the API server itself) refuses Machines in this namespace.
    refuseMachines(c.ns);
    c.providers.createControlPlane(Fixtures.controlPlane(c.ns, "cp", 3));
    Condition failed = c.awaitCondition("cp", "ScalingUp", "MachineCreationFailed");
    assertThat(failed.getMessage())
        .contains("could not create a control-plane Machine")
        .contains("Machines are refused in this test");
    // The operator retries now and then; between attempts nothing is left over.
    eventually(
        () -> {
          assertThat(c.machines()).isEmpty();
          assertThat(
                  client
                      .resources(OpenshiftAssistedConfig.class)
                      .inNamespace(c.ns)
                      .list()
                      .getItems())
              .isEmpty();
          assertThat(
                  client
                      .genericKubernetesResources(
                          "infrastructure.cluster.x-k8s.io/v1beta2", "Metal3Machine")
                      .inNamespace(c.ns)
                      .list()
                      .getItems())
              .isEmpty();
        });

    client
        .admissionRegistration()
        .v1()
        .validatingAdmissionPolicyBindings()
        .withName("refuse-machines-" + c.ns)
        .delete();
    // Admission is not watched: the periodic retry creates the Machines once it is allowed.
    eventually(() -> assertThat(c.machines()).hasSize(3));
    assertThat(client.resources(OpenshiftAssistedConfig.class).inNamespace(c.ns).list().getItems())
        .hasSize(3);
  }

  @Test
  void aCrashBetweenTheCreationsOfAMachineLeavesNothingBehind() throws Exception {
    TestWorld c = Fixtures.provisioned(env, "crash");
    String m3m = "infrastructure.cluster.x-k8s.io/v1beta2";
    // Where each object was created in etcd's history (its resourceVersion when the watch saw it).
    Map<String, Long> createdAt = new java.util.concurrent.ConcurrentHashMap<>();
    try (var configs =
            client
                .resources(OpenshiftAssistedConfig.class)
                .inNamespace(c.ns)
                .inform(added(o -> createdAt.put("config " + o.getMetadata().getName(), rv(o))));
        var clones =
            client
                .genericKubernetesResources(m3m, "Metal3Machine")
                .inNamespace(c.ns)
                .inform(added(o -> createdAt.put("clone " + o.getMetadata().getName(), rv(o))));
        var machines =
            client
                .resources(Machine.class)
                .inNamespace(c.ns)
                .inform(added(o -> createdAt.put("machine " + o.getMetadata().getName(), rv(o))))) {
      c.providers.createControlPlane(Fixtures.controlPlane(c.ns, "cp", 3));
      eventually(() -> assertThat(c.machines()).hasSize(3));
      // Each Machine comes after its config and its clone (made at once): whatever a crash
      // interrupts leaves a config without its Machine, which the next reconcile finds with its
      // clone, or a clone alone, which no Machine owns (no host) and goes with the control plane.
      for (Machine machine : c.machines()) {
        String name = machine.getMetadata().getName();
        eventually(
            () ->
                assertThat(createdAt)
                    .containsKeys("config " + name, "clone " + name, "machine " + name));
        assertThat(createdAt.get("config " + name))
            .as("config of " + name + " created before its Machine")
            .isLessThan(createdAt.get("machine " + name));
        assertThat(createdAt.get("clone " + name))
            .as("Metal3Machine of " + name + " created before its Machine")
            .isLessThan(createdAt.get("machine " + name));
        assertThat(
                client
                    .genericKubernetesResources(m3m, "Metal3Machine")
                    .inNamespace(c.ns)
                    .withName(name)
                    .get()
                    .getMetadata()
                    .getOwnerReferences())
            .as("a clone is owned by the control plane until Cluster API gives it to its Machine")
            .anyMatch(
                r ->
                    "OpenshiftAssistedControlPlane".equals(r.getKind())
                        || "Machine".equals(r.getKind()));
      }
    }

    // What a provider killed after the first, or after the second, creation of a Machine left.
    c.capi.setPaused(true);
    c.awaitCondition("cp", "Paused", "Paused");
    String model = c.machines().get(0).getMetadata().getName();
    OpenshiftAssistedConfig config = c.get(OpenshiftAssistedConfig.class, model);
    GenericKubernetesResource clone =
        client
            .genericKubernetesResources(m3m, "Metal3Machine")
            .inNamespace(c.ns)
            .withName(model)
            .get();
    for (String leftover : List.of("cp-crash1", "cp-crash2")) {
      config.setMetadata(copyNamed(config.getMetadata(), leftover));
      config.setStatus(null);
      client.resource(config).create();
    }
    clone.setMetadata(copyNamed(clone.getMetadata(), "cp-crash2"));
    clone.getAdditionalProperties().remove("status");
    client.resource(clone).create();
    c.capi.setPaused(false);

    eventually(
        () -> {
          assertThat(
                  client
                      .resources(OpenshiftAssistedConfig.class)
                      .inNamespace(c.ns)
                      .list()
                      .getItems())
              .extracting(o -> o.getMetadata().getName())
              .containsExactlyInAnyOrderElementsOf(names(c.machines()));
          assertThat(
                  client
                      .genericKubernetesResources(m3m, "Metal3Machine")
                      .inNamespace(c.ns)
                      .list()
                      .getItems())
              .extracting(o -> o.getMetadata().getName())
              .containsExactlyInAnyOrderElementsOf(names(c.machines()));
        });
    assertThat(c.machines()).hasSize(3);
  }

  private static <T extends io.fabric8.kubernetes.api.model.HasMetadata>
      io.fabric8.kubernetes.client.informers.ResourceEventHandler<T> added(
          java.util.function.Consumer<T> onAdd) {
    return new io.fabric8.kubernetes.client.informers.ResourceEventHandler<>() {
      @Override
      public void onAdd(T object) {
        onAdd.accept(object);
      }

      @Override
      public void onUpdate(T old, T object) {}

      @Override
      public void onDelete(T object, boolean unknownFinalState) {}
    };
  }

  private static long rv(io.fabric8.kubernetes.api.model.HasMetadata object) {
    return Long.parseLong(object.getMetadata().getResourceVersion());
  }

  /** The labels, annotations and owners of {@code metadata}, under another name. */
  private static io.fabric8.kubernetes.api.model.ObjectMeta copyNamed(
      io.fabric8.kubernetes.api.model.ObjectMeta metadata, String name) {
    return new io.fabric8.kubernetes.api.model.ObjectMetaBuilder()
        .withName(name)
        .withNamespace(metadata.getNamespace())
        .withLabels(metadata.getLabels())
        .withAnnotations(metadata.getAnnotations())
        .withOwnerReferences(metadata.getOwnerReferences())
        .build();
  }

  private static void refuseMachines(String ns) {
    String name = "refuse-machines-" + ns;
    client
        .resource(
            new io.fabric8.kubernetes.api.model.admissionregistration.v1
                    .ValidatingAdmissionPolicyBuilder()
                .withNewMetadata()
                .withName(name)
                .endMetadata()
                .withNewSpec()
                .withNewMatchConstraints()
                .addNewResourceRule()
                .withApiGroups("cluster.x-k8s.io")
                .withApiVersions("*")
                .withOperations("CREATE")
                .withResources("machines")
                .endResourceRule()
                .endMatchConstraints()
                .addNewValidation()
                .withExpression("false")
                .withMessage("Machines are refused in this test")
                .endValidation()
                .endSpec()
                .build())
        .create();
    client
        .resource(
            new io.fabric8.kubernetes.api.model.admissionregistration.v1
                    .ValidatingAdmissionPolicyBindingBuilder()
                .withNewMetadata()
                .withName(name)
                .endMetadata()
                .withNewSpec()
                .withPolicyName(name)
                .withValidationActions("Deny")
                .withNewMatchResources()
                .withNewNamespaceSelector()
                .addToMatchLabels("kubernetes.io/metadata.name", ns)
                .endNamespaceSelector()
                .endMatchResources()
                .endSpec()
                .build())
        .create();
    // The API server applies a new policy after a moment: wait until a dry run is refused.
    Machine probe = Fixtures.machine("probe", null, null);
    probe.getMetadata().setNamespace(ns);
    probe.getSpec().clusterName = "c";
    probe.getSpec().bootstrap = new io.openshiftagent.api.external.capi.MachineSpec.Bootstrap();
    probe.getSpec().bootstrap.dataSecretName = "x";
    probe.getSpec().infrastructureRef =
        new io.openshiftagent.api.common.ContractVersionedObjectReference(
            "infrastructure.cluster.x-k8s.io", "Metal3Machine", "x");
    TestWorld.await(
        "the admission policy to refuse Machines",
        () -> {
          try {
            client.resource(probe).dryRun().create();
            return false;
          } catch (io.fabric8.kubernetes.client.KubernetesClientException e) {
            return e.getMessage().contains("Machines are refused in this test");
          }
        });
  }

  /**
   * The control plane's own labels and annotations reach its configs as the Go provider gives them
   * (its PR #458), and also in place: added, changed and removed on existing configs without a
   * rollout, on new ones at creation; what describes the control plane itself stays on it.
   */
  @Test
  void theControlPlanesOwnLabelsAndAnnotationsReachItsConfigsInPlaceAndAtCreation() {
    String override = "openshiftassistedconfig.cluster.x-k8s.io/discovery-ignition-override";
    String conversion = "cluster.x-k8s.io/conversion-data";
    String tracking = "argocd.argoproj.io/tracking-id";
    TestWorld c = Fixtures.provisioned(env, "cpmeta");
    OpenshiftAssistedControlPlane cp = Fixtures.controlPlane(c.ns, "cp", 3);
    cp.getMetadata().setLabels(Map.of("site", "edge"));
    cp.getMetadata()
        .setAnnotations(
            Map.of(
                conversion,
                "{\"spec\":{}}",
                tracking,
                "app:controlplane.cluster.x-k8s.io/OpenshiftAssistedControlPlane:" + c.ns + "/cp"));
    c.providers.createControlPlane(cp);
    eventually(() -> assertThat(c.machines()).hasSize(3));
    Set<String> names = names(c.machines());
    Map<String, String> hashes = configHashes(c);
    assertThat(hashes).hasSize(3);
    for (OpenshiftAssistedConfig config : configs(c)) {
      assertThat(config.getMetadata().getLabels())
          .containsEntry("site", "edge")
          .containsEntry(ExternalKinds.CLUSTER_NAME_LABEL, c.clusterName);
      assertThat(config.getMetadata().getAnnotations()).doesNotContainKeys(conversion, tracking);
    }
    // As in the Go provider, Machines get the template's metadata only.
    c.machines().forEach(m -> assertThat(m.getMetadata().getLabels()).doesNotContainKey("site"));
    String someones = c.machines().get(0).getMetadata().getName();
    c.resource(OpenshiftAssistedConfig.class, someones)
        .patch(
            PatchContext.of(PatchType.JSON_MERGE),
            "{\"metadata\":{\"labels\":{\"theirs\":\"1\"}}}");

    c.resource(OpenshiftAssistedControlPlane.class, "cp")
        .patch(
            PatchContext.of(PatchType.JSON_MERGE),
            "{\"metadata\":{\"labels\":{\"site\":\"core\",\"tier\":\"gold\"},"
                + "\"annotations\":{\""
                + override
                + "\":\"{\\\"ignition\\\":{\\\"version\\\":\\\"3.2.0\\\"}}\"}}}");
    eventuallyEveryConfig(
        c,
        config -> {
          assertThat(config.getMetadata().getLabels())
              .containsEntry("site", "core")
              .containsEntry("tier", "gold");
          assertThat(config.getMetadata().getAnnotations())
              .containsEntry(override, "{\"ignition\":{\"version\":\"3.2.0\"}}")
              .doesNotContainKeys(conversion, tracking);
        });
    assertThat(configHashes(c)).as("in place: the same configs, the same hashes").isEqualTo(hashes);
    assertThat(names(c.machines())).isEqualTo(names);

    // A config made now has them too.
    Machine replaced =
        c.machines().stream()
            .filter(m -> !m.getMetadata().getName().equals(someones))
            .findFirst()
            .orElseThrow();
    OpenshiftAssistedConfig created =
        c.get(OpenshiftAssistedConfig.class, replace(c, replaced).getMetadata().getName());
    assertThat(created.getMetadata().getLabels())
        .containsEntry("site", "core")
        .containsEntry("tier", "gold");
    assertThat(created.getMetadata().getAnnotations())
        .containsEntry(override, "{\"ignition\":{\"version\":\"3.2.0\"}}")
        .containsEntry(
            UpToDate.CONFIG_HASH_ANNOTATION, hashes.get(replaced.getMetadata().getName()))
        .doesNotContainKeys(conversion, tracking);

    // Keys removed from the control plane leave every config; someone else's label stays.
    c.resource(OpenshiftAssistedControlPlane.class, "cp")
        .patch(
            PatchContext.of(PatchType.JSON_MERGE),
            "{\"metadata\":{\"labels\":{\"site\":null},\"annotations\":{\""
                + override
                + "\":null}}}");
    eventuallyEveryConfig(
        c,
        config -> {
          assertThat(config.getMetadata().getLabels())
              .doesNotContainKey("site")
              .containsEntry("tier", "gold")
              .containsEntry(ExternalKinds.CLUSTER_NAME_LABEL, c.clusterName);
          assertThat(config.getMetadata().getAnnotations()).doesNotContainKey(override);
        });
    assertThat(c.get(OpenshiftAssistedConfig.class, someones).getMetadata().getLabels())
        .containsEntry("theirs", "1");
    c.awaitCondition("cp", "MachinesUpToDate", "UpToDate");
  }

  /** Deletes a Machine, as a user does, and returns the one the operator makes in its place. */
  private static Machine replace(TestWorld c, Machine machine) {
    Set<String> before = names(c.machines());
    client.resource(machine).delete();
    eventually(
        () -> {
          assertThat(c.machines()).hasSize(before.size());
          assertThat(names(c.machines())).doesNotContain(machine.getMetadata().getName());
        });
    return c.machines().stream()
        .filter(m -> !before.contains(m.getMetadata().getName()))
        .findFirst()
        .orElseThrow();
  }

  /** Waits until the control plane has 3 configs and each passes {@code check}. */
  private static void eventuallyEveryConfig(
      TestWorld c, ThrowingConsumer<OpenshiftAssistedConfig> check) {
    eventually(() -> assertThat(configs(c)).hasSize(3).allSatisfy(check));
  }

  private static List<OpenshiftAssistedConfig> configs(TestWorld c) {
    return client.resources(OpenshiftAssistedConfig.class).inNamespace(c.ns).list().getItems();
  }

  private static Map<String, String> configHashes(TestWorld c) {
    return configs(c).stream()
        .collect(
            Collectors.toMap(
                config -> config.getMetadata().getName(),
                config ->
                    config.getMetadata().getAnnotations().get(UpToDate.CONFIG_HASH_ANNOTATION)));
  }

  @Test
  void pauseStopsReconciliationAndIsReported() {
    TestWorld c = Fixtures.provisioned(env, "pause");
    OpenshiftAssistedControlPlane cp = Fixtures.controlPlane(c.ns, "cp", 3);
    // The Go provider's layout of the infrastructure template works as well.
    cp.getSpec().machineTemplate.infrastructureRef =
        cp.getSpec().machineTemplate.spec.infrastructureRef;
    cp.getSpec().machineTemplate.spec = null;
    c.providers.createControlPlane(cp);
    eventually(() -> assertThat(c.machines()).hasSize(3));
    c.capi.setPaused(true);
    Condition paused = c.awaitCondition("cp", "Paused", "Paused");
    assertThat(paused.getStatus()).isEqualTo("True");
    assertThat(paused.getMessage()).contains("spec.paused");
    c.resource(OpenshiftAssistedControlPlane.class, "cp").scale(4);
    // The Paused condition records the generation it was written for: the operator has seen the
    // new replicas, and while paused the Machines and the install stay as they are.
    long generation = c.controlPlane("cp").getMetadata().getGeneration();
    TestWorld.await(
        "the paused reconcile of generation " + generation,
        () ->
            c.condition("cp", "Paused")
                .map(x -> "True".equals(x.getStatus()) && x.getObservedGeneration() == generation)
                .orElse(false));
    assertThat(c.machines()).hasSize(3);
    assertThat(c.clusterInstall("cp").getSpec().provisionRequirements.controlPlaneAgents)
        .isEqualTo(3);
    c.capi.setPaused(false);
    c.awaitCondition("cp", "Paused", "NotPaused");
    eventually(() -> assertThat(c.machines()).hasSize(4));
    assertThat(c.clusterInstall("cp").getSpec().provisionRequirements.controlPlaneAgents)
        .isEqualTo(4);
  }
}
