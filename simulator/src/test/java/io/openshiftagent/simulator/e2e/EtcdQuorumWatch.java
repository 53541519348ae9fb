package io.openshiftagent.simulator.e2e;

import com.fasterxml.jackson.databind.JsonNode;
import io.fabric8.kubernetes.client.utils.Serialization;
import io.openshiftagent.simulator.World;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Asks an installed cluster's real etcd, every second while a step runs, whether it still has
 * quorum: a write ({@code etcdctl put}) through the members that run, which etcd commits only with
 * a majority of its members. Two refused or timed-out writes in a row are a lapse, with etcd's
 * words: one alone may be the election of a new leader (about a second) after the leader's host
 * went away, which a cluster with quorum gets through; etcd without quorum refuses every write.
 * Single refusals are kept too ({@link #blips}).
 */
final class EtcdQuorumWatch implements AutoCloseable {
  private final World world;
  private final String namespace;
  private final String clusterInstall;
  private final List<String> lapses = new CopyOnWriteArrayList<>();
  private final List<String> blips = new CopyOnWriteArrayList<>();
  private final AtomicInteger writes = new AtomicInteger();
  private final AtomicBoolean running = new AtomicBoolean(true);
  private final Thread writer;

  EtcdQuorumWatch(World world, String namespace, String clusterInstall) {
    this.world = world;
    this.namespace = namespace;
    this.clusterInstall = clusterInstall;
    writer = new Thread(this::write, "etcd-quorum-watch");
    writer.setDaemon(true);
    writer.start();
  }

  private void write() {
    String refused = null;
    while (running.get()) {
      try {
        world.etcdctl(
            namespace,
            clusterInstall,
            "put",
            "openshift-agent-test/quorum",
            Instant.now().toString());
        writes.incrementAndGet();
        refused = null;
      } catch (RuntimeException e) {
        if (running.get()) {
          String now = Instant.now() + ": " + e.getMessage();
          blips.add(now);
          if (refused != null) {
            lapses.add(refused + "\nthen " + now);
          }
          refused = now;
        }
      }
      try {
        Thread.sleep(1000);
      } catch (InterruptedException e) {
        return;
      }
    }
  }

  /** The writes etcd refused, with when and why. */
  List<String> lapses() {
    return new ArrayList<>(lapses);
  }

  /** Every write etcd refused, with when and why. */
  List<String> blips() {
    return new ArrayList<>(blips);
  }

  /** How many writes etcd committed. */
  int writes() {
    return writes.get();
  }

  /** The members' IDs by name (hexadecimal, as etcdctl prints them), from etcd's member list. */
  static Map<String, String> memberIds(World world, String namespace, String clusterInstall) {
    JsonNode list =
        Serialization.unmarshal(
            world.etcdctl(namespace, clusterInstall, "member", "list", "-w", "json"),
            JsonNode.class);
    Map<String, String> ids = new LinkedHashMap<>();
    for (JsonNode member : list.path("members")) {
      ids.put(member.path("name").asText(""), member.path("ID").bigIntegerValue().toString(16));
    }
    return ids;
  }

  @Override
  public void close() {
    running.set(false);
    writer.interrupt();
    try {
      writer.join();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
