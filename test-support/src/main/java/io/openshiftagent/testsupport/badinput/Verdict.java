package io.openshiftagent.testsupport.badinput;

/** What admission should do with a change. */
public enum Verdict {
  /** The API server must admit it. */
  ACCEPTED,
  /** The API server must refuse it, naming the field. */
  REJECTED,
  /** Nothing decides it (a number beyond every practical bound): either, handled as such. */
  EITHER;

  Verdict and(Verdict other) {
    if (this == REJECTED || other == REJECTED) {
      return REJECTED;
    }
    return this == EITHER || other == EITHER ? EITHER : ACCEPTED;
  }
}
