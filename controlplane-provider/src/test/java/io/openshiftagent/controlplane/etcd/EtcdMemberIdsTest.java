package io.openshiftagent.controlplane.etcd;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.io.InputStream;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * Reading a member's ID from {@code etcdctl member list -w json}, against the real output of etcd
 * 3.6.14 (the version the test world runs): {@code etcd/member-list.json} and, from the same
 * cluster at the same moment, the table {@code etcd/member-list.txt} ({@code etcdctl member list},
 * whose first column is the ID as {@code etcdctl member remove} takes it). The cluster had three
 * started members and one added but not started; two IDs are above 2^63 and one prints with fewer
 * than 16 hexadecimal digits.
 */
class EtcdMemberIdsTest {
  private static final String JSON = resource("etcd/member-list.json");
  private static final String TABLE = resource("etcd/member-list.txt");

  @Test
  void theFixtureHoldsIdsAboveTwoToTheSixtyThirdAndAShortHexOne() {
    Matcher ids = Pattern.compile("\"ID\":(\\d+)").matcher(JSON);
    List<BigInteger> all = ids.results().map(r -> new BigInteger(r.group(1))).toList();
    assertThat(all).anyMatch(id -> id.compareTo(BigInteger.valueOf(Long.MAX_VALUE)) > 0);
    assertThat(TABLE.lines().map(l -> l.split(", ")[0])).anyMatch(hex -> hex.length() < 16);
  }

  @Test
  void eachStartedMembersIdIsTheOneEtcdctlPrints() {
    List<String[]> rows = TABLE.lines().map(l -> l.split(", ", -1)).toList();
    int started = 0;
    for (String[] row : rows) {
      String hex = row[0];
      String name = row[2];
      if (!name.isEmpty()) {
        assertThat(EtcdMembers.idOf(JSON, name)).as(name).contains(hex);
        started++;
      }
    }
    assertThat(started).isEqualTo(3);
  }

  @Test
  void anUnstartedMemberHasNoNameAndIsNeverTheOneAskedFor() {
    assertThat(TABLE).contains("unstarted, , ");
    assertThat(EtcdMembers.idOf(JSON, "")).isEmpty();
    assertThat(EtcdMembers.idOf(JSON, "master-3")).isEmpty();
  }

  @Test
  void anIdOutsideSixtyFourBitsIsRefusedRatherThanRemovedWrongly() {
    String json = "{\"members\":[{\"ID\":18446744073709551616,\"name\":\"master-0\"}]}";
    assertThatThrownBy(() -> EtcdMembers.idOf(json, "master-0")).hasMessageContaining("master-0");
  }

  private static String resource(String name) {
    try (InputStream in = EtcdMemberIdsTest.class.getClassLoader().getResourceAsStream(name)) {
      return new String(in.readAllBytes(), StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new IllegalStateException(e);
    }
  }
}
