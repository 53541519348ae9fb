package io.openshiftagent.simulator.assisted;

import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;

/**
 * One simulated L2 network with its DNS, as a lab gives a set of machines: a /24 with a gateway at
 * .1, addresses handed out from .10 on (as a DHCP server would), and the A records the
 * administrator created (exact names, or {@code *.<domain>} wildcards). Discovery agents answer
 * their checks from it: who is reachable, what resolves to what, whether an address is free.
 * Thread-safe.
 */
public final class NetworkSegment {
  private static final int FIRST_HOST = 10;
  private static final int LAST_HOST = 250;

  private final String prefix;
  private final Map<String, Machine> machines = new ConcurrentHashMap<>();
  private final Map<String, String> leases = new ConcurrentHashMap<>();
  private final Map<String, List<String>> records = new ConcurrentHashMap<>();
  private volatile boolean servesNtp = true;

  /**
   * @param network the segment's /24, e.g. {@code 192.168.222.0/24}
   */
  public NetworkSegment(String network) {
    if (!network.endsWith(".0/24")) {
      throw new IllegalArgumentException("a /24 network ending in .0 expected: " + network);
    }
    this.prefix = network.substring(0, network.length() - "0/24".length());
  }

  public String gateway() {
    return prefix + "1";
  }

  /** Whether the gateway answers NTP: the machines' clocks follow it only then. */
  public boolean servesNtp() {
    return servesNtp;
  }

  /** Starts or stops the gateway's NTP service (a fault tests inject). */
  public void serveNtp(boolean serve) {
    servesNtp = serve;
  }

  public String cidr() {
    return prefix + "0/24";
  }

  /**
   * The address leased to {@code mac} (with prefix length): the same one for the same MAC, a free
   * one from .10 on for a new MAC.
   */
  public synchronized String lease(String mac) {
    String leased = leases.get(mac);
    if (leased != null) {
      return leased;
    }
    for (int host = FIRST_HOST; host <= LAST_HOST; host++) {
      String ip = prefix + host;
      if (!leases.containsValue(ip + "/24") && resolvesNowhere(ip)) {
        leases.put(mac, ip + "/24");
        return ip + "/24";
      }
    }
    throw new IllegalStateException("no free address left in " + cidr());
  }

  private boolean resolvesNowhere(String ip) {
    return records.values().stream().noneMatch(ips -> ips.contains(ip));
  }

  /** Whether {@code ip} is an address a DNS record names (a cluster's VIP, or a single node). */
  public boolean isNamed(String ip) {
    return !resolvesNowhere(stripPrefix(ip));
  }

  /** The machine is up on this segment (its NIC answers). */
  public void attach(Machine machine) {
    machines.put(machine.ip(), machine);
  }

  /** The machine is off (or gone). */
  public void detach(Machine machine) {
    machines.remove(machine.ip(), machine);
  }

  /** The machine up at {@code ip}, if any. */
  public Optional<Machine> at(String ip) {
    return Optional.ofNullable(machines.get(stripPrefix(ip)));
  }

  /** Whether anything answers at {@code ip}: a machine or the gateway. */
  public boolean inUse(String ip) {
    String address = stripPrefix(ip);
    return address.equals(gateway()) || machines.containsKey(address);
  }

  /** An A record: {@code name} (or {@code *.domain}) resolves to {@code ipv4}. */
  public void record(String name, String... ipv4) {
    records.put(name, List.of(ipv4));
  }

  public void removeRecord(String name) {
    records.remove(name);
  }

  /** The IPv4 addresses {@code name} resolves to; empty when there is no record. */
  public List<String> resolve(String name) {
    String fqdn = name.endsWith(".") ? name.substring(0, name.length() - 1) : name;
    List<String> exact = records.get(fqdn);
    if (exact != null) {
      return exact;
    }
    int dot = fqdn.indexOf('.');
    return dot < 0 ? List.of() : records.getOrDefault("*" + fqdn.substring(dot), List.of());
  }

  public static String stripPrefix(String ip) {
    int slash = ip.indexOf('/');
    return slash < 0 ? ip : ip.substring(0, slash);
  }
}
