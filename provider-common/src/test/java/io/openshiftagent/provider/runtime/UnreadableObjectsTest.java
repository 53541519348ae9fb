package io.openshiftagent.provider.runtime;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.core.type.TypeReference;
import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.DefaultKubernetesResourceList;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.WatchEvent;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import io.openshiftagent.api.bootstrap.v1alpha2.OpenshiftAssistedConfig;
import io.openshiftagent.api.controlplane.v1alpha3.OpenshiftAssistedControlPlane;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Test;

/**
 * The client's serialization skips what our model cannot read in lists and watch events, and says
 * which object and field, without the value; single reads still fail, and other kinds are as
 * fabric8 reads them.
 */
class UnreadableObjectsTest {
  private static final long TOO_LARGE = 1L << 40;
  private final List<UnreadableObjects.Skipped> skipped = new CopyOnWriteArrayList<>();
  private final KubernetesSerialization serialization =
      UnreadableObjects.serialization(UnreadableObjects.OURS, skipped::add);

  @Test
  void aListKeepsTheItemsItCanRead() {
    String list =
        """
        {"apiVersion": "controlplane.cluster.x-k8s.io/v1alpha3", "kind": "OpenshiftAssistedControlPlaneList",
         "metadata": {"resourceVersion": "42"},
         "items": [%s, %s, %s]}
        """
            .formatted(
                controlPlane("good", "{\"replicas\": 3}"),
                controlPlane(
                    "timeout",
                    "{\"machineTemplate\": {\"deletion\": {\"nodeDrainTimeoutSeconds\": "
                        + TOO_LARGE
                        + "}}}"),
                controlPlane("replicas", "{\"replicas\": " + TOO_LARGE + "}"));

    DefaultKubernetesResourceList<OpenshiftAssistedControlPlane> read =
        serialization.unmarshal(list, new TypeReference<>() {});

    assertThat(read.getItems())
        .extracting(cp -> cp.getMetadata().getName())
        .containsExactly("good");
    assertThat(read.getItems().get(0).getSpec().replicas).isEqualTo(3);
    assertThat(read.getMetadata().getResourceVersion()).isEqualTo("42");
    assertThat(skipped)
        .extracting(s -> s.object().getMetadata().getName(), UnreadableObjects.Skipped::problem)
        .containsExactly(
            org.assertj.core.groups.Tuple.tuple(
                "timeout",
                "spec.machineTemplate.deletion.nodeDrainTimeoutSeconds: not a valid 32-bit"
                    + " integer (-2147483648 to 2147483647)"),
            org.assertj.core.groups.Tuple.tuple(
                "replicas",
                "spec.replicas: not a valid 32-bit integer (-2147483648 to 2147483647)"));
    HasMetadata head = skipped.get(0).object();
    assertThat(head).isInstanceOf(OpenshiftAssistedControlPlane.class);
    assertThat(head.getMetadata().getNamespace()).isEqualTo("ns");
    assertThat(head.getMetadata().getUid()).isEqualTo("uid-timeout");
    assertThat(head.getMetadata().getResourceVersion()).isEqualTo("7");
  }

  @Test
  void anEnumValueTheModelDoesNotKnowIsNamedByItsField() {
    String list =
        """
        {"apiVersion": "bootstrap.cluster.x-k8s.io/v1alpha2", "kind": "OpenshiftAssistedConfigList",
         "metadata": {}, "items": [{"apiVersion": "bootstrap.cluster.x-k8s.io/v1alpha2",
         "kind": "OpenshiftAssistedConfig", "metadata": {"name": "c", "namespace": "ns"},
         "spec": {"kernelArguments": [{"operation": "append", "value": "a"},
                                      {"operation": "prepend", "value": "b"}]}}]}
        """;

    DefaultKubernetesResourceList<OpenshiftAssistedConfig> read =
        serialization.unmarshal(list, new TypeReference<>() {});

    assertThat(read.getItems()).isEmpty();
    assertThat(skipped)
        .singleElement()
        .extracting(UnreadableObjects.Skipped::problem)
        .isEqualTo("spec.kernelArguments[1].operation: not a valid value of Operation");
  }

  @Test
  void aWatchEventItCannotReadBecomesADeletionOfItsMetadata() {
    WatchEvent event =
        serialization.unmarshal(
            "{\"type\": \"MODIFIED\", \"object\": "
                + controlPlane("cp", "{\"replicas\": " + TOO_LARGE + "}")
                + "}",
            WatchEvent.class);

    assertThat(event.getType()).isEqualTo("DELETED");
    OpenshiftAssistedControlPlane head = (OpenshiftAssistedControlPlane) event.getObject();
    assertThat(head.getMetadata().getName()).isEqualTo("cp");
    assertThat(head.getMetadata().getResourceVersion()).isEqualTo("7");
    assertThat(head.getSpec()).isNull();
    assertThat(skipped)
        .singleElement()
        .extracting(s -> s.object().getMetadata().getName())
        .isEqualTo("cp");
  }

  @Test
  void whatCanBeReadIsReadAsBefore() {
    WatchEvent ours =
        serialization.unmarshal(
            "{\"type\": \"ADDED\", \"object\": " + controlPlane("cp", "{\"replicas\": 3}") + "}",
            WatchEvent.class);
    assertThat(ours.getType()).isEqualTo("ADDED");
    assertThat(((OpenshiftAssistedControlPlane) ours.getObject()).getSpec().replicas).isEqualTo(3);

    WatchEvent other =
        serialization.unmarshal(
            "{\"type\": \"ADDED\", \"object\": {\"apiVersion\": \"v1\", \"kind\": \"ConfigMap\","
                + " \"metadata\": {\"name\": \"m\"}, \"data\": {\"a\": \"b\"}}}",
            WatchEvent.class);
    assertThat(((ConfigMap) other.getObject()).getData()).containsEntry("a", "b");
    assertThat(skipped).isEmpty();
  }

  @Test
  void aSingleReadStillFails() {
    assertThatThrownBy(
            () ->
                serialization.unmarshal(
                    controlPlane("cp", "{\"replicas\": " + TOO_LARGE + "}"),
                    OpenshiftAssistedControlPlane.class))
        .isInstanceOf(KubernetesClientException.class);
    assertThat(skipped).isEmpty();
  }

  private static String controlPlane(String name, String spec) {
    return """
        {"apiVersion": "controlplane.cluster.x-k8s.io/v1alpha3", "kind": "OpenshiftAssistedControlPlane",
         "metadata": {"name": "%s", "namespace": "ns", "uid": "uid-%s", "resourceVersion": "7"},
         "spec": %s}
        """
        .formatted(name, name, spec);
  }
}
