package io.openshiftagent.controlplane;

import static io.openshiftagent.controlplane.ControlPlaneConditions.INFRASTRUCTURE_TEMPLATE_UNAVAILABLE;
import static io.openshiftagent.controlplane.ControlPlaneConditions.MACHINES_READY;
import static io.openshiftagent.controlplane.ControlPlaneConditions.MACHINES_UP_TO_DATE;
import static io.openshiftagent.controlplane.ControlPlaneConditions.MACHINE_CREATION_FAILED;
import static io.openshiftagent.controlplane.ControlPlaneConditions.MACHINE_UP_TO_DATE;
import static io.openshiftagent.controlplane.ControlPlaneConditions.NOT_READY;
import static io.openshiftagent.controlplane.ControlPlaneConditions.NOT_ROLLING_OUT;
import static io.openshiftagent.controlplane.ControlPlaneConditions.NOT_SCALING_DOWN;
import static io.openshiftagent.controlplane.ControlPlaneConditions.NOT_SCALING_UP;
import static io.openshiftagent.controlplane.ControlPlaneConditions.NOT_UP_TO_DATE;
import static io.openshiftagent.controlplane.ControlPlaneConditions.NO_MACHINES;
import static io.openshiftagent.controlplane.ControlPlaneConditions.READY;
import static io.openshiftagent.controlplane.ControlPlaneConditions.ROLLING_OUT;
import static io.openshiftagent.controlplane.ControlPlaneConditions.SCALING_DOWN;
import static io.openshiftagent.controlplane.ControlPlaneConditions.SCALING_UP;
import static io.openshiftagent.controlplane.ControlPlaneConditions.TOPOLOGY_CHANGE_NOT_SUPPORTED;
import static io.openshiftagent.controlplane.ControlPlaneConditions.UP_TO_DATE;
import static io.openshiftagent.controlplane.ControlPlaneConditions.WAITING_FOR_MACHINES_READY;
import static io.openshiftagent.controlplane.ControlPlaneConditions.WAITING_FOR_MACHINE_DELETION;

import io.fabric8.kubernetes.api.model.Condition;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.dsl.base.PatchContext;
import io.fabric8.kubernetes.client.dsl.base.PatchType;
import io.fabric8.kubernetes.client.utils.Serialization;
import io.openshiftagent.api.bootstrap.v1alpha2.BootstrapGroup;
import io.openshiftagent.api.bootstrap.v1alpha2.OpenshiftAssistedConfig;
import io.openshiftagent.api.common.Conditions;
import io.openshiftagent.api.common.ContractVersionedObjectReference;
import io.openshiftagent.api.common.MachineDeletionSpec;
import io.openshiftagent.api.common.ObjectMetaTemplate;
import io.openshiftagent.api.controlplane.v1alpha3.ControlPlaneMachineTemplate;
import io.openshiftagent.api.controlplane.v1alpha3.OpenshiftAssistedControlPlane;
import io.openshiftagent.api.external.ExternalKinds;
import io.openshiftagent.api.external.OwnedFieldsPatch;
import io.openshiftagent.api.external.capi.Machine;
import io.openshiftagent.api.external.capi.MachineSpec;
import io.openshiftagent.provider.EventRecorder;
import io.openshiftagent.provider.ObjectNames;
import io.openshiftagent.provider.OwnerReferences;
import java.security.SecureRandom;
import java.time.Clock;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.function.Consumer;
import java.util.stream.Collectors;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The control-plane Machines: each with an OpenshiftAssistedConfig and a clone of the
 * infrastructure template. Scales one Machine at a time, marks Machines that no longer match the
 * spec, and replaces them when the user deletes them (OnDelete).
 */
final class ControlPlaneMachines {
  private static final Logger LOG = LoggerFactory.getLogger(ControlPlaneMachines.class);
  private static final SecureRandom RANDOM = new SecureRandom();
  private static final String ALPHABET = "bcdfghjklmnpqrstvwxz2456789";
  static final int MIN_HIGHLY_AVAILABLE = 3;

  /** Makes the Machines of one scale-up in parallel; shared by all reconciles. */
  private static final ExecutorService CREATORS =
      Executors.newFixedThreadPool(
          4,
          r -> {
            Thread t = new Thread(r, "machine-creator");
            t.setDaemon(true);
            return t;
          });

  private final KubernetesClient client;
  private final InfrastructureTemplates infrastructure;
  private final String fieldManager;
  private final EventRecorder events;
  private final Clock clock;
  private final Consumer<Machine> onCreated;

  /**
   * @param onCreated told of each Machine this creates
   */
  ControlPlaneMachines(
      KubernetesClient client,
      InfrastructureTemplates infrastructure,
      String fieldManager,
      EventRecorder events,
      Clock clock,
      Consumer<Machine> onCreated) {
    this.client = client;
    this.infrastructure = infrastructure;
    this.fieldManager = fieldManager;
    this.events = events;
    this.clock = clock;
    this.onCreated = onCreated;
  }

  void reconcile(ControlPlaneScope scope, StatusBuilder status) {
    OpenshiftAssistedControlPlane cp = scope.cp();
    List<Machine> machines = scope.machines();
    deleteOrphans(scope);

    String desiredHash = UpToDate.configHash(cp.getSpec().openshiftAssistedConfigSpec);
    ContractVersionedObjectReference template =
        cp.getSpec().machineTemplate.effectiveInfrastructureRef();
    Map<String, String> notUpToDate = new LinkedHashMap<>();
    for (Machine machine : machines) {
      Optional<String> reason =
          UpToDate.reasonNotUpToDate(
              scope.configs().get(configName(machine)),
              infrastructureMachine(machine),
              desiredHash,
              template);
      reason.ifPresent(r -> notUpToDate.put(machine.getMetadata().getName(), r));
      if (!MachineSelection.isDeleting(machine)) {
        try {
          syncDeletionTimeouts(machine, cp.getSpec().machineTemplate.effectiveDeletion());
          markUpToDate(machine, reason);
        } catch (KubernetesClientException e) {
          if (e.getCode() != 404) { // deleted since the cache saw it: its event follows
            throw e;
          }
        }
      }
    }

    scale(scope, status, notUpToDate);
    report(scope, status, notUpToDate);
  }

  private void scale(
      ControlPlaneScope scope, StatusBuilder status, Map<String, String> notUpToDate) {
    int desired = scope.cp().getSpec().desiredReplicas();
    List<Machine> machines = scope.machines();
    int current = machines.size();
    List<String> deleting =
        machines.stream()
            .filter(MachineSelection::isDeleting)
            .map(ControlPlaneMachines::name)
            .toList();
    boolean installed = scope.installationStarted();
    String steady = current + " of " + desired + " Machines exist";
    status.setFalse(SCALING_UP, NOT_SCALING_UP, steady);
    status.setFalse(SCALING_DOWN, NOT_SCALING_DOWN, steady);

    if (current < desired) {
      String what = "scaling up from " + current + " to " + desired + " Machines";
      if (installed
          && current > 0
          && current < MIN_HIGHLY_AVAILABLE
          && desired >= MIN_HIGHLY_AVAILABLE) {
        status.setTrue(
            SCALING_UP,
            TOPOLOGY_CHANGE_NOT_SUPPORTED,
            what
                + " is not possible: OpenShift cannot turn an installed single-node cluster into a"
                + " highly available one; set spec.replicas back to "
                + current);
        return;
      }
      if (!deleting.isEmpty()) {
        status.setTrue(
            SCALING_UP,
            WAITING_FOR_MACHINE_DELETION,
            what + ": waiting for " + deleting + " to be deleted");
        return;
      }
      List<String> notReady =
          machines.stream().filter(m -> !isReady(m)).map(ControlPlaneMachines::name).toList();
      // Before the installation every host must be present at once; after it, one node joins at a
      // time.
      if (installed && !notReady.isEmpty()) {
        status.setTrue(
            SCALING_UP,
            WAITING_FOR_MACHINES_READY,
            what + ": waiting for " + notReady + " to be Ready before adding the next Machine");
        return;
      }
      status.setTrue(SCALING_UP, SCALING_UP, what);
      if (liveMachines(scope).size() == current) { // the cache may lag behind our last creation
        Optional<GenericKubernetesResource> template = infrastructureTemplate(scope, status);
        // Before the installation every missing Machine is made at once; after it, one.
        int missing = template.isEmpty() ? 0 : installed ? 1 : desired - current;
        createMachines(scope, template.orElse(null), missing, status);
      }
    } else if (current > desired) {
      String what = "scaling down from " + current + " to " + desired + " Machines";
      // OpenShift cannot turn an installed highly available control plane into a single node.
      boolean belowFloor =
          installed && desired < MIN_HIGHLY_AVAILABLE && current >= MIN_HIGHLY_AVAILABLE;
      if (belowFloor && current == MIN_HIGHLY_AVAILABLE) {
        status.setTrue(
            SCALING_DOWN,
            TOPOLOGY_CHANGE_NOT_SUPPORTED,
            what
                + " is not possible: an installed highly available control plane needs at least "
                + MIN_HIGHLY_AVAILABLE
                + " Machines; set spec.replicas to 3 or more");
        return;
      }
      if (!deleting.isEmpty()) {
        status.setTrue(
            SCALING_DOWN,
            WAITING_FOR_MACHINE_DELETION,
            what + ": waiting for " + deleting + " to be deleted");
        return;
      }
      List<Machine> live = liveMachines(scope);
      if (live.stream().anyMatch(MachineSelection::isDeleting) || live.size() != current) {
        status.setTrue(SCALING_DOWN, WAITING_FOR_MACHINE_DELETION, what);
        return;
      }
      Optional<Machine> victim =
          MachineSelection.machineToDelete(machines, m -> !notUpToDate.containsKey(name(m)));
      victim.ifPresent(
          m -> {
            LOG.info(
                "scaling down {}: deleting Machine {}",
                scope.cp().getMetadata().getName(),
                name(m));
            client.resource(m).delete();
            events.normal(scope.cp(), "MachineDeleted", "ScaleDown", "Deleted Machine " + name(m));
            status.setTrue(SCALING_DOWN, SCALING_DOWN, what + ": deleting Machine " + name(m));
          });
    }
  }

  private void report(
      ControlPlaneScope scope, StatusBuilder status, Map<String, String> notUpToDate) {
    List<Machine> machines = scope.machines();
    var s = status.status();
    s.selector = scope.selector();
    s.replicas = machines.size();
    s.readyReplicas = (int) machines.stream().filter(ControlPlaneMachines::isReady).count();
    s.availableReplicas =
        (int) machines.stream().filter(m -> machineCondition(m, "Available")).count();
    s.upToDateReplicas = machines.size() - notUpToDate.size();

    if (machines.isEmpty()) {
      status.setFalse(MACHINES_READY, NO_MACHINES, "no control-plane Machines exist yet");
    } else {
      List<String> notReady =
          machines.stream().filter(m -> !isReady(m)).map(ControlPlaneMachines::name).toList();
      if (notReady.isEmpty()) {
        status.setTrue(MACHINES_READY, READY, "all " + machines.size() + " Machines are Ready");
      } else {
        status.setFalse(MACHINES_READY, NOT_READY, "Machines not Ready: " + notReady);
      }
    }
    if (notUpToDate.isEmpty()) {
      status.setTrue(MACHINES_UP_TO_DATE, UP_TO_DATE, "all Machines match the spec");
      status.setFalse(ROLLING_OUT, NOT_ROLLING_OUT, "all Machines match the spec");
    } else {
      String list =
          notUpToDate.entrySet().stream()
              .map(e -> e.getKey() + " (" + e.getValue() + ")")
              .collect(Collectors.joining("; "));
      status.setFalse(MACHINES_UP_TO_DATE, NOT_UP_TO_DATE, "Machines not up to date: " + list);
      status.setTrue(
          ROLLING_OUT,
          ROLLING_OUT,
          notUpToDate.size()
              + " Machines do not match the spec: delete them one at a time (OnDelete rollout) and"
              + " each is replaced by a Machine made from the current spec: "
              + String.join(", ", notUpToDate.keySet()));
    }
  }

  /**
   * The infrastructure template to clone, or empty when it cannot be read (the status says why).
   */
  private Optional<GenericKubernetesResource> infrastructureTemplate(
      ControlPlaneScope scope, StatusBuilder status) {
    ContractVersionedObjectReference templateRef =
        scope.cp().getSpec().machineTemplate.effectiveInfrastructureRef();
    GenericKubernetesResource template;
    try {
      template = infrastructure.get(templateRef, scope.namespace());
    } catch (RuntimeException e) {
      status.setTrue(SCALING_UP, INFRASTRUCTURE_TEMPLATE_UNAVAILABLE, e.getMessage());
      return Optional.empty();
    }
    if (template == null) {
      status.setTrue(
          SCALING_UP,
          INFRASTRUCTURE_TEMPLATE_UNAVAILABLE,
          "infrastructure template "
              + templateRef
              + " (spec.machineTemplate.spec.infrastructureRef) not found; create it");
    }
    return Optional.ofNullable(template);
  }

  /**
   * Creates {@code count} Machines: names and failure domains chosen one after the other, then each
   * Machine's objects made in order, the Machines in parallel (installing hosts wait for all).
   */
  private void createMachines(
      ControlPlaneScope scope,
      GenericKubernetesResource template,
      int count,
      StatusBuilder status) {
    List<Machine> machines = new ArrayList<>(scope.machines());
    List<Machine> planned = new ArrayList<>();
    for (int i = 0; i < count; i++) {
      String name = ObjectNames.fit(scope.cp().getMetadata().getName(), 240) + "-" + randomSuffix();
      Optional<String> failureDomain =
          MachineSelection.failureDomainForNewMachine(
              scope.cluster().getStatus() == null
                  ? null
                  : scope.cluster().getStatus().failureDomains,
              machines);
      Machine machine = machine(scope, name, template, failureDomain.orElse(null));
      planned.add(machine);
      machines.add(machine);
    }
    List<CompletableFuture<Optional<String>>> creations =
        planned.stream()
            .map(m -> CompletableFuture.supplyAsync(() -> create(scope, template, m), CREATORS))
            .toList();
    for (CompletableFuture<Optional<String>> creation : creations) {
      creation
          .join()
          .ifPresent(failure -> status.setTrue(SCALING_UP, MACHINE_CREATION_FAILED, failure));
    }
  }

  /**
   * Creates the config, the infrastructure clone and the Machine, undoing the first on failure;
   * returns why it failed, if it did.
   */
  private Optional<String> create(
      ControlPlaneScope scope, GenericKubernetesResource template, Machine planned) {
    OpenshiftAssistedControlPlane cp = scope.cp();
    String name = planned.getMetadata().getName();
    Optional<String> failureDomain = Optional.ofNullable(planned.getSpec().failureDomain);
    List<HasMetadata> created = new ArrayList<>();
    try {
      // The config first: after a crash between these creations, a config without its Machine is
      // what marks the leftovers for deleteOrphans (an infrastructure clone alone would stay).
      created.add(client.resource(config(scope, name)).create());
      GenericKubernetesResource clone =
          client.resource(infrastructureMachine(scope, template, name)).create();
      created.add(clone);
      infrastructure.remember(clone);
      Machine machine = client.resource(planned).create();
      onCreated.accept(machine);
      LOG.info(
          "created control-plane Machine {}/{} in failure domain {}",
          scope.namespace(),
          name,
          failureDomain.orElse("(none)"));
      events.normal(
          cp,
          "MachineCreated",
          "ScaleUp",
          "Created Machine "
              + name
              + failureDomain.map(fd -> " in failure domain " + fd).orElse(""));
      return Optional.empty();
    } catch (KubernetesClientException e) {
      for (HasMetadata object : created) {
        client.resource(object).delete();
      }
      // No random name in the message: an unchanged status does not wake the operator again.
      String message =
          "could not create a control-plane Machine: "
              + (e.getStatus() == null ? e.getMessage() : e.getStatus().getMessage());
      events.warning(cp, MACHINE_CREATION_FAILED, "ScaleUp", message);
      return Optional.of(message);
    }
  }

  private GenericKubernetesResource infrastructureMachine(
      ControlPlaneScope scope, GenericKubernetesResource template, String name) {
    Map<String, Object> templateSpec =
        map(map(template.getAdditionalProperties().get("spec")).get("template"));
    Map<String, Object> templateMetadata = map(templateSpec.get("metadata"));
    Map<String, String> labels = new LinkedHashMap<>(strings(templateMetadata.get("labels")));
    labels.putAll(templateLabels(scope.cp()));
    labels.putAll(scope.controlPlaneLabels());
    Map<String, String> annotations =
        new LinkedHashMap<>(strings(templateMetadata.get("annotations")));
    annotations.putAll(templateAnnotations(scope.cp()));
    String group = OwnerReferences.groupOf(template.getApiVersion());
    annotations.put(UpToDate.CLONED_FROM_NAME, template.getMetadata().getName());
    annotations.put(UpToDate.CLONED_FROM_GROUP_KIND, template.getKind() + "." + group);
    GenericKubernetesResource clone = new GenericKubernetesResource();
    clone.setApiVersion(template.getApiVersion());
    clone.setKind(InfrastructureTemplates.machineKind(template.getKind()));
    clone.setMetadata(
        new ObjectMetaBuilder()
            .withName(name)
            .withNamespace(scope.namespace())
            .withLabels(labels)
            .withAnnotations(annotations)
            .withOwnerReferences(OwnerReferences.plain(scope.cp()))
            .build());
    clone.setAdditionalProperty("spec", templateSpec.getOrDefault("spec", Map.of()));
    return clone;
  }

  private OpenshiftAssistedConfig config(ControlPlaneScope scope, String name) {
    OpenshiftAssistedControlPlane cp = scope.cp();
    OpenshiftAssistedConfig config = new OpenshiftAssistedConfig();
    Map<String, String> labels = new LinkedHashMap<>(templateLabels(cp));
    labels.putAll(scope.controlPlaneLabels());
    Map<String, String> annotations = new LinkedHashMap<>(templateAnnotations(cp));
    annotations.put(
        UpToDate.CONFIG_HASH_ANNOTATION,
        UpToDate.configHash(cp.getSpec().openshiftAssistedConfigSpec));
    config.setMetadata(
        new ObjectMetaBuilder()
            .withName(name)
            .withNamespace(scope.namespace())
            .withLabels(labels)
            .withAnnotations(annotations)
            .withOwnerReferences(OwnerReferences.plain(cp))
            .build());
    config.setSpec(
        cp.getSpec().openshiftAssistedConfigSpec == null
            ? new io.openshiftagent.api.bootstrap.v1alpha2.OpenshiftAssistedConfigSpec()
            : Serialization.clone(cp.getSpec().openshiftAssistedConfigSpec));
    return config;
  }

  private Machine machine(
      ControlPlaneScope scope,
      String name,
      GenericKubernetesResource template,
      String failureDomain) {
    OpenshiftAssistedControlPlane cp = scope.cp();
    ControlPlaneMachineTemplate machineTemplate = cp.getSpec().machineTemplate;
    Map<String, String> labels = new LinkedHashMap<>(templateLabels(cp));
    labels.putAll(scope.controlPlaneLabels());
    Machine machine = new Machine();
    machine.setMetadata(
        new ObjectMetaBuilder()
            .withName(name)
            .withNamespace(scope.namespace())
            .withLabels(labels)
            .withAnnotations(templateAnnotations(cp))
            .withOwnerReferences(OwnerReferences.controller(cp))
            .build());
    MachineSpec spec = new MachineSpec();
    spec.clusterName = scope.clusterName();
    spec.bootstrap = new MachineSpec.Bootstrap();
    spec.bootstrap.configRef =
        new ContractVersionedObjectReference(BootstrapGroup.GROUP, "OpenshiftAssistedConfig", name);
    spec.infrastructureRef =
        new ContractVersionedObjectReference(
            OwnerReferences.groupOf(template.getApiVersion()),
            InfrastructureTemplates.machineKind(template.getKind()),
            name);
    spec.failureDomain = failureDomain;
    spec.deletion = machineTemplate.effectiveDeletion();
    if (machineTemplate.spec != null && machineTemplate.spec.readinessGates != null) {
      spec.readinessGates =
          machineTemplate.spec.readinessGates.stream()
              .map(
                  g -> {
                    MachineSpec.ReadinessGate gate = new MachineSpec.ReadinessGate();
                    gate.conditionType = g.conditionType;
                    gate.polarity = g.polarity;
                    return gate;
                  })
              .toList();
    }
    machine.setSpec(spec);
    return machine;
  }

  /**
   * Deletes configs and infrastructure clones left without their Machine by a crash between the
   * creations (the Machine is created last, under the same name).
   */
  private void deleteOrphans(ControlPlaneScope scope) {
    for (OpenshiftAssistedConfig config : scope.configs().values()) {
      String name = config.getMetadata().getName();
      boolean hasMachine = scope.machines().stream().anyMatch(m -> name(m).equals(name));
      if (hasMachine || config.getMetadata().getDeletionTimestamp() != null) {
        continue;
      }
      if (client.resources(Machine.class).inNamespace(scope.namespace()).withName(name).get()
          != null) {
        continue; // the cache has not seen it yet
      }
      LOG.info(
          "deleting {}/{} left over from an interrupted Machine creation", scope.namespace(), name);
      ContractVersionedObjectReference template =
          scope.cp().getSpec().machineTemplate.effectiveInfrastructureRef();
      try {
        infrastructure.delete(
            new ContractVersionedObjectReference(
                template.apiGroup, InfrastructureTemplates.machineKind(template.kind), name),
            scope.namespace());
      } catch (RuntimeException e) {
        LOG.warn("could not delete infrastructure machine {}: {}", name, e.getMessage());
      }
      client.resource(config).delete();
    }
  }

  private List<Machine> liveMachines(ControlPlaneScope scope) {
    return client
        .resources(Machine.class)
        .inNamespace(scope.namespace())
        .withLabel(ExternalKinds.CONTROL_PLANE_NAME_LABEL, Names.controlPlaneLabelValue(scope.cp()))
        .list()
        .getItems()
        .stream()
        .filter(m -> OwnerReferences.isOwnedBy(m, scope.cp()))
        .toList();
  }

  private void syncDeletionTimeouts(Machine machine, MachineDeletionSpec desired) {
    MachineDeletionSpec current = machine.getSpec() == null ? null : machine.getSpec().deletion;
    if (desired != null && !desired.equals(current)) {
      new OwnedFieldsPatch()
          .set(Serialization.jsonMapper().convertValue(desired, Map.class), "spec", "deletion")
          .applyTo(client, machine);
    }
  }

  /** Sets the Machine's UpToDate condition, and only it, with a server-side apply of the status. */
  private void markUpToDate(Machine machine, Optional<String> notUpToDateReason) {
    String status = notUpToDateReason.isEmpty() ? Conditions.TRUE : Conditions.FALSE;
    String reason = notUpToDateReason.isEmpty() ? UP_TO_DATE : NOT_UP_TO_DATE;
    String message = notUpToDateReason.map(r -> "the Machine is not up to date: " + r).orElse("");
    Optional<Condition> current =
        Conditions.find(
            machine.getStatus() == null ? null : machine.getStatus().conditions,
            MACHINE_UP_TO_DATE);
    if (current.isPresent()
        && status.equals(current.get().getStatus())
        && reason.equals(current.get().getReason())
        && message.equals(Objects.requireNonNullElse(current.get().getMessage(), ""))) {
      return;
    }
    List<Condition> conditions =
        Conditions.set(
            current.map(List::of).orElse(List.of()),
            MACHINE_UP_TO_DATE,
            status,
            reason,
            message,
            machine.getMetadata().getGeneration(),
            clock.instant());
    Map<String, Object> apply = new LinkedHashMap<>();
    apply.put("apiVersion", machine.getApiVersion());
    apply.put("kind", machine.getKind());
    apply.put(
        "metadata",
        Map.of(
            "name",
            machine.getMetadata().getName(),
            "namespace",
            machine.getMetadata().getNamespace()));
    apply.put("status", Map.of("conditions", conditions));
    PatchContext ssa = PatchContext.of(PatchType.SERVER_SIDE_APPLY);
    ssa.setFieldManager(fieldManager);
    ssa.setForce(true);
    // With the object at hand, fabric8 patches in one request (by name, it would read it first).
    client.resource(machine).subresource("status").patch(ssa, Serialization.asJson(apply));
  }

  /** What UpToDate reads of the Machine's infrastructure machine: its name and annotations. */
  private HasMetadata infrastructureMachine(Machine machine) {
    ContractVersionedObjectReference ref =
        machine.getSpec() == null ? null : machine.getSpec().infrastructureRef;
    if (ref == null) {
      return null;
    }
    try {
      Map<String, String> annotations =
          infrastructure.annotations(ref, machine.getMetadata().getNamespace());
      if (annotations == null) {
        return null;
      }
      GenericKubernetesResource metadataOnly = new GenericKubernetesResource();
      metadataOnly.setMetadata(
          new ObjectMetaBuilder().withName(ref.name).withAnnotations(annotations).build());
      return metadataOnly;
    } catch (RuntimeException e) {
      LOG.debug("cannot read infrastructure machine {}: {}", ref, e.getMessage());
      return null;
    }
  }

  static String configName(Machine machine) {
    return machine.getSpec() == null
            || machine.getSpec().bootstrap == null
            || machine.getSpec().bootstrap.configRef == null
        ? name(machine)
        : machine.getSpec().bootstrap.configRef.name;
  }

  static boolean isReady(Machine machine) {
    return machineCondition(machine, "Ready");
  }

  static boolean machineCondition(Machine machine, String type) {
    return machine.getStatus() != null && Conditions.isTrue(machine.getStatus().conditions, type);
  }

  private static String name(Machine m) {
    return m.getMetadata().getName();
  }

  private static Map<String, String> templateLabels(OpenshiftAssistedControlPlane cp) {
    ObjectMetaTemplate meta = cp.getSpec().machineTemplate.metadata;
    return meta == null || meta.labels == null ? Map.of() : meta.labels;
  }

  private static Map<String, String> templateAnnotations(OpenshiftAssistedControlPlane cp) {
    ObjectMetaTemplate meta = cp.getSpec().machineTemplate.metadata;
    return meta == null || meta.annotations == null ? Map.of() : meta.annotations;
  }

  private static String randomSuffix() {
    StringBuilder s = new StringBuilder();
    for (int i = 0; i < 5; i++) {
      s.append(ALPHABET.charAt(RANDOM.nextInt(ALPHABET.length())));
    }
    return s.toString();
  }

  @SuppressWarnings("unchecked")
  private static Map<String, Object> map(Object o) {
    return o instanceof Map<?, ?> m ? (Map<String, Object>) m : Map.of();
  }

  @SuppressWarnings("unchecked")
  private static Map<String, String> strings(Object o) {
    return o instanceof Map<?, ?> m ? (Map<String, String>) m : Map.of();
  }
}
