{{/* The name of everything a provider gets: <release>-<provider>, e.g. capoa-bootstrap. */}}
{{- define "openshift-agent.fullname" -}}
{{- printf "%s-%s" .root.Release.Name .provider | trunc 63 | trimSuffix "-" -}}
{{- end -}}

{{- define "openshift-agent.selectorLabels" -}}
app.kubernetes.io/name: openshift-agent
app.kubernetes.io/instance: {{ .root.Release.Name }}
app.kubernetes.io/component: {{ .provider }}-provider
{{- end -}}

{{- define "openshift-agent.labels" -}}
{{ include "openshift-agent.selectorLabels" . }}
app.kubernetes.io/version: {{ .root.Chart.AppVersion | quote }}
app.kubernetes.io/managed-by: {{ .root.Release.Service }}
helm.sh/chart: {{ printf "%s-%s" .root.Chart.Name .root.Chart.Version }}
{{- end -}}

{{/*
The watched namespaces whose Roles grant the namespaced rules, as a JSON list: those of
watchNamespace when rbac.namespaced, else none (the namespaced rules are granted cluster-wide).
*/}}
{{- define "openshift-agent.namespaces" -}}
{{- $namespaces := list -}}
{{- if .Values.rbac.namespaced -}}
{{- range splitList "," .Values.watchNamespace -}}
{{- with trim . }}{{ $namespaces = append $namespaces . }}{{ end -}}
{{- end -}}
{{- end -}}
{{- toJson $namespaces -}}
{{- end -}}

{{/* The --log-level spellings of older values, as -v. */}}
{{- define "openshift-agent.verbosity" -}}
{{- $levels := dict "ERROR" 1 "WARN" 1 "INFO" 3 "DEBUG" 6 "TRACE" 9 -}}
{{- if .Values.log.level -}}
{{- get $levels (upper .Values.log.level) -}}
{{- else -}}
{{- .Values.log.verbosity -}}
{{- end -}}
{{- end -}}

{{/*
Everything one provider runs: ServiceAccount, its roles and bindings, the leader-election Role and
binding, the Deployment, the metrics Service, and optionally a ServiceMonitor and a PodDisruptionBudget.
The roles: .rules (on namespaced kinds) and .clusterRules (on cluster-scoped kinds; the metrics
server's are added here) in one ClusterRole bound cluster-wide; or, in a namespaced install
(openshift-agent.namespaces), .clusterRules alone in it and .rules in a Role and RoleBinding in each
watched namespace.
Called with (dict "root" $ "provider" "bootstrap" "values" .Values.bootstrap "rules" <list>
"clusterRules" <list> "env" <list> "volumes" <list>); each of "volumes" is mounted read-only:
(dict "name" "mountPath" "configMap" <source>) or (dict "name" "mountPath" "secret" <source>).
*/}}
{{- define "openshift-agent.provider" -}}
{{- $name := include "openshift-agent.fullname" . -}}
{{- $root := .root -}}
{{- $v := .values -}}
{{- $m := $root.Values.metrics -}}
{{- /* The metrics server: who scrapes (TokenReview), may they (SubjectAccessReview), an OpenShift hub's TLS profile. */}}
{{- $clusterRules := concat (.clusterRules | default list) (list
  (dict "apiGroups" (list "authentication.k8s.io") "resources" (list "tokenreviews") "verbs" (list "create"))
  (dict "apiGroups" (list "authorization.k8s.io") "resources" (list "subjectaccessreviews") "verbs" (list "create"))
  (dict "apiGroups" (list "config.openshift.io") "resources" (list "apiservers") "verbs" (list "list" "watch"))) -}}
{{- $namespaces := include "openshift-agent.namespaces" $root | fromJsonArray -}}
{{- $rules := $clusterRules -}}
{{- if not $namespaces }}{{ $rules = concat .rules $clusterRules }}{{ end -}}
apiVersion: v1
kind: ServiceAccount
metadata:
  name: {{ $name }}
  namespace: {{ $root.Release.Namespace }}
  labels:
    {{- include "openshift-agent.labels" . | nindent 4 }}
  {{- with $v.serviceAccount.annotations }}
  annotations:
    {{- toYaml . | nindent 4 }}
  {{- end }}
---
apiVersion: rbac.authorization.k8s.io/v1
kind: ClusterRole
metadata:
  name: {{ $name }}
  labels:
    {{- include "openshift-agent.labels" . | nindent 4 }}
rules:
  {{- toYaml $rules | nindent 2 }}
---
apiVersion: rbac.authorization.k8s.io/v1
kind: ClusterRoleBinding
metadata:
  name: {{ $name }}
  labels:
    {{- include "openshift-agent.labels" . | nindent 4 }}
roleRef:
  apiGroup: rbac.authorization.k8s.io
  kind: ClusterRole
  name: {{ $name }}
subjects:
  - kind: ServiceAccount
    name: {{ $name }}
    namespace: {{ $root.Release.Namespace }}
{{- range $namespaces }}
---
apiVersion: rbac.authorization.k8s.io/v1
kind: Role
metadata:
  name: {{ $name }}
  namespace: {{ . }}
  labels:
    {{- include "openshift-agent.labels" $ | nindent 4 }}
rules:
  {{- toYaml $.rules | nindent 2 }}
---
apiVersion: rbac.authorization.k8s.io/v1
kind: RoleBinding
metadata:
  name: {{ $name }}
  namespace: {{ . }}
  labels:
    {{- include "openshift-agent.labels" $ | nindent 4 }}
roleRef:
  apiGroup: rbac.authorization.k8s.io
  kind: Role
  name: {{ $name }}
subjects:
  - kind: ServiceAccount
    name: {{ $name }}
    namespace: {{ $root.Release.Namespace }}
{{- end }}
{{- if $root.Values.leaderElection.enabled }}
---
apiVersion: rbac.authorization.k8s.io/v1
kind: Role
metadata:
  name: {{ $name }}-leader-election
  namespace: {{ $root.Release.Namespace }}
  labels:
    {{- include "openshift-agent.labels" . | nindent 4 }}
rules:
  # The Lease is taken (create), renewed (patch: the Kubernetes client's lock) and, on a clean stop,
  # released (holder emptied by update).
  - apiGroups: [coordination.k8s.io]
    resources: [leases]
    verbs: [get, create, update, patch]
---
apiVersion: rbac.authorization.k8s.io/v1
kind: RoleBinding
metadata:
  name: {{ $name }}-leader-election
  namespace: {{ $root.Release.Namespace }}
  labels:
    {{- include "openshift-agent.labels" . | nindent 4 }}
roleRef:
  apiGroup: rbac.authorization.k8s.io
  kind: Role
  name: {{ $name }}-leader-election
subjects:
  - kind: ServiceAccount
    name: {{ $name }}
    namespace: {{ $root.Release.Namespace }}
{{- end }}
---
apiVersion: apps/v1
kind: Deployment
metadata:
  name: {{ $name }}
  namespace: {{ $root.Release.Namespace }}
  labels:
    {{- include "openshift-agent.labels" . | nindent 4 }}
spec:
  replicas: {{ $v.replicas }}
  selector:
    matchLabels:
      {{- include "openshift-agent.selectorLabels" . | nindent 6 }}
  template:
    metadata:
      labels:
        {{- include "openshift-agent.selectorLabels" . | nindent 8 }}
      {{- with $root.Values.podAnnotations }}
      annotations:
        {{- toYaml . | nindent 8 }}
      {{- end }}
    spec:
      serviceAccountName: {{ $name }}
      {{- with $v.priorityClassName }}
      priorityClassName: {{ . }}
      {{- end }}
      {{- with $root.Values.imagePullSecrets }}
      imagePullSecrets:
        {{- toYaml . | nindent 8 }}
      {{- end }}
      securityContext:
        runAsNonRoot: true
        seccompProfile:
          type: RuntimeDefault
      terminationGracePeriodSeconds: 30
      containers:
        - name: manager
          image: "{{ $v.image.repository }}:{{ $v.image.tag | default $root.Chart.AppVersion }}"
          imagePullPolicy: {{ $v.image.pullPolicy }}
          args:
            - --leader-elect={{ $root.Values.leaderElection.enabled }}
            - --leader-election-namespace=$(POD_NAMESPACE)
            {{- with $root.Values.watchNamespace }}
            - --namespace={{ . }}
            {{- end }}
            {{- with $root.Values.watchFilter }}
            - --watch-filter={{ . }}
            {{- end }}
            - -v={{ include "openshift-agent.verbosity" $root }}
            - --logging-format={{ $root.Values.log.format }}
            {{- if $m.enabled }}
            - --diagnostics-address=:{{ $m.port }}
            - --insecure-diagnostics={{ not $m.secure }}
            {{- with $m.tls.minVersion }}
            - --tls-min-version={{ . }}
            {{- end }}
            {{- with $m.tls.cipherSuites }}
            - --tls-cipher-suites={{ join "," . }}
            {{- end }}
            {{- if $m.certSecret }}
            - --metrics-cert-path=/etc/openshift-agent/metrics-cert
            {{- end }}
            {{- else }}
            - --diagnostics-address=0
            {{- end }}
            - --health-probe-bind-address=:8081
            {{- range $v.extraArgs }}
            - {{ . | quote }}
            {{- end }}
          env:
            - name: POD_NAME
              valueFrom:
                fieldRef:
                  fieldPath: metadata.name
            - name: POD_NAMESPACE
              valueFrom:
                fieldRef:
                  fieldPath: metadata.namespace
            {{- with .env }}
            {{- toYaml . | nindent 12 }}
            {{- end }}
            {{- with $v.extraEnv }}
            {{- toYaml . | nindent 12 }}
            {{- end }}
          ports:
            {{- if $m.enabled }}
            - name: metrics
              containerPort: {{ $m.port }}
              protocol: TCP
            {{- end }}
            - name: health
              containerPort: 8081
              protocol: TCP
          livenessProbe:
            httpGet:
              path: /healthz
              port: health
            initialDelaySeconds: 15
            periodSeconds: 20
          readinessProbe:
            httpGet:
              path: /readyz
              port: health
            initialDelaySeconds: 5
            periodSeconds: 10
          securityContext:
            allowPrivilegeEscalation: false
            readOnlyRootFilesystem: true
            runAsNonRoot: true
            capabilities:
              drop: [ALL]
            seccompProfile:
              type: RuntimeDefault
          resources:
            {{- toYaml $v.resources | nindent 12 }}
          volumeMounts:
            # The only writable place: the JVM's temporary files.
            - name: tmp
              mountPath: /tmp
            {{- range .volumes }}
            - name: {{ .name }}
              mountPath: {{ .mountPath }}
              readOnly: true
            {{- end }}
            {{- if and $m.enabled $m.certSecret }}
            - name: metrics-cert
              mountPath: /etc/openshift-agent/metrics-cert
              readOnly: true
            {{- end }}
      volumes:
        - name: tmp
          emptyDir: {}
        {{- if and $m.enabled $m.certSecret }}
        - name: metrics-cert
          secret:
            secretName: {{ $m.certSecret }}
        {{- end }}
        {{- range .volumes }}
        - name: {{ .name }}
          {{- if .secret }}
          secret:
            {{- toYaml .secret | nindent 12 }}
          {{- else }}
          configMap:
            {{- toYaml .configMap | nindent 12 }}
          {{- end }}
        {{- end }}
      {{- with $v.nodeSelector }}
      nodeSelector:
        {{- toYaml . | nindent 8 }}
      {{- end }}
      {{- with $v.tolerations }}
      tolerations:
        {{- toYaml . | nindent 8 }}
      {{- end }}
      {{- with $v.affinity }}
      affinity:
        {{- toYaml . | nindent 8 }}
      {{- end }}
{{- if and $m.enabled $m.service.enabled }}
---
apiVersion: v1
kind: Service
metadata:
  name: {{ $name }}-metrics
  namespace: {{ $root.Release.Namespace }}
  labels:
    {{- include "openshift-agent.labels" . | nindent 4 }}
  {{- with $m.service.annotations }}
  annotations:
    {{- toYaml . | nindent 4 }}
  {{- end }}
spec:
  type: ClusterIP
  selector:
    {{- include "openshift-agent.selectorLabels" . | nindent 4 }}
  ports:
    - name: metrics
      port: {{ $m.port }}
      targetPort: metrics
      protocol: TCP
{{- if $m.serviceMonitor.enabled }}
---
apiVersion: monitoring.coreos.com/v1
kind: ServiceMonitor
metadata:
  name: {{ $name }}
  namespace: {{ $root.Release.Namespace }}
  labels:
    {{- include "openshift-agent.labels" . | nindent 4 }}
    {{- with $m.serviceMonitor.labels }}
    {{- toYaml . | nindent 4 }}
    {{- end }}
spec:
  selector:
    matchLabels:
      {{- include "openshift-agent.selectorLabels" . | nindent 6 }}
  endpoints:
    - port: metrics
      path: /metrics
      interval: {{ $m.serviceMonitor.interval }}
      {{- if $m.secure }}
      scheme: https
      {{- with $m.serviceMonitor.bearerTokenFile }}
      bearerTokenFile: {{ . }}
      {{- end }}
      {{- with $m.serviceMonitor.authorization }}
      authorization:
        {{- toYaml . | nindent 8 }}
      {{- end }}
      {{- with $m.serviceMonitor.tlsConfig }}
      tlsConfig:
        {{- toYaml . | nindent 8 }}
      {{- end }}
      {{- else }}
      scheme: http
      {{- end }}
{{- end }}
{{- end }}
{{- if $root.Values.podDisruptionBudget.enabled }}
---
apiVersion: policy/v1
kind: PodDisruptionBudget
metadata:
  name: {{ $name }}
  namespace: {{ $root.Release.Namespace }}
  labels:
    {{- include "openshift-agent.labels" . | nindent 4 }}
spec:
  {{- with $root.Values.podDisruptionBudget }}
  {{- if .maxUnavailable }}
  maxUnavailable: {{ .maxUnavailable }}
  {{- else }}
  minAvailable: {{ .minAvailable }}
  {{- end }}
  {{- end }}
  selector:
    matchLabels:
      {{- include "openshift-agent.selectorLabels" . | nindent 6 }}
{{- end }}
{{- end -}}
