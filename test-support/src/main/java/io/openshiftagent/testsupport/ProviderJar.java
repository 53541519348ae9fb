package io.openshiftagent.testsupport;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * One of our providers' runnable (shaded) jars, as {@code mvn package} builds them: in a reactor
 * build the provider modules are packaged before the test-only modules that start them.
 */
public enum ProviderJar {
  BOOTSTRAP("bootstrap-provider", "openshift-agent-bootstrap/"),
  CONTROLPLANE("controlplane-provider", "openshift-agent-controlplane/");

  private static final Pattern JAVA_TOOL_OPTIONS =
      Pattern.compile("<provider.java-tool-options>([^<]+)</provider.java-tool-options>");

  /** The module, the jar's base name and the command name its --help prints. */
  public final String command;

  /**
   * How its requests' user agent starts ({@code <prefix><version> (<identity>)}), as the API
   * server's audit log shows them.
   */
  public final String userAgentPrefix;

  ProviderJar(String command, String userAgentPrefix) {
    this.command = command;
    this.userAgentPrefix = userAgentPrefix;
  }

  /**
   * Where a run takes the jars from instead of the modules' {@code target/} (system property): a
   * copy that a build during a long run cannot replace under it.
   */
  public static final String JAR_DIRECTORY_PROPERTY = "openshift-agent.provider-jars";

  /** The jar; fails with what to run when it has not been built. */
  public Path path() {
    String directory = System.getProperty(JAR_DIRECTORY_PROPERTY, "");
    Path jar =
        directory.isBlank()
            ? TestPaths.repoRoot().resolve(command).resolve("target").resolve(command + ".jar")
            : Path.of(directory).resolve(command + ".jar");
    if (!Files.isRegularFile(jar)) {
      throw new IllegalStateException(
          jar
              + " is missing: build it with `mvn -B package -DskipTests -pl "
              + command
              + " -am` (mvn verify builds it before the tests that start it)");
    }
    return jar;
  }

  /**
   * The JVM options the provider's container image sets ({@code JAVA_TOOL_OPTIONS}): the root pom's
   * {@code provider.java-tool-options}, which Jib writes into both images.
   */
  public String imageJavaToolOptions() {
    Path pom = TestPaths.repoRoot().resolve("pom.xml");
    try {
      Matcher env = JAVA_TOOL_OPTIONS.matcher(Files.readString(pom));
      if (!env.find()) {
        throw new IllegalStateException(pom + " sets no provider.java-tool-options property");
      }
      return env.group(1).trim();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
