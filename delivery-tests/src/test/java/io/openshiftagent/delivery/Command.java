package io.openshiftagent.delivery;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;

/** Runs a real command line to its end and keeps what it printed. */
record Command(int exitCode, String stdout, String stderr) {

  static Command run(Duration timeout, List<String> command) {
    return run(timeout, null, command);
  }

  /** Runs {@code command}, feeding it {@code stdin} when not null. */
  static Command run(Duration timeout, String stdin, List<String> command) {
    try {
      Path out = Files.createTempFile("cmd", ".out");
      Path err = Files.createTempFile("cmd", ".err");
      ProcessBuilder builder =
          new ProcessBuilder(command).redirectOutput(out.toFile()).redirectError(err.toFile());
      if (stdin == null) {
        builder.redirectInput(ProcessBuilder.Redirect.from(Path.of("/dev/null").toFile()));
      }
      Process process = builder.start();
      if (stdin != null) {
        try (var in = process.getOutputStream()) {
          in.write(stdin.getBytes(StandardCharsets.UTF_8));
        }
      }
      if (!process.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS)) {
        process.destroyForcibly();
        throw new AssertionError(command + " did not finish within " + timeout);
      }
      Command result =
          new Command(process.exitValue(), Files.readString(out), Files.readString(err));
      Files.delete(out);
      Files.delete(err);
      return result;
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new AssertionError(e);
    }
  }

  /** Fails with everything the command printed unless it exited 0. */
  Command succeeded() {
    if (exitCode != 0) {
      throw new AssertionError(
          "exit code " + exitCode + "\nstdout:\n" + stdout + "\nstderr:\n" + stderr);
    }
    return this;
  }
}
