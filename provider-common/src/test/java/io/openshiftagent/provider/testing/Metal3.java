package io.openshiftagent.provider.testing;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.openshiftagent.api.external.ExternalKinds;
import io.openshiftagent.api.external.capi.Machine;
import io.openshiftagent.api.external.metal3.BareMetalHost;
import io.openshiftagent.api.external.metal3.BareMetalHostSpec;
import io.openshiftagent.api.external.metal3.Metal3Machine;
import io.openshiftagent.api.external.metal3.Metal3MachineSpec;
import java.util.HashMap;
import java.util.Map;

/**
 * The test playing Metal3 (CAPM3 and the bare-metal operator): BareMetalHosts, the Metal3Machines
 * that claimed them, and Metal3MachineTemplates.
 */
public final class Metal3 {
  private final TestWorld world;

  Metal3(TestWorld world) {
    this.world = world;
  }

  /**
   * A Machine as Cluster API creates it (named like its config-to-be), its Metal3Machine and the
   * BareMetalHost that claimed; {@code labels} are those Cluster API gives the config.
   */
  public MachineHost machineHost(String name, boolean controlPlane) {
    BareMetalHost bmh = new BareMetalHost();
    // Claimed by CAPM3, which labels the host with its cluster's name.
    bmh.setMetadata(
        world.meta("bmh-" + name, Map.of(ExternalKinds.CLUSTER_NAME_LABEL, world.clusterName)));
    bmh.setSpec(new BareMetalHostSpec());
    bmh.getSpec().online = true;
    bmh = world.client.resource(bmh).create();

    Map<String, String> labels =
        new HashMap<>(Map.of(ExternalKinds.CLUSTER_NAME_LABEL, world.clusterName));
    if (controlPlane) {
      labels.put(ExternalKinds.CONTROL_PLANE_LABEL, "");
    }
    Metal3Machine m3m = new Metal3Machine();
    m3m.setMetadata(world.meta(name, labels));
    m3m.getMetadata()
        .setAnnotations(
            Map.of(
                ExternalKinds.BAREMETALHOST_ANNOTATION,
                world.ns + "/" + bmh.getMetadata().getName()));
    m3m.setSpec(new Metal3MachineSpec());
    m3m.getSpec().image = new Metal3MachineSpec.Image();
    m3m.getSpec().image.url = "http://images.example.com/rhcos.qcow2";
    m3m.getSpec().image.checksum = "0123abcd";
    m3m.getSpec().image.checksumType = "sha256";
    m3m.getSpec().image.diskFormat = "qcow2";
    m3m.getSpec().hostSelector = new Metal3MachineSpec.HostSelector();
    m3m.getSpec().hostSelector.matchLabels = Map.of("role", controlPlane ? "cp" : "worker");
    m3m.getSpec().setUnknownField("automatedCleaningMode", "disabled");
    m3m = world.client.resource(m3m).create();

    Machine machine = world.capi.createMachine(name, labels);
    return new MachineHost(bmh, m3m, machine, labels);
  }

  /** A Machine, its Metal3Machine and claimed BareMetalHost; the labels its config gets. */
  public record MachineHost(
      BareMetalHost bmh,
      Metal3Machine metal3Machine,
      Machine machine,
      Map<String, String> labels) {}

  /** A Metal3MachineTemplate whose hosts are cleaned by {@code cleaningMode}. */
  public void createTemplate(String name, String cleaningMode) {
    GenericKubernetesResource t = new GenericKubernetesResource();
    t.setApiVersion(ExternalKinds.INFRASTRUCTURE_GROUP + "/v1beta2");
    t.setKind("Metal3MachineTemplate");
    t.setMetadata(world.meta(name, Map.of()));
    t.setAdditionalProperty(
        "spec",
        Map.of(
            "template",
            Map.of(
                "metadata", Map.of("labels", Map.of("from-template", "yes")),
                "spec",
                    Map.of(
                        "customDeploy",
                        Map.of("method", "install_coreos"),
                        "automatedCleaningMode",
                        cleaningMode))));
    world.client.resource(t).create();
  }
}
