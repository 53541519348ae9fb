package io.openshiftagent.api.external;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.tuple;

import com.fasterxml.jackson.annotation.JsonAnySetter;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.fabric8.kubernetes.api.model.Condition;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.Namespaced;
import io.fabric8.kubernetes.client.CustomResource;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import io.openshiftagent.api.common.ContractVersionedObjectReference;
import io.openshiftagent.api.common.MachineDeletionSpec;
import io.openshiftagent.api.external.assisted.Agent;
import io.openshiftagent.api.external.assisted.AgentClusterInstall;
import io.openshiftagent.api.external.assisted.AgentSpec;
import io.openshiftagent.api.external.assisted.AgentStatus;
import io.openshiftagent.api.external.assisted.InfraEnv;
import io.openshiftagent.api.external.assisted.NMStateConfig;
import io.openshiftagent.api.external.capi.Cluster;
import io.openshiftagent.api.external.capi.Machine;
import io.openshiftagent.api.external.capi.MachineDeployment;
import io.openshiftagent.api.external.capi.MachineSet;
import io.openshiftagent.api.external.hive.ClusterDeployment;
import io.openshiftagent.api.external.hive.ClusterImageSet;
import io.openshiftagent.api.external.metal3.BareMetalHost;
import io.openshiftagent.api.external.metal3.Metal3Machine;
import io.openshiftagent.api.external.metal3.Metal3MachineSpec;
import io.openshiftagent.api.external.metal3.Metal3MachineTemplate;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.lang.reflect.ParameterizedType;
import java.lang.reflect.Type;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The external models read what the owning controllers write and write it back unchanged: the
 * documents in src/test/resources/external are shaped like live objects, with fields (top-level and
 * nested) that the models do not declare.
 */
class ExternalModelRoundTripTest {
  private static final KubernetesSerialization SERIALIZATION = new KubernetesSerialization();
  private static final ObjectMapper TREES = new ObjectMapper();

  /**
   * The reused shared types mirror their complete v1beta2 schema (CAPI's
   * ContractVersionedObjectReference and MachineDeletionSpec have no other fields), so they may
   * drop unknown fields.
   */
  private static final Set<Class<?>> COMPLETE_SHARED_TYPES =
      Set.of(ContractVersionedObjectReference.class, MachineDeletionSpec.class);

  static Stream<Arguments> documents() {
    return Stream.of(
        Arguments.of("cluster.json", Cluster.class),
        Arguments.of("machine.json", Machine.class),
        Arguments.of("machineset.json", MachineSet.class),
        Arguments.of("machinedeployment.json", MachineDeployment.class),
        Arguments.of("metal3machine.json", Metal3Machine.class),
        Arguments.of("metal3machinetemplate.json", Metal3MachineTemplate.class),
        Arguments.of("baremetalhost.json", BareMetalHost.class),
        Arguments.of("infraenv.json", InfraEnv.class),
        Arguments.of("agent.json", Agent.class),
        Arguments.of("nmstateconfig.json", NMStateConfig.class),
        Arguments.of("agentclusterinstall.json", AgentClusterInstall.class),
        Arguments.of("clusterdeployment.json", ClusterDeployment.class),
        Arguments.of("clusterimageset.json", ClusterImageSet.class));
  }

  @ParameterizedTest(name = "{1}")
  @MethodSource("documents")
  void writingBackAReadObjectReproducesTheDocumentIncludingUnmodelledFields(
      String file, Class<? extends HasMetadata> type) {
    String json = resource(file);

    HasMetadata model = SERIALIZATION.unmarshal(json, type);

    assertThat(model).isInstanceOf(type);
    assertThat(tree(SERIALIZATION.asJson(model))).isEqualTo(tree(json));
  }

  @ParameterizedTest(name = "{1}")
  @MethodSource("documents")
  void apiVersionKindAndPluralOfEachModelMatchTheCrd(
      String file, Class<? extends HasMetadata> type) {
    JsonNode document = tree(resource(file));
    String kind = document.get("kind").asText();

    assertThat(HasMetadata.getApiVersion(type)).isEqualTo(document.get("apiVersion").asText());
    assertThat(HasMetadata.getKind(type)).isEqualTo(kind);
    assertThat(HasMetadata.getPlural(type)).isEqualTo(kind.toLowerCase() + "s");
    assertThat(Namespaced.class.isAssignableFrom(type))
        .as("namespaced")
        .isEqualTo(document.get("metadata").has("namespace"));
  }

  @ParameterizedTest(name = "{1}")
  @MethodSource("documents")
  void everyModelClassReachableFromTheKindKeepsUnknownFields(
      String file, Class<? extends CustomResource<?, ?>> type) {
    Type[] specAndStatus =
        ((ParameterizedType) type.getGenericSuperclass()).getActualTypeArguments();
    Set<Class<?>> reachable = new LinkedHashSet<>();
    for (Type t : specAndStatus) {
      collectModelClasses(t, reachable);
    }

    assertThat(reachable).isNotEmpty();
    assertThat(reachable)
        .allSatisfy(
            c ->
                assertThat(
                        UnknownFields.class.isAssignableFrom(c)
                            || COMPLETE_SHARED_TYPES.contains(c)
                            || hasAnySetter(c))
                    .as("%s keeps unknown fields", c.getName())
                    .isTrue());
  }

  private static void collectModelClasses(Type type, Set<Class<?>> into) {
    if (type instanceof ParameterizedType p) {
      for (Type argument : p.getActualTypeArguments()) {
        collectModelClasses(argument, into);
      }
      return;
    }
    if (!(type instanceof Class<?> c)
        || c.isPrimitive()
        || c == Void.class
        || c == Object.class
        || c.getName().startsWith("java.")
        || !into.add(c)) {
      return;
    }
    if (c.getName().startsWith("io.fabric8.")) {
      return;
    }
    for (Class<?> k = c; k != null && k != Object.class; k = k.getSuperclass()) {
      for (Field f : k.getDeclaredFields()) {
        if (!Modifier.isStatic(f.getModifiers())) {
          collectModelClasses(f.getGenericType(), into);
        }
      }
    }
  }

  /** fabric8's model classes keep unknown fields in additionalProperties. */
  private static boolean hasAnySetter(Class<?> c) {
    return Arrays.stream(c.getMethods()).anyMatch(m -> m.isAnnotationPresent(JsonAnySetter.class));
  }

  @Test
  void clusterModelReadsV1beta2EndpointNetworkReferencesAndFailureDomainList() {
    Cluster cluster = read("cluster.json", Cluster.class);

    assertThat(cluster.getSpec().paused).isFalse();
    assertThat(cluster.getSpec().controlPlaneEndpoint.host).isEqualTo("api.ocp1.lab.example.com");
    assertThat(cluster.getSpec().controlPlaneEndpoint.port).isEqualTo(6443);
    assertThat(cluster.getSpec().clusterNetwork.pods.cidrBlocks).containsExactly("10.128.0.0/14");
    assertThat(cluster.getSpec().clusterNetwork.services.cidrBlocks)
        .containsExactly("172.30.0.0/16");
    assertThat(cluster.getSpec().clusterNetwork.serviceDomain).isEqualTo("cluster.local");
    assertThat(cluster.getSpec().controlPlaneRef)
        .isEqualTo(
            new ContractVersionedObjectReference(
                "controlplane.cluster.x-k8s.io", "OpenshiftAssistedControlPlane", "ocp1"));
    assertThat(cluster.getSpec().infrastructureRef.kind).isEqualTo("Metal3Cluster");
    assertThat(cluster.getSpec().topology.version).isEqualTo("v1.32.4");
    assertThat(cluster.getSpec().topology.classRef.name).isEqualTo("openshift-metal3");
    assertThat(cluster.getSpec().topology.unknownFields())
        .containsKeys("controlPlane", "variables");
    assertThat(cluster.getStatus().initialization.infrastructureProvisioned).isTrue();
    assertThat(cluster.getStatus().initialization.controlPlaneInitialized).isFalse();
    assertThat(cluster.getStatus().failureDomains)
        .extracting(fd -> fd.name, fd -> fd.controlPlane)
        .containsExactly(tuple("rack-a", true), tuple("rack-b", false));
    assertThat(cluster.getStatus().failureDomains.get(0).attributes).containsEntry("room", "b12");
    assertThat(cluster.getStatus().phase).isEqualTo("Provisioned");
    assertThat(cluster.getStatus().conditions)
        .extracting(Condition::getType)
        .containsExactly("Available", "InfrastructureReady");
    assertThat(cluster.getStatus().unknownFields()).containsKeys("controlPlane", "deprecated");
  }

  @Test
  void machineModelReadsBootstrapInfrastructureDeletionNodeAndInitialization() {
    Machine machine = read("machine.json", Machine.class);

    assertThat(machine.getSpec().clusterName).isEqualTo("ocp1");
    assertThat(machine.getSpec().bootstrap.configRef)
        .isEqualTo(
            new ContractVersionedObjectReference(
                "bootstrap.cluster.x-k8s.io", "OpenshiftAssistedConfig", "ocp1-cp-7xk2p"));
    assertThat(machine.getSpec().bootstrap.dataSecretName).isEqualTo("ocp1-cp-7xk2p");
    assertThat(machine.getSpec().infrastructureRef.kind).isEqualTo("Metal3Machine");
    assertThat(machine.getSpec().failureDomain).isEqualTo("rack-a");
    assertThat(machine.getSpec().version).isEqualTo("v1.32.4");
    assertThat(machine.getSpec().providerID).isEqualTo("metal3://test-capi/host-0/ocp1-cp-7xk2p");
    assertThat(machine.getSpec().deletion.nodeDrainTimeoutSeconds).isEqualTo(600);
    assertThat(machine.getSpec().deletion.nodeDeletionTimeoutSeconds).isEqualTo(10);
    assertThat(machine.getSpec().readinessGates)
        .extracting(g -> g.conditionType)
        .containsExactly("APIServerPodHealthy", "EtcdMemberHealthy");
    assertThat(machine.getSpec().minReadySeconds).isZero();
    assertThat(machine.getSpec().taints)
        .extracting(t -> t.get("key") + ":" + t.get("effect") + ":" + t.get("propagation"))
        .containsExactly("node-role.kubernetes.io/master:NoSchedule:OnInitialization");
    assertThat(machine.getStatus().nodeRef.name).isEqualTo("master-0");
    assertThat(machine.getStatus().phase).isEqualTo("Running");
    assertThat(machine.getStatus().initialization.bootstrapDataSecretCreated).isTrue();
    assertThat(machine.getStatus().initialization.infrastructureProvisioned).isTrue();
    assertThat(machine.getStatus().addresses)
        .extracting(a -> a.type + "=" + a.address)
        .containsExactly("InternalIP=192.168.111.20", "Hostname=master-0");
    assertThat(machine.getStatus().conditions).extracting(Condition::getType).contains("Ready");
    assertThat(machine.getMetadata().getLabels())
        .containsEntry(ExternalKinds.CLUSTER_NAME_LABEL, "ocp1")
        .containsEntry(ExternalKinds.CONTROL_PLANE_NAME_LABEL, "ocp1")
        .containsKey(ExternalKinds.CONTROL_PLANE_LABEL);
  }

  @Test
  void machineSetAndDeploymentModelsReadReplicasSelectorAndMachineTemplate() {
    MachineSet set = read("machineset.json", MachineSet.class);
    MachineDeployment deployment = read("machinedeployment.json", MachineDeployment.class);

    assertThat(set.getSpec().replicas).isEqualTo(2);
    assertThat(set.getSpec().selector.getMatchLabels())
        .containsEntry(ExternalKinds.CLUSTER_NAME_LABEL, "ocp1");
    assertThat(set.getSpec().template.metadata.annotations)
        .containsEntry("example.com/owner", "team-a");
    assertThat(set.getSpec().template.spec.bootstrap.configRef.kind)
        .isEqualTo("OpenshiftAssistedConfigTemplate");
    assertThat(set.getSpec().unknownFields()).containsKey("deletion");
    assertThat(set.getStatus().readyReplicas).isEqualTo(1);
    assertThat(set.getStatus().availableReplicas).isEqualTo(1);
    assertThat(deployment.getSpec().clusterName).isEqualTo("ocp1");
    assertThat(deployment.getSpec().template.spec.infrastructureRef.name).isEqualTo("ocp1-workers");
    assertThat(deployment.getSpec().template.spec.minReadySeconds).isEqualTo(30);
    assertThat(deployment.getStatus().replicas).isEqualTo(2);
  }

  @Test
  void metal3MachineModelReadsV1beta2LiveIsoImageHostSelectorAndProvisionedFlag() {
    Metal3Machine machine = read("metal3machine.json", Metal3Machine.class);
    Metal3MachineSpec spec = machine.getSpec();

    assertThat(spec.image.url).endsWith("/minimal.iso");
    assertThat(spec.image.checksum).isEmpty();
    assertThat(spec.image.checksumType).isEqualTo("sha256");
    assertThat(spec.image.diskFormat).isEqualTo(Metal3MachineSpec.DISK_FORMAT_LIVE_ISO);
    assertThat(spec.customDeploy.method).isEqualTo("install_coreos");
    assertThat(spec.providerID).isEqualTo("metal3://test-capi/host-0/ocp1-cp-7xk2p");
    assertThat(spec.dataTemplate.name).isEqualTo("ocp1-cp-metadata");
    assertThat(spec.userData.getName()).isEqualTo("ocp1-cp-7xk2p-user-data");
    assertThat(spec.hostSelector.matchLabels).containsEntry("role", "control-plane");
    assertThat(spec.hostSelector.matchExpressions.get(0).values).containsExactly("a", "b");
    assertThat(spec.unknownFields())
        .containsKeys("automatedCleaningMode", "metaData", "networkData");
    assertThat(machine.getStatus().initialization.provisioned).isTrue();
    assertThat(machine.getStatus().conditions)
        .extracting(Condition::getType)
        .containsExactly("Ready");
    assertThat(machine.getStatus().unknownFields()).containsKeys("addresses", "renderedData");
    assertThat(machine.getMetadata().getAnnotations())
        .containsEntry(ExternalKinds.BAREMETALHOST_ANNOTATION, "test-capi/host-0");

    Metal3MachineTemplate template =
        read("metal3machinetemplate.json", Metal3MachineTemplate.class);
    assertThat(template.getSpec().nodeReuse).isFalse();
    assertThat(template.getSpec().template.spec.image.diskFormat).isEqualTo("raw");
    assertThat(template.getSpec().template.metadata.labels)
        .containsEntry("example.com/pool", "workers");
  }

  @Test
  void bareMetalHostModelReadsConsumerImageRootDeviceHintsAndProvisioningState() {
    BareMetalHost host = read("baremetalhost.json", BareMetalHost.class);

    assertThat(host.getSpec().online).isTrue();
    assertThat(host.getSpec().bootMACAddress).isEqualTo("00:5c:52:31:3a:9c");
    assertThat(host.getSpec().consumerRef.getKind()).isEqualTo("Metal3Machine");
    assertThat(host.getSpec().image.format).isEqualTo("live-iso");
    assertThat(host.getSpec().customDeploy.method).isEqualTo("install_coreos");
    assertThat(host.getSpec().userData.getName()).isEqualTo("ocp1-cp-7xk2p-user-data");
    assertThat(host.getSpec().rootDeviceHints.deviceName).isEqualTo("/dev/sda");
    assertThat(host.getStatus().provisioning.state).isEqualTo("provisioned");
    assertThat(host.getStatus().provisioning.id).isEqualTo("5d0e7e3a-6cf1-4bd7-9b2a-58dc0f2c6b71");
    assertThat(host.getStatus().operationalStatus).isEqualTo("OK");
    assertThat(host.getStatus().poweredOn).isTrue();
    assertThat(host.getStatus().unknownFields()).containsKeys("hardware", "operationHistory");
  }

  @Test
  void infraEnvModelReadsSpecAndTheDownloadUrlsOfItsStatus() {
    InfraEnv infraEnv = read("infraenv.json", InfraEnv.class);

    assertThat(infraEnv.getSpec().clusterRef.name).isEqualTo("ocp1");
    assertThat(infraEnv.getSpec().clusterRef.namespace).isEqualTo("test-capi");
    assertThat(infraEnv.getSpec().pullSecretRef.getName()).isEqualTo("pull-secret");
    assertThat(infraEnv.getSpec().proxy.noProxy).isEqualTo(".cluster.local,192.168.111.0/24");
    assertThat(infraEnv.getSpec().additionalNTPSources).containsExactly("clock.example.com");
    assertThat(infraEnv.getSpec().sshAuthorizedKey).startsWith("ssh-ed25519 ");
    assertThat(infraEnv.getSpec().nmStateConfigLabelSelector.getMatchLabels())
        .containsEntry(ExternalKinds.INFRAENV_LABEL, "ocp1-cp-7xk2p");
    assertThat(infraEnv.getSpec().cpuArchitecture).isEqualTo("x86_64");
    assertThat(infraEnv.getSpec().additionalTrustBundle).startsWith("-----BEGIN CERTIFICATE-----");
    assertThat(infraEnv.getSpec().osImageVersion).isEqualTo("4.19");
    assertThat(infraEnv.getSpec().ignitionConfigOverride).contains("3.1.0");
    assertThat(infraEnv.getSpec().imageType).isEqualTo("minimal-iso");
    assertThat(infraEnv.getSpec().kernelArguments)
        .extracting(k -> k.operation + " " + k.value)
        .containsExactly("append rd.net.timeout.carrier=60");
    assertThat(infraEnv.getSpec().agentLabels)
        .containsEntry(ExternalKinds.CLUSTER_NAME_LABEL, "ocp1");
    assertThat(infraEnv.getSpec().unknownFields())
        .containsKeys("ipxeScriptType", "mirrorRegistryRef");
    assertThat(infraEnv.getStatus().isoDownloadURL).endsWith("/minimal.iso");
    assertThat(infraEnv.getStatus().bootArtifacts.discoveryIgnitionURL)
        .endsWith("file_name=discovery.ign");
    assertThat(infraEnv.getStatus().bootArtifacts.kernel).contains("/kernel");
    assertThat(infraEnv.getStatus().bootArtifacts.initrd).contains("pxe-initrd");
    assertThat(infraEnv.getStatus().bootArtifacts.rootfs).contains("/rootfs");
    assertThat(infraEnv.getStatus().bootArtifacts.ipxeScript).contains("ipxe-script");
    assertThat(infraEnv.getStatus().debugInfo.eventsURL).contains("infra_env_id=9d1c");
    assertThat(infraEnv.getStatus().createdTime).isEqualTo("2025-11-03T09:13:21Z");
    Condition imageCreated = infraEnv.getStatus().conditions.get(0);
    assertThat(imageCreated.getType()).isEqualTo("ImageCreated");
    assertThat(imageCreated.getAdditionalProperties())
        .containsEntry("lastHeartbeatTime", "2025-11-03T09:13:21Z");
    assertThat(infraEnv.getStatus().unknownFields()).containsKey("agentLabelSelector");
  }

  @Test
  void agentModelReadsApprovalBindingDisksAndInventoryAndKeepsValidations() {
    Agent agent = read("agent.json", Agent.class);
    AgentSpec spec = agent.getSpec();

    assertThat(spec.role).isEqualTo("master");
    assertThat(spec.approved).isTrue();
    assertThat(spec.hostname).isEqualTo("master-0");
    assertThat(spec.installerArgs).isEqualTo("[\"--append-karg\",\"ip=enp1s0:dhcp\"]");
    assertThat(spec.ignitionConfigOverrides).contains("/etc/capoa");
    assertThat(spec.nodeLabels).containsEntry("example.com/rack", "a");
    assertThat(spec.clusterDeploymentName.name).isEqualTo("ocp1");
    assertThat(spec.clusterDeploymentName.namespace).isEqualTo("test-capi");
    assertThat(spec.installationDiskID)
        .isEqualTo("/dev/disk/by-path/pci-0000:00:05.0-scsi-0:0:0:0");
    assertThat(spec.unknownFields()).containsKey("ignitionEndpointTokenReference");
    assertThat(agent.getStatus().inventory.hostname).isEqualTo("master-0");
    assertThat(agent.getStatus().inventory.interfaces.get(0).macAddress)
        .isEqualTo("00:5c:52:31:3a:9c");
    assertThat(agent.getStatus().inventory.interfaces.get(0).name).isEqualTo("enp1s0");
    assertThat(agent.getStatus().inventory.interfaces.get(0).ipV4Addresses)
        .containsExactly("192.168.111.20/24");
    assertThat(agent.getStatus().inventory.interfaces.get(0).ipV6Addresses)
        .containsExactly("fd2e:6f44:5dd8:c956::14/120");
    assertThat(agent.getStatus().inventory.interfaces.get(0).unknownFields())
        .containsKeys("flags", "mtu");
    assertThat(agent.getStatus().inventory.unknownFields()).containsKeys("cpu", "memory");
    AgentStatus.Disk disk = agent.getStatus().inventory.disks.get(0);
    assertThat(disk.id).isEqualTo("/dev/disk/by-path/pci-0000:00:05.0-scsi-0:0:0:0");
    assertThat(disk.path).isEqualTo("/dev/sda");
    assertThat(disk.driveType).isEqualTo("HDD");
    assertThat(disk.sizeBytes).isEqualTo(128849018880L);
    assertThat(disk.installationEligibility.eligible).isTrue();
    assertThat(disk.installationEligibility.unknownFields()).containsKey("notEligibleReasons");
    assertThat(disk.unknownFields()).containsKeys("smart", "ioPerf");
    assertThat(agent.getStatus().debugInfo.state).isEqualTo("installing-in-progress");
    assertThat(agent.getStatus().debugInfo.stateInfo).isEqualTo("Writing image to disk");
    assertThat(agent.getStatus().progress.currentStage).isEqualTo("Writing image to disk");
    assertThat(agent.getStatus().role).isEqualTo("master");
    assertThat(agent.getStatus().conditions)
        .extracting(Condition::getType)
        .containsExactly("SpecSynced", "Connected", "Installed", "Bound");
    assertThat(agent.getStatus().unknownFields())
        .containsKeys("validationsInfo", "installation_disk_id", "ntpSources", "csrStatus");
    assertThat(agent.getMetadata().getLabels())
        .containsEntry(ExternalKinds.INFRAENV_LABEL, "ocp1-cp-7xk2p");
  }

  @Test
  void nmStateConfigModelKeepsTheFreeFormNmstateDocument() {
    NMStateConfig config = read("nmstateconfig.json", NMStateConfig.class);

    assertThat(config.getSpec().interfaces)
        .extracting(i -> i.name + "=" + i.macAddress)
        .containsExactly("eth0=00:5c:52:31:3a:9c");
    assertThat(config.getSpec().config).containsKeys("interfaces", "dns-resolver", "routes");
  }

  @Test
  void agentClusterInstallModelReadsNetworkingRequirementsEncryptionAndClusterMetadata() {
    AgentClusterInstall aci = read("agentclusterinstall.json", AgentClusterInstall.class);

    assertThat(aci.getSpec().clusterDeploymentRef.getName()).isEqualTo("ocp1");
    assertThat(aci.getSpec().imageSetRef.getName()).isEqualTo("openshift-v4.19.3");
    assertThat(aci.getSpec().networking.clusterNetwork)
        .extracting(n -> n.cidr + "/" + n.hostPrefix)
        .containsExactly("10.128.0.0/14/23");
    assertThat(aci.getSpec().networking.serviceNetwork).containsExactly("172.30.0.0/16");
    assertThat(aci.getSpec().networking.machineNetwork)
        .extracting(n -> n.cidr)
        .containsExactly("192.168.111.0/24");
    assertThat(aci.getSpec().networking.networkType).isEqualTo("OVNKubernetes");
    assertThat(aci.getSpec().networking.userManagedNetworking).isFalse();
    assertThat(aci.getSpec().provisionRequirements.controlPlaneAgents).isEqualTo(3);
    assertThat(aci.getSpec().provisionRequirements.workerAgents).isZero();
    assertThat(aci.getSpec().apiVIPs).containsExactly("192.168.111.5");
    assertThat(aci.getSpec().ingressVIPs).containsExactly("192.168.111.4");
    assertThat(aci.getSpec().platformType).isEqualTo("BareMetal");
    assertThat(aci.getSpec().sshPublicKey).startsWith("ssh-ed25519 ");
    assertThat(aci.getSpec().proxy.httpProxy).isEqualTo("http://proxy.example.com:3128");
    assertThat(aci.getSpec().diskEncryption.enableOn).isEqualTo("masters,workers");
    assertThat(aci.getSpec().diskEncryption.mode).isEqualTo("tang");
    assertThat(aci.getSpec().diskEncryption.tangServers).contains("tang.example.com");
    assertThat(aci.getSpec().mastersSchedulable).isFalse();
    assertThat(aci.getSpec().manifestsConfigMapRefs)
        .extracting(r -> r.getName())
        .containsExactly("ocp1-extra-manifests");
    assertThat(aci.getSpec().clusterMetadata.clusterID)
        .isEqualTo("d1b2f8a4-8a4c-4f6e-9bde-6a2e8c1f0b3d");
    assertThat(aci.getSpec().clusterMetadata.infraID)
        .isEqualTo("9b0e3f61-77d2-4c0a-bd5a-52f0a4c3e1d7");
    assertThat(aci.getSpec().clusterMetadata.adminKubeconfigSecretRef.getName())
        .isEqualTo("ocp1-admin-kubeconfig");
    assertThat(aci.getSpec().clusterMetadata.adminPasswordSecretRef.getName())
        .isEqualTo("ocp1-admin-password");
    assertThat(aci.getSpec().unknownFields()).containsKey("holdInstallation");
    assertThat(aci.getStatus().debugInfo.state).isEqualTo("installing");
    assertThat(aci.getStatus().debugInfo.stateInfo).isEqualTo("Installation in progress");
    assertThat(aci.getStatus().progress.totalPercentage).isEqualTo(31L);
    Condition completed = aci.getStatus().conditions.get(1);
    assertThat(completed.getType()).isEqualTo("Completed");
    assertThat(completed.getAdditionalProperties())
        .containsEntry("lastProbeTime", "2025-11-03T09:25:30Z");
    assertThat(aci.getStatus().unknownFields()).containsKeys("controlPlaneAgentsReady");
    assertThat(aci.getStatus().validationsInfo).isNotEmpty();
  }

  @Test
  void hiveModelsReadInstallReferenceMetadataAndReleaseImage() {
    ClusterDeployment deployment = read("clusterdeployment.json", ClusterDeployment.class);
    ClusterImageSet imageSet = read("clusterimageset.json", ClusterImageSet.class);

    assertThat(deployment.getSpec().clusterName).isEqualTo("ocp1");
    assertThat(deployment.getSpec().baseDomain).isEqualTo("lab.example.com");
    assertThat(deployment.getSpec().platform.agentBareMetal.agentSelector.getMatchLabels())
        .containsEntry(ExternalKinds.CLUSTER_NAME_LABEL, "ocp1");
    assertThat(deployment.getSpec().pullSecretRef.getName()).isEqualTo("pull-secret");
    assertThat(deployment.getSpec().clusterInstallRef.kind).isEqualTo("AgentClusterInstall");
    assertThat(deployment.getSpec().clusterInstallRef.version).isEqualTo("v1beta1");
    assertThat(deployment.getSpec().installed).isTrue();
    assertThat(deployment.getSpec().clusterMetadata.adminKubeconfigSecretRef.getName())
        .isEqualTo("ocp1-admin-kubeconfig");
    assertThat(deployment.getStatus().conditions)
        .extracting(Condition::getType)
        .containsExactly("Provisioned", "Hibernating");
    assertThat(deployment.getStatus().unknownFields()).containsKeys("apiURL", "installVersion");
    assertThat(imageSet.getSpec().releaseImage)
        .isEqualTo("quay.io/openshift-release-dev/ocp-release:4.19.3-multi");
  }

  @Test
  void changingModelledFieldsKeepsTheUnmodelledSiblingsAtEveryLevel() {
    Agent agent = read("agent.json", Agent.class);
    agent.getSpec().approved = false;
    agent.getSpec().hostname = "master-0.lab.example.com";
    agent.getStatus().inventory.interfaces.get(0).macAddress = "00:5c:52:31:3a:9d";

    JsonNode written = tree(SERIALIZATION.asJson(agent));

    JsonNode expected = tree(resource("agent.json"));
    ((ObjectNode) expected.get("spec"))
        .put("approved", false)
        .put("hostname", "master-0.lab.example.com");
    ((ObjectNode) expected.at("/status/inventory/interfaces/0"))
        .put("macAddress", "00:5c:52:31:3a:9d");
    assertThat(written).isEqualTo(expected);
  }

  @Test
  void unsetFieldsAreNotWrittenNotEvenAsNull() {
    Metal3Machine machine = new Metal3Machine();
    machine.getMetadata().setName("m");
    machine.setSpec(new Metal3MachineSpec());
    machine.getSpec().image = new Metal3MachineSpec.Image();
    machine.getSpec().image.url = "https://example.com/discovery.iso";
    machine.getSpec().image.diskFormat = Metal3MachineSpec.DISK_FORMAT_LIVE_ISO;

    JsonNode written = tree(SERIALIZATION.asJson(machine));

    assertThat(written.get("spec"))
        .isEqualTo(
            TREES.valueToTree(
                Map.of(
                    "image",
                    Map.of("url", "https://example.com/discovery.iso", "diskFormat", "live-iso"))));
    assertThat(written.has("status")).isFalse();
  }

  @Test
  void unknownFieldsKeepTheirOrder() {
    Agent agent = read("agent.json", Agent.class);

    assertThat(List.copyOf(agent.getStatus().inventory.unknownFields().keySet()))
        .containsExactly(
            "bmcAddress", "bmcV6Address", "boot", "cpu", "memory", "reportTime", "systemVendor");
  }

  private static <T extends CustomResource<?, ?>> T read(String file, Class<T> type) {
    return SERIALIZATION.unmarshal(resource(file), type);
  }

  private static String resource(String file) {
    try (InputStream in =
        ExternalModelRoundTripTest.class.getClassLoader().getResourceAsStream("external/" + file)) {
      assertThat(in).as("test resource external/%s", file).isNotNull();
      return new String(in.readAllBytes(), StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private static JsonNode tree(String json) {
    try {
      return TREES.readTree(json);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
