package io.openshiftagent.controlplane.machines;

import io.openshiftagent.api.controlplane.v1alpha3.OpenshiftAssistedControlPlane;
import io.openshiftagent.provider.reconcile.EventRecorder;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Warning Events for states that last many reconciles (a host held, a member that cannot be removed
 * yet): written when the note changes, not at every reconcile, so that a long wait costs one Event.
 * After a restart the first one is written again.
 */
final class WarningsOnChange {
  private final EventRecorder events;

  /** The last note, by control-plane UID and reason. */
  private final Map<String, String> last = new ConcurrentHashMap<>();

  WarningsOnChange(EventRecorder events) {
    this.events = events;
  }

  void warn(OpenshiftAssistedControlPlane cp, String reason, String action, String note) {
    String key = cp.getMetadata().getUid() + "/" + reason;
    if (!Objects.equals(last.put(key, note), note)) {
      events.warning(cp, reason, action, note);
    }
  }

  /** The state ended: its next Warning is written again. */
  void clear(OpenshiftAssistedControlPlane cp, String reason) {
    last.remove(cp.getMetadata().getUid() + "/" + reason);
  }
}
