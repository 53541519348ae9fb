package io.openshiftagent.provider.runtime;

import static org.assertj.core.api.Assertions.assertThat;

import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import io.fabric8.kubernetes.api.model.SecretBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.openshiftagent.testsupport.KubeApiServerEnvironment;
import io.openshiftagent.testsupport.SecretScanner;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;
import org.junit.jupiter.api.Test;
import org.slf4j.LoggerFactory;

class LoggingTest {
  private static final String PULL_SECRET =
      "{\"auths\":{\"quay.io\":{\"auth\":\"c2VjcmV0OnZhbHVl\"}}}";

  /** Found by DiskImageOverHttpsTest's scan: at TRACE the client logged Secret bodies. */
  @Test
  void atTraceTheKubernetesClientLogsItsRequestsButNotTheirBodies() {
    KubeApiServerEnvironment env = KubeApiServerEnvironment.shared();
    String ns = env.createNamespace("logging");
    List<ILoggingEvent> logged =
        logged(
            "TRACE",
            client -> {
              client
                  .resource(
                      new SecretBuilder()
                          .withNewMetadata()
                          .withName("pull-secret")
                          .withNamespace(ns)
                          .endMetadata()
                          .addToStringData(".dockerconfigjson", PULL_SECRET)
                          .build())
                  .create();
              client.secrets().inNamespace(ns).withName("pull-secret").get();
            });

    assertThat(logged)
        .as("the capture sees the client's own debug lines")
        .anyMatch(
            e ->
                e.getLoggerName().startsWith("io.fabric8")
                    && e.getLevel() == ch.qos.logback.classic.Level.DEBUG);
    SecretScanner.assertNone(
        new SecretScanner(Map.of("pull secret", PULL_SECRET))
            .scanLines("log", logged.stream().map(ILoggingEvent::getFormattedMessage).toList()));
  }

  /** A provider's log at INFO held hundreds of these per installation, one per informer. */
  @Test
  void betaApisAreNotWarnedAboutUnlessDebugging() {
    String ns = KubeApiServerEnvironment.shared().createNamespace("logging");
    Consumer<KubernetesClient> listAgents =
        client ->
            client
                .genericKubernetesResources("agent-install.openshift.io/v1beta1", "Agent")
                .inNamespace(ns)
                .list();
    assertThat(unstableApiWarnings(logged("DEBUG", listAgents))).as("at DEBUG").isNotEmpty();
    assertThat(unstableApiWarnings(logged("INFO", listAgents))).as("at INFO").isEmpty();
  }

  private static List<String> unstableApiWarnings(List<ILoggingEvent> logged) {
    return logged.stream()
        .filter(e -> e.getLoggerName().equals(Logging.UNSTABLE_API_WARNINGS))
        .map(ILoggingEvent::getFormattedMessage)
        .toList();
  }

  /** What is logged while {@code action} uses a client, logging configured at {@code level}. */
  private static List<ILoggingEvent> logged(String level, Consumer<KubernetesClient> action) {
    Logging.configure(level, ProviderOptions.LogFormat.TEXT);
    Logger root = (Logger) LoggerFactory.getLogger(Logger.ROOT_LOGGER_NAME);
    ListAppender<ILoggingEvent> captured = new ListAppender<>();
    captured.start();
    root.addAppender(captured);
    try (KubernetesClient client = KubeApiServerEnvironment.shared().newClient()) {
      action.accept(client);
    } finally {
      root.detachAppender(captured);
      Logging.configure("INFO", ProviderOptions.LogFormat.TEXT); // for the tests after this one
    }
    return captured.list;
  }
}
