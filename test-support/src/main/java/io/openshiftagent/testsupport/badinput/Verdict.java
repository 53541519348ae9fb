package io.openshiftagent.testsupport.badinput;

/** What admission should do with a change. */
public enum Verdict {
  /** The API server must admit it. */
  ACCEPTED,
  /** The API server must refuse it, naming the field. */
  REJECTED;

  Verdict and(Verdict other) {
    return this == REJECTED || other == REJECTED ? REJECTED : ACCEPTED;
  }
}
