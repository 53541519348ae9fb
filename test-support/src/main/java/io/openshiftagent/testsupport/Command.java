package io.openshiftagent.testsupport;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * Runs a real client (clusterctl, kubectl, git, a hack/ script) as a process to its end and keeps
 * its output.
 */
public final class Command {
  private final List<String> args = new ArrayList<>();
  private final Map<String, String> env = new HashMap<>();
  private String stdin;
  private Duration timeout = Duration.ofMinutes(3);

  private Command(Object... args) {
    for (Object arg : args) {
      this.args.add(arg.toString());
    }
  }

  public static Command of(Object... args) {
    return new Command(args);
  }

  /** Runs {@code command} to its end within {@code timeout}. */
  public static Result run(Duration timeout, List<String> command) {
    return of(command.toArray()).timeout(timeout).run();
  }

  /** Runs {@code command}, feeding it {@code stdin}, to its end within {@code timeout}. */
  public static Result run(Duration timeout, String stdin, List<String> command) {
    return of(command.toArray()).stdin(stdin).timeout(timeout).run();
  }

  public Command env(String name, String value) {
    env.put(name, value);
    return this;
  }

  public Command env(Map<String, String> values) {
    env.putAll(values);
    return this;
  }

  public Command stdin(String text) {
    stdin = text;
    return this;
  }

  public Command timeout(Duration value) {
    timeout = value;
    return this;
  }

  /** What a finished process left: its exit code and its standard output and error. */
  public record Result(List<String> command, int exitCode, String stdout, String stderr) {
    /** This result; fails with everything the process printed if it did not exit 0. */
    public Result succeeded() {
      if (exitCode != 0) {
        throw new AssertionError(this.describe());
      }
      return this;
    }

    /** The standard output; fails with everything the process printed if it did not exit 0. */
    public String ok() {
      return succeeded().stdout();
    }

    public String describe() {
      return String.join(" ", command)
          + " exited "
          + exitCode
          + "\n--- stdout\n"
          + stdout
          + "\n--- stderr\n"
          + stderr;
    }
  }

  /** Runs the command; fails with everything it printed unless it exits 0. */
  public String ok() {
    return run().ok();
  }

  public Result run() {
    try {
      Path out = Files.createTempFile("command", ".out");
      Path err = Files.createTempFile("command", ".err");
      ProcessBuilder builder =
          new ProcessBuilder(args).redirectOutput(out.toFile()).redirectError(err.toFile());
      builder.environment().putAll(env);
      if (stdin == null) {
        builder.redirectInput(ProcessBuilder.Redirect.from(new java.io.File("/dev/null")));
      }
      Process process = builder.start();
      if (stdin != null) {
        try (var in = process.getOutputStream()) {
          in.write(stdin.getBytes(java.nio.charset.StandardCharsets.UTF_8));
        }
      }
      if (!process.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS)) {
        process.destroyForcibly();
        throw new AssertionError(String.join(" ", args) + " did not finish in " + timeout);
      }
      Result result =
          new Result(
              List.copyOf(args), process.exitValue(), Files.readString(out), Files.readString(err));
      Files.delete(out);
      Files.delete(err);
      return result;
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(e);
    }
  }
}
