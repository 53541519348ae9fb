package io.openshiftagent.api;

import io.fabric8.crd.generator.annotation.AdditionalPrinterColumn;
import io.openshiftagent.api.bootstrap.v1alpha2.OpenshiftAssistedConfig;
import io.openshiftagent.api.bootstrap.v1alpha2.OpenshiftAssistedConfigTemplate;
import io.openshiftagent.api.controlplane.v1alpha3.OpenshiftAssistedControlPlane;
import io.openshiftagent.api.controlplane.v1alpha3.OpenshiftAssistedControlPlaneTemplate;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Puts a generated CRD's printer columns back in the order the model declares them: fabric8's
 * generator sorts them by JSON path, so {@code kubectl get} showed AGE second. Works on the text,
 * so that everything else stays byte for byte what the generator wrote.
 */
final class PrinterColumnOrder {
  /** Each kind's model, by the CRD's plural. */
  static final Map<String, Class<?>> MODELS =
      Map.of(
          "openshiftassistedconfigs", OpenshiftAssistedConfig.class,
          "openshiftassistedconfigtemplates", OpenshiftAssistedConfigTemplate.class,
          "openshiftassistedcontrolplanes", OpenshiftAssistedControlPlane.class,
          "openshiftassistedcontrolplanetemplates", OpenshiftAssistedControlPlaneTemplate.class);

  private static final Pattern BLOCK =
      Pattern.compile("(?m)^(  - additionalPrinterColumns:\\n)((?:    [- ] .*\\n)+)");
  private static final Pattern NAME = Pattern.compile("(?m)^      name: \"(.*)\"$");

  private PrinterColumnOrder() {}

  /** The columns {@code model} declares, by name, in declaration order. */
  static List<String> declared(Class<?> model) {
    return Arrays.stream(model.getAnnotationsByType(AdditionalPrinterColumn.class))
        .map(AdditionalPrinterColumn::name)
        .toList();
  }

  /** {@code crd} (the generator's YAML for {@code plural}) with its columns in declared order. */
  static String apply(String plural, String crd) {
    List<String> order = declared(MODELS.get(plural));
    Matcher blocks = BLOCK.matcher(crd);
    StringBuilder out = new StringBuilder();
    while (blocks.find()) {
      Map<String, String> columns = new LinkedHashMap<>();
      for (String column : split(blocks.group(2))) {
        Matcher name = NAME.matcher(column);
        if (!name.find()) {
          throw new IllegalStateException("a printer column without a name: " + column);
        }
        columns.put(name.group(1), column);
      }
      if (!columns.keySet().containsAll(order) || columns.size() != order.size()) {
        throw new IllegalStateException(
            plural + ": the CRD has columns " + columns.keySet() + ", the model " + order);
      }
      StringBuilder sorted = new StringBuilder(blocks.group(1));
      order.forEach(n -> sorted.append(columns.get(n)));
      blocks.appendReplacement(out, Matcher.quoteReplacement(sorted.toString()));
    }
    blocks.appendTail(out);
    return out.toString();
  }

  /** The entries of a column list, each from its {@code - } line to the next. */
  private static List<String> split(String block) {
    List<String> columns = new ArrayList<>();
    StringBuilder current = null;
    for (String line : block.split("(?<=\\n)")) {
      if (line.startsWith("    - ")) {
        if (current != null) {
          columns.add(current.toString());
        }
        current = new StringBuilder();
      }
      current.append(line);
    }
    if (current != null) {
      columns.add(current.toString());
    }
    return columns;
  }
}
