package io.openshiftagent.testsupport.badinput;

import java.util.List;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;

/**
 * Raw values for the generators: text in code points (what the API server's length limits count),
 * IP addresses, CIDRs, OpenShift versions and JSON documents, good and bad.
 */
final class Values {
  /** Code points from scripts, planes and classes that break naive string handling. */
  static final List<Integer> ODD_CODE_POINTS =
      List.of(
          0xE9, // é
          0xDF, // ß
          0x3A9, // Ω
          0x436, // ж
          0x5E9, // ש (right to left)
          0x639, // ع
          0x4E2D, // 中
          0x65E5, // 日
          0x1F600, // 😀 (outside the BMP: two Java chars)
          0x1F9D1, // 🧑
          0x200B, // zero-width space
          0x301, // combining acute accent
          0xFEFF, // byte-order mark
          0xFFFD, // replacement character
          0x10FFFF, // the last code point (a non-character)
          0x0, // NUL
          0x7, // bell
          0xA, // newline
          0x9, // tab
          0x22, // "
          0x5C, // backslash
          0x24, // $
          0x60, // `
          0x27, // '
          0x3B, // ;
          0x7C, // |
          0x3C); // <

  private Values() {}

  /** Text of {@code min} to {@code max} code points: mostly ASCII, some odd code points. */
  static Arbitrary<String> text(int min, int max) {
    Arbitrary<Integer> ascii = Arbitraries.integers().between(0x20, 0x7E);
    Arbitrary<Integer> odd = Arbitraries.of(ODD_CODE_POINTS);
    return Arbitraries.frequencyOf(net.jqwik.api.Tuple.of(4, ascii), net.jqwik.api.Tuple.of(1, odd))
        .list()
        .ofMinSize(min)
        .ofMaxSize(max)
        .map(Values::fromCodePoints);
  }

  /** Text of exactly {@code length} code points, a short random seed repeated (cheap when huge). */
  static Arbitrary<String> textOfLength(int length) {
    return text(1, 8).map(seed -> repeatToLength(seed, length));
  }

  /**
   * Text of exactly {@code length} code points, none of them ASCII: up to four bytes each, so it
   * tests what a bound in characters means in bytes.
   */
  static Arbitrary<String> wideTextOfLength(int length) {
    return Arbitraries.of(0xE9, 0x4E2D, 0x1F600, 0x5E9)
        .list()
        .ofMinSize(1)
        .ofMaxSize(4)
        .map(cps -> repeatToLength(fromCodePoints(cps), length));
  }

  static String repeatToLength(String seed, int length) {
    int[] cps = seed.codePoints().toArray();
    StringBuilder s = new StringBuilder();
    for (int i = 0; i < length; i++) {
      s.appendCodePoint(cps[i % cps.length]);
    }
    return s.toString();
  }

  static int length(String s) {
    return s.codePointCount(0, s.length());
  }

  static String fromCodePoints(List<Integer> codePoints) {
    StringBuilder s = new StringBuilder();
    codePoints.forEach(s::appendCodePoint);
    return s.toString();
  }

  /** A DNS-label-like name of lower-case letters and digits. */
  static Arbitrary<String> dnsLabel(int min, int max) {
    return Arbitraries.strings()
        .withCharRange('a', 'z')
        .numeric()
        .ofMinLength(min)
        .ofMaxLength(max)
        .filter(s -> Character.isLetterOrDigit(s.charAt(0)));
  }

  static Arbitrary<String> ipv4() {
    return Arbitraries.integers()
        .between(0, 255)
        .list()
        .ofSize(4)
        .map(parts -> parts.stream().map(String::valueOf).collect(Collectors.joining(".")));
  }

  static Arbitrary<String> ipv6() {
    Arbitrary<String> full =
        Arbitraries.integers()
            .between(0, 0xFFFF)
            .list()
            .ofSize(8)
            .filter(groups -> !groups.subList(0, 6).equals(List.of(0, 0, 0, 0, 0, 0xFFFF)))
            .map(
                groups ->
                    groups.stream().map(Integer::toHexString).collect(Collectors.joining(":")));
    return Arbitraries.oneOf(full, Arbitraries.of("fd00::1", "::1", "2001:db8::10", "fe80::1"));
  }

  /** Strings that are not IP addresses, each in a different way. */
  static Arbitrary<String> notAnIp() {
    return Arbitraries.oneOf(
        Arbitraries.of(
            "300.1.1.1",
            "10.0.0",
            "10.0.0.1/24",
            "010.0.0.1",
            "10.0.0.1 ",
            "",
            "api.example.com",
            "\uFF11\uFF10.0.0.1", // full-width digits
            "10.0.0.-1",
            ":::1",
            "fe80::1%eth0",
            "::ffff:10.0.0.1"), // IPv4-mapped IPv6
        text(1, 20).filter(s -> !s.matches("[0-9a-fA-F:.]+")));
  }

  static Arbitrary<String> cidr() {
    Arbitrary<String> v4 =
        Combinators.combine(ipv4(), Arbitraries.integers().between(0, 32))
            .as((ip, prefix) -> ip + "/" + prefix);
    Arbitrary<String> v6 =
        Combinators.combine(ipv6(), Arbitraries.integers().between(0, 128))
            .as((ip, prefix) -> ip + "/" + prefix);
    return Arbitraries.oneOf(v4, v6);
  }

  static Arbitrary<String> notACidr() {
    return Arbitraries.oneOf(
        Arbitraries.of(
            "10.0.0.0",
            "10.0.0.0/33",
            "fd00::/129",
            "10.0.0.0/-1",
            "10.0.0.0/24 ",
            "10.0.0.0/024",
            "300.0.0.0/8",
            "10.0.0.0/",
            "/24",
            "",
            "fd00::/64/1"),
        ipv4(),
        text(1, 20).filter(s -> !s.contains("/")));
  }

  /** OpenShift versions the control plane must accept: 4.14 or later, X.Y.Z[-pre][+build]. */
  static Arbitrary<String> goodVersion() {
    Arbitrary<String> generated =
        Combinators.combine(
                Arbitraries.integers().between(14, 40), Arbitraries.integers().between(0, 200))
            .as((minor, patch) -> "4." + minor + "." + patch);
    return Arbitraries.oneOf(
        generated,
        Arbitraries.of(
            "4.14.0",
            "4.20.0-ec.1",
            "4.19.0-okd-scos.ec.6",
            "4.19.0-okd-scos.1",
            "4.20.3+build.7",
            "5.0.0",
            "4.99.99"));
  }

  /** Strings the control plane must refuse as distributionVersion. */
  static Arbitrary<String> badVersion() {
    return Arbitraries.oneOf(
        Arbitraries.of(
            "4.13.9",
            "4.13.999",
            "3.11.0",
            "latest",
            "4.20",
            "4",
            "v4.20.0",
            "4.20.0 ",
            " 4.20.0",
            "4.020.0",
            "04.20.0",
            "4.20.0-",
            "4.20.0-ec..1",
            "\uFF14.\uFF12\uFF10.\uFF10", // full-width digits
            "4.20.0\u200B",
            "4.99999999999999999999.0", // beyond 64 bits
            ""),
        text(1, 30).filter(s -> !s.matches("[0-9.+-]+")),
        textOfLength(65));
  }

  static Arbitrary<String> jsonObject() {
    return Arbitraries.oneOf(
        Arbitraries.of(
            "{}",
            "{\"ignition\":{\"version\":\"3.2.0\"}}",
            "{\"fips\":true}",
            "{\"networking\":{\"networkType\":\"OVNKubernetes\"}}",
            "{\"storage\":{\"files\":[{\"path\":\"/etc/motd\",\"contents\":{\"source\":\"data:,hi\"}}]}}",
            "{\"ignition\":\"not an object\",\"storage\":[],\"systemd\":{\"units\":\"x\"}}"),
        text(0, 30).map(s -> "{\"k\":" + quoted(s) + "}"),
        Arbitraries.integers()
            .between(1, 4000)
            .map(n -> "{\"big\":\"" + "x".repeat(n * 25) + "\"}")); // up to 100 KB
  }

  static Arbitrary<String> notAJsonObject() {
    return Arbitraries.oneOf(
        Arbitraries.of(
            "{",
            "}",
            "[]",
            "[{\"a\":1}]",
            "null",
            "42",
            "\"text\"",
            "",
            " ",
            "{\"a\":1}{\"b\":2}",
            "{'single':'quotes'}",
            "{\"a\":01}",
            "{\"a\":NaN}",
            "{\"a\":\"\\uD800\"}",
            "{\"a\":1,}",
            "\uFEFF{}"),
        text(1, 40).filter(s -> !s.trim().startsWith("{")),
        Arbitraries.integers().between(1, 200).map(n -> "{".repeat(n * 10))); // deep nesting
  }

  static String quoted(String s) {
    StringBuilder out = new StringBuilder("\"");
    s.codePoints()
        .forEach(
            cp -> {
              if (cp == '"' || cp == '\\') {
                out.append('\\').appendCodePoint(cp);
              } else if (cp < 0x20) {
                out.append(String.format("\\u%04x", cp));
              } else {
                out.appendCodePoint(cp);
              }
            });
    return out.append('"').toString();
  }

  /** A list of {@code count} copies drawn from {@code items}. */
  static <T> Arbitrary<List<T>> listOf(Arbitrary<T> items, int count) {
    return items.list().ofSize(count);
  }

  static List<Integer> range(int from, int to) {
    return IntStream.rangeClosed(from, to).boxed().toList();
  }
}
