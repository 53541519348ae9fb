package io.openshiftagent.controlplane.cluster;

import static org.assertj.core.api.Assertions.assertThat;

import io.openshiftagent.api.controlplane.v1alpha3.Capabilities;
import java.util.List;
import org.junit.jupiter.api.Test;

class InstallConfigOverridesTest {
  @Test
  void platformNoneWithoutCapabilitiesOrOverrideGivesNothing() {
    assertThat(InstallConfigOverrides.compute(null, false, null))
        .isEqualTo(new InstallConfigOverrides.Valid(java.util.Optional.empty()));
  }

  @Test
  void bareMetalGetsTheNoneBaselineWithTheCapabilitiesItNeedsAndNeverMachineApi() {
    Capabilities caps = new Capabilities();
    caps.additionalEnabledCapabilities = List.of("CSISnapshot", "MachineAPI", "Console");
    assertThat(json(InstallConfigOverrides.compute(caps, true, null)))
        .isEqualTo(
            "{\"capabilities\":{\"baselineCapabilitySet\":\"None\",\"additionalEnabledCapabilities\":"
                + "[\"baremetal\",\"Console\",\"Insights\",\"OperatorLifecycleManager\",\"Ingress\","
                + "\"marketplace\",\"NodeTuning\",\"DeploymentConfig\",\"CSISnapshot\"]}}");
  }

  @Test
  void platformNoneUsesTheUsersBaseline() {
    Capabilities caps = new Capabilities();
    caps.baselineCapability = "v4.16";
    assertThat(json(InstallConfigOverrides.compute(caps, false, null)))
        .isEqualTo("{\"capabilities\":{\"baselineCapabilitySet\":\"v4.16\"}}");
  }

  @Test
  void overrideIsMergedDeeplyAndWinsOnConflicts() {
    Capabilities caps = new Capabilities();
    caps.baselineCapability = "vCurrent";
    String merged =
        json(
            InstallConfigOverrides.compute(
                caps,
                false,
                "{\"fips\":true,\"capabilities\":{\"additionalEnabledCapabilities\":[\"Storage\"]},"
                    + "\"networking\":{\"machineNetwork\":[{\"cidr\":\"10.0.0.0/24\"}]}}"));
    assertThat(merged)
        .isEqualTo(
            "{\"capabilities\":{\"baselineCapabilitySet\":\"vCurrent\",\"additionalEnabledCapabilities\":"
                + "[\"Storage\"]},\"fips\":true,\"networking\":{\"machineNetwork\":[{\"cidr\":\"10.0.0.0/24\"}]}}");
  }

  @Test
  void badOverridesAreReportedNotDropped() {
    assertThat(InstallConfigOverrides.compute(null, false, "{not json"))
        .isInstanceOfSatisfying(
            InstallConfigOverrides.Invalid.class,
            i -> assertThat(i.message()).contains("is not valid JSON"));
    assertThat(InstallConfigOverrides.compute(null, false, "[1,2]"))
        .isInstanceOfSatisfying(
            InstallConfigOverrides.Invalid.class,
            i -> assertThat(i.message()).contains("must be a JSON object"));
  }

  private static String json(InstallConfigOverrides.Result result) {
    return ((InstallConfigOverrides.Valid) result).json().orElseThrow();
  }
}
