package io.openshiftagent.simulator;

import io.openshiftagent.testsupport.ProviderJar;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;

/** A provider's (first) process of a world, killed and restarted through the world. */
final class ProviderWorldProcess implements WorldProcess {
  private final World world;
  private final ProviderJar jar;

  ProviderWorldProcess(World world, ProviderJar jar) {
    this.world = world;
    this.jar = jar;
  }

  @Override
  public String name() {
    return jar.command;
  }

  @Override
  public void kill() throws InterruptedException {
    world.killProvider(jar);
  }

  @Override
  public Duration restart() throws IOException, InterruptedException {
    return world.restartProvider(jar);
  }

  @Override
  public void startWithoutWaiting() throws IOException {
    try {
      world.provider(jar).restart();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IOException("interrupted starting " + jar.command, e);
    }
  }

  @Override
  public boolean isAlive() {
    return world.provider(jar).isAlive();
  }

  @Override
  public long pid() {
    return world.provider(jar).pid();
  }

  @Override
  public Path log() {
    return world.provider(jar).log();
  }

  @Override
  public void close() {
    world.provider(jar).close();
  }
}
