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
Everything one provider runs: ServiceAccount, its ClusterRole from .rules and the binding, the
leader-election Role and binding, the Deployment and the metrics Service.
Called with (dict "root" $ "provider" "bootstrap" "values" .Values.bootstrap "rules" <list> "env" <list>
"volumes" <list>); each of "volumes" is mounted read-only: (dict "name" "mountPath" "configMap" <source>).
*/}}
{{- define "openshift-agent.provider" -}}
{{- $name := include "openshift-agent.fullname" . -}}
{{- $root := .root -}}
{{- $v := .values -}}
apiVersion: v1
kind: ServiceAccount
metadata:
  name: {{ $name }}
  namespace: {{ $root.Release.Namespace }}
  labels:
    {{- include "openshift-agent.labels" . | nindent 4 }}
---
apiVersion: rbac.authorization.k8s.io/v1
kind: ClusterRole
metadata:
  name: {{ $name }}
  labels:
    {{- include "openshift-agent.labels" . | nindent 4 }}
rules:
  {{- toYaml .rules | nindent 2 }}
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
            - --log-level={{ $root.Values.log.level }}
            - --log-format={{ $root.Values.log.format }}
            - --metrics-port={{ ternary $root.Values.metrics.port 0 $root.Values.metrics.enabled }}
            - --health-port=8081
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
          ports:
            {{- if $root.Values.metrics.enabled }}
            - name: metrics
              containerPort: {{ $root.Values.metrics.port }}
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
      volumes:
        - name: tmp
          emptyDir: {}
        {{- range .volumes }}
        - name: {{ .name }}
          configMap:
            {{- toYaml .configMap | nindent 12 }}
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
{{- if and $root.Values.metrics.enabled $root.Values.metrics.service.enabled }}
---
apiVersion: v1
kind: Service
metadata:
  name: {{ $name }}-metrics
  namespace: {{ $root.Release.Namespace }}
  labels:
    {{- include "openshift-agent.labels" . | nindent 4 }}
spec:
  type: ClusterIP
  selector:
    {{- include "openshift-agent.selectorLabels" . | nindent 4 }}
  ports:
    - name: metrics
      port: {{ $root.Values.metrics.port }}
      targetPort: metrics
      protocol: TCP
{{- end }}
{{- end -}}
