package io.openshiftagent.testsupport.badinput;

import static io.openshiftagent.testsupport.badinput.Changes.accepted;
import static io.openshiftagent.testsupport.badinput.Changes.annotation;
import static io.openshiftagent.testsupport.badinput.Changes.boundedList;
import static io.openshiftagent.testsupport.badinput.Changes.boundedText;
import static io.openshiftagent.testsupport.badinput.Changes.httpUrl;
import static io.openshiftagent.testsupport.badinput.Changes.listWithBadItem;
import static io.openshiftagent.testsupport.badinput.Changes.rejected;
import static io.openshiftagent.testsupport.badinput.Changes.removed;
import static io.openshiftagent.testsupport.badinput.Verdict.ACCEPTED;
import static io.openshiftagent.testsupport.badinput.Verdict.REJECTED;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;

/**
 * Spec variants of our four kinds: a valid object with one to three changes, each a valid, boundary
 * or invalid value of one field (or of the override annotations), labelled with what admission must
 * do. The catalogs follow docs/api-reference.md; a change's verdict is what the documented rules
 * say, so a disagreement with the API server is a finding.
 *
 * <p>Over 350 lines: it is a catalogue, one entry per field and value; splitting it by kind would
 * separate the shared variants (metadata, references) from their users.
 */
public final class SpecVariants {
  /** The annotations the bootstrap provider reads. */
  public static final String DISCOVERY_IGNITION_OVERRIDE =
      "openshiftassistedconfig.cluster.x-k8s.io/discovery-ignition-override";

  public static final String IGNITION_OVERRIDE =
      "openshiftassistedconfig.cluster.x-k8s.io/ignition-override";

  /** The annotations the control-plane provider reads. */
  public static final String INSTALL_CONFIG_OVERRIDE =
      "controlplane.cluster.x-k8s.io/install-config-override";

  public static final String RELEASE_IMAGE_REPOSITORY_OVERRIDE =
      "cluster.x-k8s.io/release-image-repository-override";

  private SpecVariants() {}

  /** Variants of {@code kind}: one to three changes to distinct fields. */
  public static Arbitrary<SpecVariant> of(Kind kind) {
    return of(kind, 3);
  }

  private static Arbitrary<SpecVariant> of(Kind kind, int maxChanges) {
    List<Arbitrary<Change>> catalog = catalog(kind);
    return Arbitraries.oneOf(catalog)
        .list()
        .ofMinSize(1)
        .ofMaxSize(maxChanges)
        .filter(SpecVariants::distinctFields)
        .map(changes -> new SpecVariant(kind, changes));
  }

  /**
   * Variants of {@code kind} for the reconcile properties: three in four admissible (the ones a
   * reconciler sees), with up to five changes each so that fewer tries cover every field, the rest
   * as {@link #of} makes them.
   */
  public static Arbitrary<SpecVariant> forReconciling(Kind kind) {
    return Arbitraries.frequencyOf(
        net.jqwik.api.Tuple.of(3, of(kind, 5).filter(v -> v.verdict() != REJECTED)),
        net.jqwik.api.Tuple.of(1, of(kind)));
  }

  /** Every field a variant of {@code kind} may change. */
  static List<Arbitrary<Change>> catalog(Kind kind) {
    List<Arbitrary<Change>> catalog = new ArrayList<>();
    if (kind.isControlPlane()) {
      catalog.addAll(controlPlaneSpec(kind));
      configSpec()
          .forEach(
              c -> catalog.add(c.map(x -> Changes.prefixed("openshiftAssistedConfigSpec", x))));
      catalog.add(overrideAnnotation(kind, INSTALL_CONFIG_OVERRIDE));
      catalog.add(
          annotation(
              kind,
              RELEASE_IMAGE_REPOSITORY_OVERRIDE,
              Arbitraries.oneOf(
                  Values.text(0, 60), Arbitraries.just("registry.example.com/ocp/release"))));
    } else {
      catalog.addAll(configSpec());
      catalog.add(overrideAnnotation(kind, DISCOVERY_IGNITION_OVERRIDE));
      catalog.add(overrideAnnotation(kind, IGNITION_OVERRIDE));
    }
    if (!kind.template) {
      catalog.add(oversizedAnnotations(kind));
    }
    return catalog;
  }

  /**
   * Whether no two changes write the same field, or one inside the other: a later change must not
   * overwrite what an earlier one set (some changes edit a second field too, e.g. a version and the
   * Kubernetes version that goes with it), or the verdict would be about a value that is gone.
   */
  private static boolean distinctFields(List<Change> changes) {
    for (int i = 0; i < changes.size(); i++) {
      for (int j = 0; j < changes.size(); j++) {
        if (i != j && overlap(changes.get(i), changes.get(j))) {
          return false;
        }
      }
    }
    return true;
  }

  private static boolean overlap(Change one, Change other) {
    for (Change.Edit a : one.edits()) {
      for (Change.Edit b : other.edits()) {
        String pathA = a.fromObjectRoot() + ":" + String.join(".", a.path()) + ".";
        String pathB = b.fromObjectRoot() + ":" + String.join(".", b.path()) + ".";
        if (pathA.startsWith(pathB) || pathB.startsWith(pathA)) {
          return true;
        }
      }
    }
    return (one.field() + ".").startsWith(other.field() + ".");
  }

  // ---- OpenshiftAssistedConfigSpec (also embedded in the control plane) ----

  static List<Arbitrary<Change>> configSpec() {
    return List.of(
        Arbitraries.oneOf(
            accepted("bootMode", "LiveISO", "DiskImage"),
            rejected("bootMode", "PXE", "", "liveiso", "LiveISO ", "DiskImage\u200B")),
        Arbitraries.oneOf(
            accepted("cpuArchitecture", "x86_64", "aarch64", "arm64", "ppc64le", "s390x"),
            rejected("cpuArchitecture", "sparc", "", "X86_64", "amd64", "x86_64 ", "arm"),
            rejected("cpuArchitecture", Values.textOfLength(17))),
        boundedText("sshAuthorizedKey", 8192),
        boundedText("additionalTrustBundle", 1048576),
        boundedList("additionalNTPSources", Values.text(1, 40), 32),
        listWithBadItem("additionalNTPSources", Values.text(1, 40), Values.textOfLength(256)),
        boundedText("osImageVersion", 64),
        boundedText("proxy.httpProxy", 2048),
        boundedText("proxy.httpsProxy", 2048),
        boundedText("proxy.noProxy", 4096),
        reference("pullSecretRef"),
        boundedList("kernelArguments", kernelArgument(), 64),
        listWithBadItem("kernelArguments", kernelArgument(), badKernelArgument()),
        labelSelector("nmStateConfigLabelSelector"),
        bootstrapCommands("preBootstrapCommands"),
        bootstrapCommands("postBootstrapCommands"),
        safePath("bootstrapCommandSentinelDir"),
        safePath("postBootstrapKubeconfigPath"),
        withMetadataReferences("nodeRegistration.name", 253),
        withMetadataReferences("nodeRegistration.providerID", 512),
        boundedList("nodeRegistration.kubeletExtraLabels", kubeletLabel(), 64),
        listWithBadItem(
            "nodeRegistration.kubeletExtraLabels",
            kubeletLabel(),
            Arbitraries.oneOf(
                Arbitraries.of("novalue", "=value", "a=b=c", "", "k=$(hostname)", "k=${}"),
                Values.textOfLength(511).map(s -> "k=" + s.replace("=", "-")))));
  }

  /** A reference by name: to nothing (accepted; the reconciler reports it), or malformed. */
  private static Arbitrary<Change> reference(String field) {
    return Arbitraries.oneOf(
        accepted(field, name(Kind.PULL_SECRET), name("does-not-exist"), name("Not_A_Name.\u00FC")),
        accepted(field, Values.textOfLength(253).map(SpecVariants::name)),
        rejected(field, name(""), new LinkedHashMap<>(), "a-string-not-an-object"),
        rejected(field, Values.textOfLength(254).map(SpecVariants::name)));
  }

  private static Map<String, Object> name(String name) {
    Map<String, Object> ref = new LinkedHashMap<>();
    ref.put("name", name);
    return ref;
  }

  private static Arbitrary<Map<String, Object>> kernelArgument() {
    Arbitrary<String> token =
        Values.text(1, 12).map(s -> s.replaceAll("[ \\t\\n\\r\"]", "_")).filter(s -> !s.isEmpty());
    Arbitrary<String> quoted = Values.text(0, 12).map(s -> "\"" + s.replace("\"", "'") + "\"");
    return Combinators.combine(
            Arbitraries.of("append", "replace", "delete"), Arbitraries.oneOf(token, quoted))
        .as(SpecVariants::kernelArgument);
  }

  private static Arbitrary<Map<String, Object>> badKernelArgument() {
    return Arbitraries.oneOf(
        Arbitraries.of("prepend", "", "Append").map(op -> kernelArgument(op, "console=ttyS0")),
        Arbitraries.of("", "a b", "\"unbalanced", "tab\there", "new\nline")
            .map(v -> kernelArgument("append", v)),
        Values.textOfLength(1025)
            .map(s -> kernelArgument("append", s.replaceAll("[ \\t\\n\\r\"]", "_"))),
        Arbitraries.just(Map.of("value", "quiet")),
        Arbitraries.just(Map.of("operation", "append")));
  }

  private static Map<String, Object> kernelArgument(String operation, String value) {
    Map<String, Object> argument = new LinkedHashMap<>();
    argument.put("operation", operation);
    argument.put("value", value);
    return argument;
  }

  private static Arbitrary<Change> labelSelector(String field) {
    return Arbitraries.oneOf(
        accepted(field, Values.text(1, 20).map(v -> Map.of("matchLabels", Map.of("nmstate", v)))),
        accepted(
            field,
            Map.of(
                "matchExpressions",
                List.of(Map.of("key", "nmstate", "operator", "In", "values", List.of("host-0"))))),
        rejected(
            field,
            Map.of("matchExpressions", List.of(Map.of("operator", "Exists"))),
            Map.of("matchExpressions", List.of(Map.of("key", "nmstate"))),
            Map.of("matchExpressions", List.of(Map.of("key", "k", "operator", "Bogus"))),
            Map.of("matchExpressions", List.of(Map.of("key", "k", "operator", "in")))));
  }

  /** Shell commands: anything, up to 256 of up to 16384 code points each. */
  private static Arbitrary<Change> bootstrapCommands(String field) {
    Arbitrary<String> command = Values.text(0, 60);
    return Arbitraries.oneOf(
        boundedList(field, command, 256),
        accepted(field, Values.textOfLength(16384).map(List::of)),
        rejected(field, Values.textOfLength(16385).map(List::of)),
        // Many long commands: a large object, within the bounds (what fits etcd is StoredSize's).
        accepted(
            field,
            Arbitraries.of(16, 24, 36, 48)
                .flatMap(
                    n ->
                        Values.listOf(
                            Arbitraries.oneOf(
                                Values.textOfLength(16384), Values.wideTextOfLength(16384)),
                            n))));
  }

  /** An absolute path of letters, digits, '_', '.', '-' and '/' without '..' segments. */
  private static Arbitrary<Change> safePath(String field) {
    Arbitrary<String> segment =
        Arbitraries.strings()
            .withCharRange('a', 'z')
            .withCharRange('A', 'Z')
            .numeric()
            .withChars("_.-")
            .ofMinLength(1)
            .ofMaxLength(12)
            .filter(s -> !s.equals(".."));
    Arbitrary<String> path =
        segment.list().ofMinSize(1).ofMaxSize(5).map(s -> "/" + String.join("/", s));
    return Arbitraries.oneOf(
        accepted(field, path),
        accepted(field, "/var/lib/..hidden/x", "//double", "/a/b/"),
        accepted(field, Arbitraries.just("/" + "a".repeat(511))),
        rejected(
            field,
            "relative/path",
            "/a/../b",
            "/a/..",
            "/..",
            "/a b",
            "/\u00FC",
            "/$(id)",
            "/",
            "",
            "/tmp;reboot"),
        rejected(field, Arbitraries.just("/" + "a".repeat(512))));
  }

  private static Arbitrary<String> kubeletLabel() {
    Arbitrary<String> key = Values.text(1, 20).map(s -> noDollar(s.replace("=", "-")));
    Arbitrary<String> value =
        Arbitraries.oneOf(
            Values.text(0, 20).map(s -> noDollar(s.replace("=", "-"))), metadataReference());
    return Combinators.combine(key, value).as((k, v) -> k + "=" + v);
  }

  /**
   * A nodeRegistration value: text up to {@code max} characters whose '$' each start a metadata
   * reference ($NAME or ${NAME}); any other '$' is refused, the Go provider's way to a shell.
   */
  private static Arbitrary<Change> withMetadataReferences(String field, int max) {
    return Arbitraries.oneOf(
        accepted(field, Values.text(0, 40).map(SpecVariants::noDollar)),
        accepted(
            field,
            Combinators.combine(Values.text(0, 20).map(SpecVariants::noDollar), metadataReference())
                .as((text, ref) -> text + ref)),
        accepted(field, Values.textOfLength(max).map(SpecVariants::noDollar)),
        rejected(field, Values.textOfLength(max + 1).map(SpecVariants::noDollar)),
        rejected(field, "$(whoami)", "node-$", "${METADATA_NAME", "${9}", "$-x", "`id`$"));
  }

  private static Arbitrary<String> metadataReference() {
    return Arbitraries.of(
        "$METADATA_NAME", "${METADATA_UUID}", "$_x9", "${METADATA_LOCAL_HOSTNAME}");
  }

  private static String noDollar(String text) {
    return text.replace('$', '-');
  }

  private static Arbitrary<Change> overrideAnnotation(Kind kind, String key) {
    return annotation(kind, key, Arbitraries.oneOf(Values.jsonObject(), Values.notAJsonObject()));
  }

  /** More than the API server's 256 KiB of annotations. */
  private static Arbitrary<Change> oversizedAnnotations(Kind kind) {
    return Arbitraries.just(
        new Change(
            "metadata.annotations",
            List.of(
                new Change.Edit(
                    true,
                    List.of("metadata", "annotations", "example.com/big"),
                    "x".repeat(262145))),
            REJECTED,
            "262145 bytes"));
  }

  // ---- OpenshiftAssistedControlPlane(Template) ----

  static List<Arbitrary<Change>> controlPlaneSpec(Kind kind) {
    List<Arbitrary<Change>> catalog = new ArrayList<>();
    catalog.add(versions(kind));
    if (kind == Kind.CONTROL_PLANE) {
      catalog.add(
          Arbitraries.oneOf(
              accepted("replicas", 1, 3, 4, 5),
              removed("replicas", ACCEPTED),
              rejected("replicas", 0, 2, 6, -1, 100, Integer.MAX_VALUE, "3", 3.5)));
      catalog.add(infrastructureRef());
      catalog.add(
          Arbitraries.oneOf(
              accepted(
                  "machineTemplate.spec.readinessGates",
                  List.of(Map.of("conditionType", "example.com/Ready", "polarity", "Positive")),
                  List.of(Map.of("conditionType", "Sideways", "polarity", "Sideways"))),
              rejected(
                  "machineTemplate.spec.readinessGates",
                  List.of(Map.of("conditionType", "")),
                  List.of(Map.of("conditionType", "c".repeat(317))))));
    }
    catalog.add(vips());
    catalog.add(
        Arbitraries.oneOf(
            boundedList("config.machineNetworks", Values.cidr(), 8),
            listWithBadItem("config.machineNetworks", Values.cidr(), Values.notACidr())));
    catalog.add(
        Arbitraries.oneOf(
            accepted(
                "config.baseDomain",
                "example.com",
                "sub.lab-1.example.com",
                "a",
                "x".repeat(63) + ".com",
                ("a".repeat(63) + ".").repeat(3) + "a".repeat(61)), // 253 characters
            accepted(
                "config.baseDomain",
                Values.dnsLabel(1, 20)
                    .list()
                    .ofMinSize(1)
                    .ofMaxSize(4)
                    .map(l -> String.join(".", l))),
            rejected(
                "config.baseDomain",
                "Example.com",
                "ex_ample.com",
                "",
                "-a.com",
                "a-.com",
                "example.com.",
                "ex\u00E4mple.com",
                "a..b",
                "x".repeat(64) + ".com",
                ("a".repeat(63) + ".").repeat(3) + "a".repeat(62)), // 254 characters
            removed("config.baseDomain", REJECTED)));
    catalog.add(
        Arbitraries.oneOf(
            accepted("config.clusterName", Values.dnsLabel(1, 54)),
            rejected("config.clusterName", "Abc", "a_b", "-a", "a-", "", "\u00FC", "a.b"),
            rejected("config.clusterName", Arbitraries.just("a".repeat(55)))));
    catalog.add(
        Arbitraries.oneOf(
            accepted("config.clusterNetworkHostPrefix", Arbitraries.integers().between(8, 30)),
            rejected("config.clusterNetworkHostPrefix", 7, 31, -1, 0, 128, "23")));
    catalog.add(
        Arbitraries.oneOf(
            accepted(
                "config.ipv6ClusterNetworkHostPrefix", Arbitraries.integers().between(48, 126)),
            rejected("config.ipv6ClusterNetworkHostPrefix", 47, 127, 64.5)));
    catalog.add(
        Arbitraries.oneOf(
            accepted(
                "config.networkType",
                "OVNKubernetes",
                "OpenShiftSDN",
                "CiscoACI",
                "Cilium",
                "Calico",
                "None"),
            rejected(
                "config.networkType", "Flannel", "", "ovnkubernetes", "None ", "x".repeat(33))));
    catalog.add(diskEncryption());
    catalog.add(
        Arbitraries.oneOf(
            accepted(
                "config.capabilities",
                Combinators.combine(
                        Arbitraries.of("None", "vCurrent", "v4.14", "v4.99"),
                        Values.text(1, 20).list().ofMaxSize(6))
                    .as(
                        (b, a) ->
                            Map.of("baselineCapability", b, "additionalEnabledCapabilities", a))),
            accepted(
                "config.capabilities",
                Arbitraries.just(
                    Map.of("additionalEnabledCapabilities", List.of("MachineAPI", "baremetal")))),
            rejected(
                "config.capabilities",
                Arbitraries.of("v5", "none", "v4.", "", "vCurrent ", "v4.x")
                    .map(b -> Map.of("baselineCapability", b))),
            rejected(
                "config.capabilities",
                Values.text(1, 10)
                    .list()
                    .ofSize(65)
                    .map(a -> Map.of("additionalEnabledCapabilities", a)))));
    catalog.add(reference("config.pullSecretRef"));
    catalog.add(
        Arbitraries.oneOf(
            accepted("config.imageRegistryRef", name("missing-registry-config")),
            rejected("config.imageRegistryRef", name(""), new LinkedHashMap<>())));
    catalog.add(
        Arbitraries.oneOf(
            accepted(
                "config.manifestsConfigMapRefs",
                List.of(name("missing-manifests")),
                List.of(name("a"), name("b"))),
            rejected("config.manifestsConfigMapRefs", List.of(name("")), List.of(Map.of())),
            rejected(
                "config.manifestsConfigMapRefs",
                Arbitraries.just(java.util.Collections.nCopies(65, name("m"))))));
    catalog.add(httpUrl("config.proxy.httpProxy", 2048));
    catalog.add(boundedText("config.proxy.noProxy", 4096));
    catalog.add(boundedText("config.sshAuthorizedKey", 8192));
    catalog.add(
        Arbitraries.oneOf(
            accepted("config.mastersSchedulable", true, false),
            rejected("config.mastersSchedulable", "yes", 1)));
    catalog.add(
        accepted(
            "machineTemplate.metadata.labels",
            Map.of("app", "openshift"),
            Map.of("bad key with spaces", "v"),
            Map.of("k", "\u00FC\u00F1\u00EE\u00E7\u00F8d\u00E9"),
            Map.of("k", "v".repeat(64))));
    catalog.add(
        Arbitraries.oneOf(
            accepted(
                "machineTemplate.spec.deletion.nodeDrainTimeoutSeconds",
                Arbitraries.integers().between(0, 100_000)),
            accepted("machineTemplate.spec.deletion.nodeDrainTimeoutSeconds", Integer.MAX_VALUE),
            rejected("machineTemplate.spec.deletion.nodeDrainTimeoutSeconds", 1L << 40, -1L << 40),
            rejected("machineTemplate.spec.deletion.nodeDrainTimeoutSeconds", -1, "10s")));
    return catalog;
  }

  /** distributionVersion, and for a control plane the Kubernetes version that must match it. */
  private static Arbitrary<Change> versions(Kind kind) {
    List<Arbitrary<Change>> options = new ArrayList<>();
    options.add(accepted("distributionVersion", Values.goodVersion()));
    options.add(rejected("distributionVersion", Values.badVersion()));
    // The numbers at the limit the providers can hold, and beyond it.
    options.add(
        accepted(
            "distributionVersion",
            Arbitraries.of("4.2147483647.0", "4.14.2147483647", "4.20.0-ec.18446744073709551615")));
    options.add(rejected("distributionVersion", "4.2147483648.0", "4.14.4294967296"));
    if (kind == Kind.CONTROL_PLANE) {
      options.add(removed("distributionVersion", REJECTED));
      Arbitrary<Integer> minor = Arbitraries.integers().between(14, 40);
      options.add(
          Combinators.combine(minor, Arbitraries.integers().between(0, 20))
              .as(
                  (m, patch) ->
                      versionPair("4." + m + ".1", "v1." + (m + 13) + "." + patch, ACCEPTED)));
      options.add(
          Combinators.combine(minor, Arbitraries.of(-1, 1, 20))
              .as(
                  (m, off) ->
                      versionPair("4." + m + ".1", "v1." + (m + 13 + off) + ".0", REJECTED)));
      options.add(Arbitraries.just(versionPair("5.0.0", "anything", ACCEPTED)));
      options.add(rejected("version", Values.textOfLength(65)));
    }
    return Arbitraries.oneOf(options);
  }

  /** A pair of versions: one change, so no other change of distributionVersion joins it. */
  private static Change versionPair(String distribution, String version, Verdict verdict) {
    return new Change(
        "distributionVersion",
        List.of(
            new Change.Edit(false, List.of("distributionVersion"), distribution),
            new Change.Edit(false, List.of("version"), version)),
        verdict,
        distribution + " with Kubernetes " + version);
  }

  private static Arbitrary<Change> infrastructureRef() {
    String field = "machineTemplate.spec.infrastructureRef";
    return Arbitraries.oneOf(
        accepted(
            field,
            ref("infrastructure.cluster.x-k8s.io", "Metal3MachineTemplate", "does-not-exist"),
            ref("example.com", "FooMachineTemplate", Kind.INFRASTRUCTURE_TEMPLATE),
            ref("infrastructure.cluster.x-k8s.io", "Metal3Machine", Kind.INFRASTRUCTURE_TEMPLATE)),
        rejected(
            field,
            ref("Bad_Group", "Metal3MachineTemplate", "t"),
            ref("infrastructure.cluster.x-k8s.io", "1abc", "t"),
            ref("infrastructure.cluster.x-k8s.io", "Metal3MachineTemplate", "UPPER"),
            ref("infrastructure.cluster.x-k8s.io", "Metal3MachineTemplate", ""),
            Map.of(
                "apiGroup", "infrastructure.cluster.x-k8s.io", "kind", "Metal3MachineTemplate")));
  }

  private static Map<String, Object> ref(String group, String kind, String name) {
    return Map.of("apiGroup", group, "kind", kind, "name", name);
  }

  /** API and ingress VIPs, which come together, at most one per IP family each. */
  private static Arbitrary<Change> vips() {
    Arbitrary<String> v4 = Values.ipv4();
    Arbitrary<String> v6 = Values.ipv6();
    Arbitrary<List<String>> oneOrPair =
        Arbitraries.oneOf(
            v4.map(List::of),
            v6.map(List::of),
            Combinators.combine(v4, v6).as(List::of),
            Combinators.combine(v6, v4).as(List::of));
    return Arbitraries.oneOf(
        Combinators.combine(oneOrPair, oneOrPair)
            .as((api, ingress) -> vips(api, ingress, ACCEPTED, "")),
        oneOrPair.map(api -> vips(api, null, REJECTED, "config.ingressVIPs")),
        oneOrPair.map(ingress -> vips(List.of(), ingress, REJECTED, "config.apiVIPs")),
        Combinators.combine(v4, v4)
            .as((a, b) -> vips(List.of(a, b), List.of(a), REJECTED, "config.apiVIPs")),
        Combinators.combine(v4, v6, v4)
            .as((a, b, c) -> vips(List.of(a), List.of(a, b, c), REJECTED, "config.ingressVIPs")),
        Combinators.combine(Values.notAnIp(), v4)
            .as((bad, good) -> vips(List.of(good), List.of(bad), REJECTED, "config.ingressVIPs")),
        Combinators.combine(Values.notAnIp(), v6)
            .as((bad, good) -> vips(List.of(bad), List.of(good), REJECTED, "config.apiVIPs")),
        Arbitraries.just(vips(null, null, ACCEPTED, "")));
  }

  private static Change vips(
      List<String> api, List<String> ingress, Verdict verdict, String field) {
    return new Change(
        field.isEmpty() ? "config.apiVIPs" : field,
        List.of(
            new Change.Edit(false, List.of("config", "apiVIPs"), api == null ? Change.REMOVE : api),
            new Change.Edit(
                false,
                List.of("config", "ingressVIPs"),
                ingress == null ? Change.REMOVE : ingress)),
        verdict,
        "api " + Changes.describe(api) + ", ingress " + Changes.describe(ingress));
  }

  private static Arbitrary<Change> diskEncryption() {
    String field = "config.diskEncryption";
    Arbitrary<String> enableOn =
        Arbitraries.of(
            "none",
            "all",
            "masters",
            "workers",
            "arbiters",
            "masters,workers",
            "masters,arbiters,workers");
    Arbitrary<String> mode = Arbitraries.of("tpmv2", "tang");
    return Arbitraries.oneOf(
        accepted(
            field,
            Combinators.combine(enableOn, mode, Values.text(0, 40))
                .as((e, m, t) -> Map.of("enableOn", e, "mode", m, "tangServers", t))),
        rejected(
            field,
            Arbitraries.of("everything", "masters,", "Masters", "none,all", "", "masters workers")
                .map(e -> Map.of("enableOn", e, "mode", "tpmv2"))),
        rejected(
            field,
            Arbitraries.of("luks", "", "TPMv2").map(m -> Map.of("enableOn", "all", "mode", m))));
  }
}
