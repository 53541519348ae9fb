package io.openshiftagent.testsupport;

import io.fabric8.kubernetes.client.KubernetesClient;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.extension.ParameterContext;
import org.junit.jupiter.api.extension.ParameterResolver;

/**
 * Gives tests the shared {@link KubeApiServerEnvironment} or its {@link KubernetesClient} as
 * parameters. Use through {@link WithKubeApiServer}.
 */
public class KubeApiServerExtension implements ParameterResolver {
  @Override
  public boolean supportsParameter(ParameterContext parameter, ExtensionContext extension) {
    Class<?> type = parameter.getParameter().getType();
    return type == KubernetesClient.class || type == KubeApiServerEnvironment.class;
  }

  @Override
  public Object resolveParameter(ParameterContext parameter, ExtensionContext extension) {
    KubeApiServerEnvironment env = KubeApiServerEnvironment.shared();
    return parameter.getParameter().getType() == KubernetesClient.class ? env.client() : env;
  }
}
