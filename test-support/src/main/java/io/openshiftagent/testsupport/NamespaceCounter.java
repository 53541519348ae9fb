package io.openshiftagent.testsupport;

import java.util.concurrent.atomic.AtomicInteger;

/** Numbers the namespaces tests create, unique in the JVM. */
final class NamespaceCounter {
  static final AtomicInteger NEXT = new AtomicInteger();

  private NamespaceCounter() {}
}
