package io.openshiftagent.controlplane.machines;

import io.openshiftagent.api.controlplane.v1alpha3.OpenshiftAssistedControlPlane;
import io.openshiftagent.provider.reconcile.EventRecorder;
import java.util.HashMap;
import java.util.Map;
import java.util.Objects;

/**
 * Warning Events for states that last many reconciles (a host held, a member that cannot be removed
 * yet): written when the note changes, not at every reconcile, so that a long wait costs one Event.
 * One reconcile's: it starts from the notes the last one left ({@link #notes}, by reason); after a
 * restart the first one is written again.
 */
final class WarningsOnChange {
  private final EventRecorder events;
  private final OpenshiftAssistedControlPlane cp;
  private final Map<String, String> notes;

  WarningsOnChange(
      EventRecorder events, OpenshiftAssistedControlPlane cp, Map<String, String> notes) {
    this.events = events;
    this.cp = cp;
    this.notes = new HashMap<>(notes);
  }

  void warn(String reason, String action, String note) {
    if (!Objects.equals(notes.put(reason, note), note)) {
      events.warning(cp, reason, action, note);
    }
  }

  /** The state ended: its next Warning is written again. */
  void clear(String reason) {
    notes.remove(reason);
  }

  /** The last note of each state that lasts, for the next reconcile. */
  Map<String, String> notes() {
    return Map.copyOf(notes);
  }
}
