package io.openshiftagent.api;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceDefinition;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.openshiftagent.testsupport.CrdInstaller;
import io.openshiftagent.testsupport.KubeApiServerEnvironment;
import io.openshiftagent.testsupport.WithKubeApiServer;
import java.util.Map;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

@WithKubeApiServer
class CrdInstallationTest {

  @Test
  void ourCrdsAndEveryUpstreamCrdWeUseAreEstablished(KubernetesClient client) {
    var names =
        java.util.List.of(
            "openshiftassistedconfigs.bootstrap.cluster.x-k8s.io",
            "openshiftassistedconfigtemplates.bootstrap.cluster.x-k8s.io",
            "openshiftassistedcontrolplanes.controlplane.cluster.x-k8s.io",
            "openshiftassistedcontrolplanetemplates.controlplane.cluster.x-k8s.io",
            "clusters.cluster.x-k8s.io",
            "machines.cluster.x-k8s.io",
            "machinesets.cluster.x-k8s.io",
            "machinedeployments.cluster.x-k8s.io",
            "clusterclasses.cluster.x-k8s.io",
            "metal3clusters.infrastructure.cluster.x-k8s.io",
            "metal3machines.infrastructure.cluster.x-k8s.io",
            "metal3machinetemplates.infrastructure.cluster.x-k8s.io",
            "baremetalhosts.metal3.io",
            "infraenvs.agent-install.openshift.io",
            "agents.agent-install.openshift.io",
            "nmstateconfigs.agent-install.openshift.io",
            "agentclusterinstalls.extensions.hive.openshift.io",
            "clusterdeployments.hive.openshift.io",
            "clusterimagesets.hive.openshift.io");
    for (String name : names) {
      CustomResourceDefinition crd =
          client.apiextensions().v1().customResourceDefinitions().withName(name).get();
      assertThat(crd).as(name).isNotNull();
      assertThat(CrdInstaller.isEstablished(crd)).as("%s is Established", name).isTrue();
    }
  }

  @Test
  void everyInstalledCrdIsEstablished(KubeApiServerEnvironment env) {
    Map<String, Boolean> established =
        env.installedCrds().stream()
            .collect(
                Collectors.toMap(
                    crd -> crd.getMetadata().getName(),
                    crd ->
                        CrdInstaller.isEstablished(
                            env.client()
                                .apiextensions()
                                .v1()
                                .customResourceDefinitions()
                                .withName(crd.getMetadata().getName())
                                .get())));
    assertThat(established).hasSizeGreaterThanOrEqualTo(30).doesNotContainValue(false);
  }

  @Test
  void ourCrdsCarryTheClusterApiV1beta2ContractLabel(KubernetesClient client) {
    Map<String, String> expected =
        Map.of(
            "openshiftassistedconfigs.bootstrap.cluster.x-k8s.io", "v1alpha2",
            "openshiftassistedconfigtemplates.bootstrap.cluster.x-k8s.io", "v1alpha2",
            "openshiftassistedcontrolplanes.controlplane.cluster.x-k8s.io", "v1alpha3",
            "openshiftassistedcontrolplanetemplates.controlplane.cluster.x-k8s.io", "v1alpha3");
    expected.forEach(
        (name, version) ->
            assertThat(
                    client
                        .apiextensions()
                        .v1()
                        .customResourceDefinitions()
                        .withName(name)
                        .get()
                        .getMetadata()
                        .getLabels())
                .as(name)
                .containsEntry("cluster.x-k8s.io/v1beta2", version));
  }
}
