package io.openshiftagent.controlplane.cluster;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.LocalObjectReference;
import io.openshiftagent.api.external.hive.ClusterDeploymentSpec;
import io.openshiftagent.api.external.hive.ClusterDeploymentSpec.ClusterInstallLocalReference;
import org.junit.jupiter.api.Test;

class ClusterDeploymentChangesTest {
  private static final ClusterInstallLocalReference INSTALL =
      new ClusterInstallLocalReference(
          "extensions.hive.openshift.io", "v1beta1", "AgentClusterInstall", "cp");

  private static ClusterDeploymentSpec current() {
    ClusterDeploymentSpec spec = new ClusterDeploymentSpec();
    spec.clusterName = "ocp1";
    spec.baseDomain = "a.example.com";
    spec.pullSecretRef = new LocalObjectReference("pull-secret");
    spec.clusterInstallRef =
        new ClusterInstallLocalReference(
            "extensions.hive.openshift.io", "v1beta1", "AgentClusterInstall", "cp");
    return spec;
  }

  @Test
  void aClusterDeploymentAsTheSpecSaysNeedsNothing() {
    var changes =
        ClusterDeploymentChanges.of(
            current(),
            new ClusterDeploymentChanges.Desired("ocp1", "a.example.com", "pull-secret", INSTALL));
    assertThat(changes.patch().isEmpty()).isTrue();
    assertThat(changes.differences()).isEmpty();
  }

  @Test
  void eachDifferenceIsPatchedAndNamedAsTheUserWroteIt() {
    var changes =
        ClusterDeploymentChanges.of(
            current(),
            new ClusterDeploymentChanges.Desired("ocp2", "b.example.com", "other", INSTALL));
    assertThat(changes.patch().toJson())
        .isEqualTo(
            "{\"spec\":{\"clusterName\":\"ocp2\",\"baseDomain\":\"b.example.com\","
                + "\"pullSecretRef\":{\"name\":\"other\"}}}");
    assertThat(changes.differences())
        .containsExactly(
            "spec.config.clusterName is ocp2, the ClusterDeployment has ocp1",
            "spec.config.baseDomain is b.example.com, the ClusterDeployment has a.example.com",
            "spec.config.pullSecretRef.name is other, the ClusterDeployment has pull-secret");
  }

  @Test
  void aWrongInstallReferenceIsOursToFixAndNoDifferenceOfTheUsers() {
    ClusterDeploymentSpec spec = current();
    spec.clusterInstallRef = null;
    var changes =
        ClusterDeploymentChanges.of(
            spec,
            new ClusterDeploymentChanges.Desired("ocp1", "a.example.com", "pull-secret", INSTALL));
    assertThat(changes.patch().toJson()).contains("\"clusterInstallRef\"", "AgentClusterInstall");
    assertThat(changes.differences()).isEmpty();
  }
}
