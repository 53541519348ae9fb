package io.openshiftagent.bootstrap;

import io.fabric8.kubernetes.api.model.LabelSelectorBuilder;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.openshiftagent.api.bootstrap.v1alpha2.BootMode;
import io.openshiftagent.api.bootstrap.v1alpha2.KernelArgument;
import io.openshiftagent.api.bootstrap.v1alpha2.NodeRegistrationOptions;
import io.openshiftagent.api.bootstrap.v1alpha2.OpenshiftAssistedConfig;
import io.openshiftagent.api.bootstrap.v1alpha2.OpenshiftAssistedConfigSpec;
import io.openshiftagent.api.bootstrap.v1alpha2.Proxy;
import io.openshiftagent.api.common.LocalObjectReference;
import java.util.List;

/** A config with every field set, for the unit tests of the pure decisions. */
public final class Fixtures {
  private Fixtures() {}

  public static OpenshiftAssistedConfigSpec fullSpec() {
    OpenshiftAssistedConfigSpec spec = new OpenshiftAssistedConfigSpec();
    spec.bootMode = BootMode.LIVE_ISO;
    spec.proxy = new Proxy();
    spec.proxy.httpProxy = "http://proxy:3128";
    spec.proxy.httpsProxy = "http://proxy:3129";
    spec.proxy.noProxy = ".cluster.local";
    spec.pullSecretRef = new LocalObjectReference("my-pull-secret");
    spec.additionalNTPSources = List.of("ntp1.example.com", "ntp2.example.com");
    spec.sshAuthorizedKey = "ssh-ed25519 AAAA test";
    spec.nmStateConfigLabelSelector =
        new LabelSelectorBuilder().addToMatchLabels("nmstate", "host-0").build();
    spec.cpuArchitecture = "aarch64";
    spec.additionalTrustBundle = "-----BEGIN CERTIFICATE-----\nMIIB\n-----END CERTIFICATE-----";
    spec.osImageVersion = "4.19";
    spec.kernelArguments =
        List.of(
            new KernelArgument(KernelArgument.Operation.APPEND, "console=ttyS0"),
            new KernelArgument(KernelArgument.Operation.DELETE, "quiet"));
    spec.nodeRegistration = new NodeRegistrationOptions();
    spec.nodeRegistration.name = "$METADATA_NAME";
    spec.nodeRegistration.kubeletExtraLabels =
        List.of("topology.kubernetes.io/zone=rack-a", "metal3.io/uuid=$METADATA_UUID");
    return spec;
  }

  public static OpenshiftAssistedConfig config(String name, OpenshiftAssistedConfigSpec spec) {
    OpenshiftAssistedConfig config = new OpenshiftAssistedConfig();
    config.setMetadata(
        new ObjectMetaBuilder().withName(name).withNamespace("ns").withUid("uid-" + name).build());
    config.setSpec(spec);
    return config;
  }
}
