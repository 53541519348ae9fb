package io.openshiftagent.simulator.assisted;

import static org.assertj.core.api.Assertions.assertThat;

import io.openshiftagent.simulator.ChildJvm;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The world's PostgreSQL started from a checkout in a private folder (mode 0700, as root's home
 * is): the JVM's working directory and the world's directory are in it, out of reach of the {@code
 * postgres} user the server runs as when the JVM is root. The server starts and creates the
 * service's database in a directory of its own outside the checkout, owned by the user it runs as,
 * and that directory is gone once it is closed. A session left in an open transaction is among the
 * server's {@link Postgres#stuckSessions}.
 */
class PostgresInAPrivateCheckoutTest {
  @TempDir Path temporary;

  @Test
  void theServerStartsFromAPrivateCheckoutAndLeavesNothingBehind() throws Exception {
    Path checkout =
        Files.createDirectory(
            temporary.resolve("checkout"),
            PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwx------")));
    Path module = Files.createDirectories(checkout.resolve("simulator"));
    Path output = temporary.resolve("output.txt");

    Process jvm =
        ChildJvm.start(
            StartAndClose.class,
            module,
            output,
            List.of(),
            "target/world/assisted-service/postgres");
    assertThat(jvm.waitFor(2, TimeUnit.MINUTES)).as("the JVM ended").isTrue();
    List<String> lines = Files.readAllLines(output);
    System.out.println(String.join("\n", lines));

    assertThat(jvm.exitValue()).as("exit code; output:\n%s", String.join("\n", lines)).isZero();
    Path home = Path.of(value(lines, "home "));
    assertThat(home.startsWith(checkout)).as("%s outside the checkout", home).isFalse();
    String runsAs = System.getProperty("user.name").equals("root") ? "postgres" : null;
    if (runsAs != null) {
      assertThat(value(lines, "owner ")).isEqualTo(runsAs);
    }
    assertThat(value(lines, "database ")).isEqualTo(Postgres.DATABASE);
    assertThat(value(lines, "stuck "))
        .as("the session left in a transaction, as the service's stuck sessions show it")
        .contains("idle in transaction")
        .contains("SELECT 1");
    assertThat(home).as("removed when closed").doesNotExist();
    assertThat(module.resolve("target/world/assisted-service/postgres/postgres.log"))
        .as("the server's log, in the world's directory")
        .isNotEmptyFile();
  }

  private static String value(List<String> lines, String prefix) {
    return lines.stream()
        .filter(l -> l.startsWith(prefix))
        .map(l -> l.substring(prefix.length()))
        .findFirst()
        .orElseThrow(() -> new AssertionError("no line " + prefix + "in " + lines));
  }

  /** Starts the world's PostgreSQL in the directory given, says where it lives, closes it. */
  static final class StartAndClose {
    public static void main(String[] args) throws Exception {
      try (Postgres postgres = Postgres.start(Path.of(args[0]).toAbsolutePath())) {
        System.out.println("home " + postgres.home());
        System.out.println("owner " + Files.getOwner(postgres.home()).getName());
        Process list =
            postgres
                .psql(
                    "--tuples-only",
                    "--no-align",
                    "--command=SELECT datname FROM pg_database WHERE datname = '"
                        + Postgres.DATABASE
                        + "'")
                .redirectErrorStream(true)
                .start();
        String database = new String(list.getInputStream().readAllBytes()).trim();
        list.waitFor();
        System.out.println("database " + database);

        // A session left in an open transaction, as a stuck client leaves one.
        Process open =
            postgres
                .psql()
                .redirectErrorStream(true)
                .redirectOutput(ProcessBuilder.Redirect.DISCARD)
                .start();
        open.getOutputStream().write("BEGIN;\nSELECT 1;\n".getBytes());
        open.getOutputStream().flush();
        List<String> stuck = List.of();
        for (int i = 0; i < 100 && stuck.isEmpty(); i++) {
          Thread.sleep(100);
          stuck = postgres.stuckSessions();
        }
        stuck.forEach(l -> System.out.println("stuck " + l));
        open.destroy();
      }
    }
  }
}
