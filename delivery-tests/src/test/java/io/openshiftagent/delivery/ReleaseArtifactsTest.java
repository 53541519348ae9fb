package io.openshiftagent.delivery;

import static org.assertj.core.api.Assertions.assertThat;

import io.openshiftagent.testsupport.TestPaths;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The files {@code hack/release.sh} writes are what clusterctl needs, without a cluster. */
class ReleaseArtifactsTest {
  @TempDir static Path out;

  @BeforeAll
  static void release() {
    Release.build(Release.pomReleaseVersion(), out);
  }

  @Test
  void metadataMapsThePomVersionToTheV1beta2Contract() {
    List<Map<String, Object>> docs = Release.objects(out.resolve("metadata.yaml"));
    assertThat(docs).hasSize(1);
    Map<String, Object> metadata = docs.get(0);
    assertThat(metadata)
        .containsEntry("apiVersion", "clusterctl.cluster.x-k8s.io/v1alpha3")
        .containsEntry("kind", "Metadata");
    String[] version = Release.pomReleaseVersion().split("\\.");
    @SuppressWarnings("unchecked")
    List<Map<String, Object>> series = (List<Map<String, Object>>) metadata.get("releaseSeries");
    assertThat(series)
        .as(
            "metadata.yaml needs a release series for %s.%s (the parent pom's version)",
            version[0], version[1])
        .anySatisfy(
            s -> {
              assertThat(s.get("major")).isEqualTo(Integer.parseInt(version[0]));
              assertThat(s.get("minor")).isEqualTo(Integer.parseInt(version[1]));
              assertThat(s.get("contract")).isEqualTo("v1beta2");
            });
  }

  @Test
  void bootstrapComponentsHaveOneNamespaceLabelsAndVariables() throws IOException {
    Path file = out.resolve("bootstrap-components.yaml");
    assertWellFormed(file, Release.BOOTSTRAP_LABEL, "OpenshiftAssistedConfig");
    assertThat(Files.readString(file))
        .contains(
            "image: ${OPENSHIFT_AGENT_BOOTSTRAP_IMAGE:=quay.io/openshift-agent/bootstrap-provider:v"
                + Release.pomReleaseVersion()
                + "}",
            "-v=${OPENSHIFT_AGENT_LOG_VERBOSITY:=3}",
            "--diagnostics-address=${OPENSHIFT_AGENT_DIAGNOSTICS_ADDRESS:=:8443}",
            "--insecure-diagnostics=${OPENSHIFT_AGENT_INSECURE_DIAGNOSTICS:=false}",
            "value: ${OPENSHIFT_AGENT_ASSISTED_CA_BUNDLE_RESOURCE:=secret}",
            "value: ${OPENSHIFT_AGENT_ASSISTED_CA_BUNDLE_NAMESPACE:=\"\"}",
            "value: ${OPENSHIFT_AGENT_ASSISTED_CA_BUNDLE_NAME:=\"\"}",
            "value: ${OPENSHIFT_AGENT_ASSISTED_CA_BUNDLE_KEY:=ca.crt}",
            "value: ${OPENSHIFT_AGENT_ASSISTED_SERVICE_URL:=\"\"}",
            "value: ${OPENSHIFT_AGENT_DEFAULT_BOOT_MODE:=LiveISO}",
            "value: ${OPENSHIFT_AGENT_WATCH_NAMESPACE:=\"\"}",
            "kind: ${OPENSHIFT_AGENT_MANAGER_BINDING_KIND:=ClusterRoleBinding}");
  }

  @Test
  void controlPlaneComponentsHaveOneNamespaceLabelsAndVariables() throws IOException {
    Path file = out.resolve("control-plane-components.yaml");
    assertWellFormed(file, Release.CONTROL_PLANE_LABEL, "OpenshiftAssistedControlPlane");
    assertThat(Files.readString(file))
        .contains(
            "image: ${OPENSHIFT_AGENT_CONTROL_PLANE_IMAGE:=quay.io/openshift-agent/controlplane-provider:v"
                + Release.pomReleaseVersion()
                + "}",
            "-v=${OPENSHIFT_AGENT_LOG_VERBOSITY:=3}",
            "--diagnostics-address=${OPENSHIFT_AGENT_DIAGNOSTICS_ADDRESS:=:8443}",
            "--insecure-diagnostics=${OPENSHIFT_AGENT_INSECURE_DIAGNOSTICS:=false}",
            "value: ${OPENSHIFT_AGENT_WATCH_NAMESPACE:=\"\"}",
            "kind: ${OPENSHIFT_AGENT_MANAGER_BINDING_KIND:=ClusterRoleBinding}")
        .doesNotContain("ASSISTED_CA_BUNDLE", "bootstrap.cluster.x-k8s.io_");
  }

  /**
   * The control-plane components with Cluster API's in-place update hooks: everything of the plain
   * ones, plus the hooks' settings, Service, certificate and ExtensionConfig.
   */
  @Test
  void inPlaceComponentsAreTheControlPlanesWithTheHooks() throws IOException {
    Path file = out.resolve("control-plane-components-inplace.yaml");
    assertWellFormed(file, Release.CONTROL_PLANE_LABEL, "OpenshiftAssistedControlPlane");
    List<String> plain =
        Release.objects(out.resolve("control-plane-components.yaml")).stream()
            .map(ReleaseArtifactsTest::kindAndName)
            .toList();
    List<String> inPlace =
        Release.objects(file).stream().map(ReleaseArtifactsTest::kindAndName).toList();
    assertThat(inPlace)
        .containsAll(plain)
        .contains(
            "ExtensionConfig control-plane-openshift-agent-runtime-extension",
            "Service control-plane-openshift-agent-runtime-extension",
            "Certificate control-plane-openshift-agent-runtime-extension",
            "Issuer control-plane-openshift-agent-runtime-extension");
    assertThat(Files.readString(file))
        .contains(
            "name: RUNTIME_EXTENSION_ADDRESS",
            "runtime.cluster.x-k8s.io/inject-ca-from-secret: openshift-agent-control-plane-system/"
                + "control-plane-openshift-agent-runtime-extension-cert");
    assertThat(Files.readString(out.resolve("control-plane-components.yaml")))
        .doesNotContain("RUNTIME_EXTENSION", "ExtensionConfig");
  }

  @SuppressWarnings("unchecked")
  private static String kindAndName(Map<String, Object> object) {
    return object.get("kind") + " " + ((Map<String, Object>) object.get("metadata")).get("name");
  }

  @Test
  void kustomizeTreesUseTheImagesOfThisRelease() throws IOException {
    for (String provider : List.of("bootstrap", "controlplane")) {
      assertThat(
              Files.readString(
                  TestPaths.repoRoot().resolve("config/" + provider + "/kustomization.yaml")))
          .as("config/%s/kustomization.yaml images", provider)
          .contains("newTag: v" + Release.pomReleaseVersion());
    }
  }

  @Test
  void bothClusterTemplatesAreReleased() {
    assertThat(out.resolve("cluster-template.yaml")).isRegularFile();
    assertThat(out.resolve("cluster-template-sno.yaml")).isRegularFile();
    assertThat(out.resolve("cluster-template-topology.yaml")).isRegularFile();
    // clusterctl adds clusterclass-<class>.yaml to a topology cluster whose class is missing.
    assertThat(out.resolve("clusterclass-openshift-assisted.yaml")).isRegularFile();
  }

  @SuppressWarnings("unchecked")
  private static void assertWellFormed(Path file, String providerLabel, String ownKindPrefix) {
    List<Map<String, Object>> objects = Release.objects(file);
    assertThat(objects.stream().filter(o -> "Namespace".equals(o.get("kind"))))
        .as("exactly one target Namespace in %s", file.getFileName())
        .hasSize(1);
    assertThat(objects)
        .allSatisfy(
            o -> {
              Map<String, Object> metadata = (Map<String, Object>) o.get("metadata");
              assertThat((Map<String, Object>) metadata.get("labels"))
                  .as("labels of %s %s", o.get("kind"), metadata.get("name"))
                  .containsEntry("cluster.x-k8s.io/provider", providerLabel);
            });
    List<String> crdKinds =
        objects.stream()
            .filter(o -> "CustomResourceDefinition".equals(o.get("kind")))
            .map(
                o ->
                    (String)
                        ((Map<String, Object>) ((Map<String, Object>) o.get("spec")).get("names"))
                            .get("kind"))
            .toList();
    assertThat(crdKinds).isNotEmpty().allSatisfy(k -> assertThat(k).startsWith(ownKindPrefix));
    assertThat(objects)
        .filteredOn(o -> "Deployment".equals(o.get("kind")))
        .singleElement()
        .satisfies(
            d ->
                assertThat(
                        (List<Map<String, Object>>)
                            ((Map<String, Object>)
                                    ((Map<String, Object>)
                                            ((Map<String, Object>) d.get("spec")).get("template"))
                                        .get("spec"))
                                .get("containers"))
                    .extracting(c -> c.get("name"))
                    .containsExactly("manager"));
  }
}
