"""Turns a rendered provider manifest (stdin) into clusterctl components (stdout): the settings users tune become
${VARIABLE:=default}. Fails when an expected line is missing, so a change to config/ cannot silently drop one."""
import re
import sys

version, image_variable = sys.argv[1], sys.argv[2]
text = sys.stdin.read()


def replace(pattern, replacement, optional=False):
    global text
    text, count = re.subn(pattern, replacement, text, flags=re.MULTILINE)
    if count != 1 and not (optional and count == 0):
        sys.exit(f"expected one match of {pattern!r} in the rendered manifests, found {count}")


replace(r"^(\s+image: )(\S+?):\S+$", lambda m: f"{m[1]}${{{image_variable}:={m[2]}:v{version}}}")
replace(r"^(\s+- -v=)(\S+)$", r"\1${OPENSHIFT_AGENT_LOG_VERBOSITY:=\2}")
# As Cluster API's own components: CAPI_DIAGNOSTICS_ADDRESS, CAPI_INSECURE_DIAGNOSTICS.
replace(r"^(\s+- --diagnostics-address=)(\S+)$", r"\1${OPENSHIFT_AGENT_DIAGNOSTICS_ADDRESS:=\2}")
replace(r"^(\s+- --insecure-diagnostics=)(\S+)$", r"\1${OPENSHIFT_AGENT_INSECURE_DIAGNOSTICS:=\2}")
# The bootstrap provider's assisted-service settings. clusterctl treats an empty default as unset, so an empty
# value is written as the YAML literal "" (unquoted variable, quoted default).
for name in ["ASSISTED_CA_BUNDLE_RESOURCE", "ASSISTED_CA_BUNDLE_NAMESPACE", "ASSISTED_CA_BUNDLE_NAME",
             "ASSISTED_CA_BUNDLE_KEY", "ASSISTED_SERVICE_URL", "DEFAULT_BOOT_MODE"]:
    def variable(m, name=name):
        default = m[2].strip("'\"") or '""'
        return f"{m[1]}${{OPENSHIFT_AGENT_{name}:={default}}}"
    replace(rf"(- name: {name}\n\s+value: )(.*)$", variable, optional=image_variable != "OPENSHIFT_AGENT_BOOTSTRAP_IMAGE")
# A namespaced install (docs/operations.md, "A namespaced install"): the namespaces to watch, and the manager's
# namespaced rules bound by a RoleBinding in the provider's namespace instead of cluster-wide; clusterctl puts every
# namespaced object into the provider's namespace, so the RoleBindings of the watched namespaces are a step after
# clusterctl init.
replace(r"(- name: WATCH_NAMESPACE\n\s+value: )(.*)$", r'\1${OPENSHIFT_AGENT_WATCH_NAMESPACE:=""}')
replace(r"^kind: ClusterRoleBinding\n(?=metadata:\n(?:  .*\n)*?  name: \S+-manager\n)",
        "kind: ${OPENSHIFT_AGENT_MANAGER_BINDING_KIND:=ClusterRoleBinding}\n")
sys.stdout.write(text)
