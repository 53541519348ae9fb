package io.openshiftagent.provider.runtime;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.math.BigInteger;
import java.net.InetAddress;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.SecureRandom;
import java.security.Signature;
import java.security.cert.CertificateFactory;
import java.security.cert.X509Certificate;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.List;

/**
 * A self-signed serving certificate made in memory, as controller-runtime makes one when no
 * certificate is mounted: an RSA 2048 key (every TLS profile offers ECDHE-RSA suites), valid for a
 * year, for {@code localhost}, 127.0.0.1 and the names given. The JDK has no public API to write a
 * certificate, so this writes the few DER structures of one (RFC 5280) itself.
 */
record SelfSignedCertificate(KeyPair keys, X509Certificate certificate) {
  private static final Duration VALIDITY = Duration.ofDays(365);
  private static final byte[] SHA256_WITH_RSA =
      sequence(oid(1, 2, 840, 113549, 1, 1, 11), new byte[] {0x05, 0x00});
  private static final byte[] COMMON_NAME = oid(2, 5, 4, 3);
  private static final byte[] SUBJECT_ALT_NAME = oid(2, 5, 29, 17);

  static SelfSignedCertificate generate(String commonName, List<String> dnsNames) {
    try {
      KeyPairGenerator generator = KeyPairGenerator.getInstance("RSA");
      generator.initialize(2048);
      KeyPair keys = generator.generateKeyPair();
      Instant now = Instant.now();
      byte[] name = sequence(set(sequence(COMMON_NAME, tlv(0x0c, utf8(commonName)))));
      ByteArrayOutputStream altNames = new ByteArrayOutputStream();
      altNames.writeBytes(tlv(0x82, utf8("localhost")));
      for (String dns : dnsNames) {
        altNames.writeBytes(tlv(0x82, utf8(dns)));
      }
      altNames.writeBytes(tlv(0x87, InetAddress.getLoopbackAddress().getAddress()));
      byte[] extensions =
          tlv(
              0xa3,
              sequence(sequence(SUBJECT_ALT_NAME, tlv(0x04, tlv(0x30, altNames.toByteArray())))));
      byte[] tbs =
          sequence(
              tlv(0xa0, integer(BigInteger.TWO)),
              integer(new BigInteger(64, new SecureRandom()).setBit(63)),
              SHA256_WITH_RSA,
              name,
              sequence(time(now.minus(Duration.ofMinutes(5))), time(now.plus(VALIDITY))),
              name,
              keys.getPublic().getEncoded(),
              extensions);
      Signature signer = Signature.getInstance("SHA256withRSA");
      signer.initSign(keys.getPrivate());
      signer.update(tbs);
      byte[] signature = signer.sign();
      byte[] bitString = new byte[signature.length + 1];
      System.arraycopy(signature, 0, bitString, 1, signature.length);
      byte[] der = sequence(tbs, SHA256_WITH_RSA, tlv(0x03, bitString));
      X509Certificate certificate =
          (X509Certificate)
              CertificateFactory.getInstance("X.509")
                  .generateCertificate(new ByteArrayInputStream(der));
      certificate.verify(keys.getPublic());
      return new SelfSignedCertificate(keys, certificate);
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException("cannot make a self-signed certificate", e);
    }
  }

  private static byte[] time(Instant instant) {
    var utc = instant.atOffset(ZoneOffset.UTC);
    return utc.getYear() < 2050
        ? tlv(0x17, utf8(DateTimeFormatter.ofPattern("yyMMddHHmmss'Z'").format(utc)))
        : tlv(0x18, utf8(DateTimeFormatter.ofPattern("yyyyMMddHHmmss'Z'").format(utc)));
  }

  private static byte[] integer(BigInteger value) {
    return tlv(0x02, value.toByteArray());
  }

  private static byte[] oid(long... arcs) {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    out.write((int) (arcs[0] * 40 + arcs[1]));
    for (int i = 2; i < arcs.length; i++) {
      long arc = arcs[i];
      int groups = Math.max(1, (64 - Long.numberOfLeadingZeros(arc) + 6) / 7);
      for (int g = groups - 1; g >= 0; g--) {
        out.write((int) ((arc >> (7 * g)) & 0x7f) | (g > 0 ? 0x80 : 0));
      }
    }
    return tlv(0x06, out.toByteArray());
  }

  private static byte[] sequence(byte[]... parts) {
    return tlv(0x30, concat(parts));
  }

  private static byte[] set(byte[]... parts) {
    return tlv(0x31, concat(parts));
  }

  private static byte[] concat(byte[]... parts) {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    for (byte[] part : parts) {
      out.writeBytes(part);
    }
    return out.toByteArray();
  }

  /** A DER tag, its definite length and the content. */
  private static byte[] tlv(int tag, byte[] content) {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    out.write(tag);
    int length = content.length;
    if (length < 0x80) {
      out.write(length);
    } else {
      int bytes = (32 - Integer.numberOfLeadingZeros(length) + 7) / 8;
      out.write(0x80 | bytes);
      for (int i = bytes - 1; i >= 0; i--) {
        out.write((length >> (8 * i)) & 0xff);
      }
    }
    out.writeBytes(content);
    return out.toByteArray();
  }

  private static byte[] utf8(String text) {
    return text.getBytes(StandardCharsets.UTF_8);
  }
}
