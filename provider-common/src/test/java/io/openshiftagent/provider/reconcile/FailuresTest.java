package io.openshiftagent.provider.reconcile;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.client.KubernetesClientException;
import java.io.IOException;
import java.net.ConnectException;
import org.junit.jupiter.api.Test;

class FailuresTest {
  @Test
  void theRootCauseIsAddedWhenTheMessageHidesIt() {
    KubernetesClientException hidden =
        new KubernetesClientException(
            "Operation: [list]  for kind: [Node]  with name: [null]  in namespace: [default]"
                + "  failed.",
            new IOException("request failed", new ConnectException("Connection refused")));
    assertThat(Failures.describe(hidden))
        .isEqualTo(
            "Operation: [list]  for kind: [Node]  with name: [null]  in namespace: [default]"
                + "  failed. (Connection refused)");
  }

  @Test
  void aMessageThatSaysItAllOrHasNoCauseIsKept() {
    assertThat(Failures.describe(new IllegalStateException("no etcd pod")))
        .isEqualTo("no etcd pod");
    assertThat(
            Failures.describe(
                new IOException(
                    "connect: Connection refused", new ConnectException("Connection refused"))))
        .isEqualTo("connect: Connection refused");
    assertThat(Failures.describe(new IOException("failed", new ConnectException())))
        .isEqualTo("failed");
  }
}
