package io.openshiftagent.provider.runtime;

import io.javaoperatorsdk.operator.RegisteredController;
import io.javaoperatorsdk.operator.RuntimeInfo;
import io.javaoperatorsdk.operator.health.InformerHealthIndicator;
import io.javaoperatorsdk.operator.health.InformerWrappingEventSourceHealthIndicator;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;

/**
 * What {@code /readyz} answers for a leading provider: ready once started, every event source
 * healthy and every informer watching. java-operator-sdk 5.3 counts an informer healthy while it
 * runs and has synced, even when its watch is down and it only retries; a provider that cannot
 * watch misses changes, so it is not ready then.
 */
final class Readiness {
  private Readiness() {}

  static ProbeServer.Response of(RuntimeInfo info) {
    if (!info.isStarted()) {
      return ProbeServer.Response.unavailable("starting");
    }
    if (!info.allEventSourcesAreHealthy()) {
      return ProbeServer.Response.unavailable(
          "unhealthy event sources: " + info.unhealthyEventSources().keySet());
    }
    List<String> notWatching = notWatching(info);
    return notWatching.isEmpty()
        ? ProbeServer.Response.ok("ok")
        : ProbeServer.Response.unavailable("informers not watching: " + notWatching);
  }

  private static List<String> notWatching(RuntimeInfo info) {
    List<String> names = new ArrayList<>();
    for (RegisteredController<?> controller : info.getRegisteredControllers()) {
      String controllerName = controller.getConfiguration().getName();
      Map<String, InformerWrappingEventSourceHealthIndicator> sources =
          controller.getControllerHealthInfo().informerEventSourceHealthIndicators();
      for (var source : sources.entrySet()) {
        Map<String, InformerHealthIndicator> informers =
            source.getValue().informerHealthIndicators();
        for (var informer : informers.entrySet()) {
          if (informer.getValue().isRunning() && !informer.getValue().isWatching()) {
            names.add(controllerName + "/" + source.getKey() + "@" + informer.getKey());
          }
        }
      }
    }
    Collections.sort(names);
    return names;
  }
}
