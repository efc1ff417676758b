# One set of functions, run as Knative Services in one cluster (the functions' cluster), governs any number of other
# clusters, which call them over HTTPS through the Knative external domain, each with its own path tokens.

locals {
  catalog     = jsondecode(file(coalesce(var.catalog_file, "${path.module}/../../catalog/catalog.json")))
  knative_dir = coalesce(var.knative_dir, "${path.module}/../../../knative")
  registered  = var.functions == null ? keys(local.catalog.functions) : var.functions

  # The Knative Service serving each registered function: its own, else the bundle behind default_url.
  service_of = { for f in local.registered : f => contains(keys(var.function_urls), f) ? f : var.default_service }
  services   = toset(values(local.service_of))

  # The committed manifests (knative/<service>.yaml), as the functions were deployed.
  manifests = { for s in local.services : s => yamldecode(file("${local.knative_dir}/${s}.yaml")) }

  # A function requires a path token when its Service reads path tokens (TOLLGATE_AUTH_PATH_TOKEN_FILES): the plan
  # then refuses a cluster that has none for it, instead of a cluster whose every call is refused.
  caller_credentials = {
    for f, s in local.service_of : f => contains([for e in try(local.manifests[s].spec.template.spec.containers[0].env, []) : e.name], "TOLLGATE_AUTH_PATH_TOKEN_FILES") ? "path-token" : "api-server"
  }
}

# The modes per Knative Service: a bundle's functions share one.
module "enforcement" {
  source = "../../modules/enforcement"

  enforcement = var.enforcement
  services    = { for s in local.services : s => [for f, sv in local.service_of : f if sv == s] }
}

module "registration" {
  source = "../../modules/cluster-registration"

  catalog             = local.catalog
  clusters            = var.clusters
  path_tokens         = var.path_tokens
  bearer_tokens       = var.bearer_tokens
  reader_tokens       = var.reader_tokens
  caller_credentials  = local.caller_credentials
  function_urls       = var.function_urls
  default_url         = var.default_url
  functions           = var.functions
  ca_bundle           = var.ca_bundle_file == null ? null : file(var.ca_bundle_file)
  overrides           = var.overrides
  exceptions          = yamldecode(var.exceptions_file == null ? "exceptions: []" : file(var.exceptions_file)).exceptions
  policy_rules        = { for f, p in var.policy_rules_files : f => jsondecode(file(p)) }
  timing              = var.timing
  functions_namespace = var.functions_namespace
  param_resources     = var.param_resources
}

locals {
  clusters_dir   = "/etc/tollgate/clusters"
  callers_dir    = "/var/run/tollgate/callers"
  exceptions_dir = "/etc/tollgate/exceptions"

  # The exceptions file, also for the functions: each applies the exceptions for it that reach it (those the API
  # server cannot apply on a cluster's version, exceptions_applied_by_function; shared/function-runtime README,
  # "Exceptions"). Mounted from a ConfigMap; its hash on the Services' templates makes a new revision when it changes,
  # since the functions read it when they start.
  exceptions_yaml = var.exceptions_file == null ? null : file(var.exceptions_file)
  exceptions_config_map = local.exceptions_yaml == null ? null : {
    apiVersion = "v1"
    kind       = "ConfigMap"
    metadata   = { name = "tollgate-exceptions", namespace = var.functions_namespace, labels = { "app.kubernetes.io/managed-by" = "tollgate-terraform" } }
    data       = { "exceptions.yaml" = local.exceptions_yaml }
  }

  # The Services that check path tokens (their committed manifest reads TOLLGATE_AUTH_PATH_TOKEN_FILES) get, instead,
  # one token file per governed cluster (tollgate.auth.clusters-dir): the runtime maps each token to its cluster, so
  # decision logs and metrics name it, the CEL functions read that cluster's namespaces, and one cluster's token is
  # rotated or revoked without touching another's. A Service serving several functions holds all their tokens.
  token_services = toset([for s, m in local.manifests : s if contains([for e in try(m.spec.template.spec.containers[0].env, []) : e.name], "TOLLGATE_AUTH_PATH_TOKEN_FILES")])
  callers_secrets = {
    for s in local.token_services : s => {
      apiVersion = "v1"
      kind       = "Secret"
      type       = "Opaque"
      metadata   = { name = "tollgate-callers-${s}", namespace = var.functions_namespace, labels = { "app.kubernetes.io/managed-by" = "tollgate-terraform" } }
      stringData = merge([
        for kind, files in { path-tokens = module.registration.path_token_files, bearer-tokens = module.registration.bearer_token_files } : {
          for c in sort(keys(var.clusters)) : "${c}.${kind}" => join("", distinct([
            for f, sv in local.service_of : files[f]["${c}.${kind}"] if sv == s && can(files[f]["${c}.${kind}"])
          ])) if anytrue([for f, sv in local.service_of : sv == s && can(files[f]["${c}.${kind}"])]) || kind == "path-tokens"
        }
      ]...)
    }
  }

  # Per Service, the shortest request timeout and deadline of the functions it serves (a bundle serves several).
  service_timeouts = {
    for s in local.services : s => {
      request_timeout_seconds = min([for f, sv in local.service_of : module.registration.timeouts[f].request_timeout_seconds if sv == s]...)
      internal_deadline_ms    = min([for f, sv in local.service_of : module.registration.timeouts[f].internal_deadline_ms if sv == s]...)
    }
  }

  # The functions list the callers' files when they start (token contents are re-read, new files are not), so the
  # files' names on the template make adding or removing a cluster a new revision; a rotated token is not one.
  template_metadata = {
    for s, m in local.manifests : s => merge(try(m.spec.template.metadata, {}), { annotations = merge(try(m.spec.template.metadata.annotations, {}),
      local.exceptions_yaml == null ? {} : { "tollgate.dev/exceptions-sha256" = sha256(local.exceptions_yaml) },
    contains(local.token_services, s) ? { "tollgate.dev/callers" = join(",", sort(nonsensitive(keys(local.callers_secrets[s].stringData)))) } : {}) })
  }

  # The committed manifests with what Terraform decides: the namespace (functions_namespace; the committed manifests
  # name none, so kubectl would apply them in its context's), the image the deployer deployed (var.images), the request
  # timeout and the deadline from the same budget as the webhooks' timeoutSeconds (no hand-run step), the enforcement
  # modes (var.enforcement, no rebuild), and, for the
  # functions that read namespaces (the CEL ones: they run as a ServiceAccount of their own), the governed clusters'
  # connections mounted where tollgate.clusters.dir points.
  knative_services = {
    for s, m in local.manifests : s => merge(m, { metadata = merge(m.metadata, { namespace = var.functions_namespace }), spec = merge(m.spec, { template = merge(m.spec.template, { metadata = local.template_metadata[s], spec = merge(m.spec.template.spec, {
      timeoutSeconds = local.service_timeouts[s].request_timeout_seconds
      containers = [for i, c in m.spec.template.spec.containers : i > 0 ? c : merge(c, {
        image = lookup(var.images, s, c.image)
        env = concat(
          [for e in try(c.env, []) : e if !contains(["TOLLGATE_DEADLINE_TIMEOUT", "TOLLGATE_CLUSTERS_DIR", "TOLLGATE_AUTH_PATH_TOKEN_FILES", "TOLLGATE_AUTH_CLUSTERS_DIR", "TOLLGATE_ENFORCEMENT_MODE", "TOLLGATE_ENFORCEMENT_CLUSTER_MODES", "TOLLGATE_EXCEPTIONS_FILE"], e.name)],
          [{ name = "TOLLGATE_DEADLINE_TIMEOUT", value = "${local.service_timeouts[s].internal_deadline_ms}ms" }],
          [for k in sort(keys(module.enforcement.environment[s])) : { name = k, value = module.enforcement.environment[s][k] }],
          can(m.spec.template.spec.serviceAccountName) ? [{ name = "TOLLGATE_CLUSTERS_DIR", value = local.clusters_dir }] : [],
          contains(local.token_services, s) ? [{ name = "TOLLGATE_AUTH_CLUSTERS_DIR", value = local.callers_dir }] : [],
          local.exceptions_yaml == null ? [] : [{ name = "TOLLGATE_EXCEPTIONS_FILE", value = "${local.exceptions_dir}/exceptions.yaml" }],
        )
        volumeMounts = concat(
          [for v in try(c.volumeMounts, []) : v if !contains(["tollgate-clusters", "tollgate-callers", "tollgate-exceptions"], v.name) && !(contains(local.token_services, s) && v.name == "tollgate-auth")],
          can(m.spec.template.spec.serviceAccountName) ? [{ name = "tollgate-clusters", mountPath = local.clusters_dir, readOnly = true }] : [],
          contains(local.token_services, s) ? [{ name = "tollgate-callers", mountPath = local.callers_dir, readOnly = true }] : [],
          local.exceptions_yaml == null ? [] : [{ name = "tollgate-exceptions", mountPath = local.exceptions_dir, readOnly = true }],
        )
      })]
      volumes = concat(
        [for v in try(m.spec.template.spec.volumes, []) : v if !contains(["tollgate-clusters", "tollgate-callers", "tollgate-exceptions"], v.name) && !(contains(local.token_services, s) && v.name == "tollgate-auth")],
        can(m.spec.template.spec.serviceAccountName) ? [{ name = "tollgate-clusters", secret = { secretName = "tollgate-clusters", defaultMode = 292 } }] : [],
        contains(local.token_services, s) ? [{ name = "tollgate-callers", secret = { secretName = "tollgate-callers-${s}", defaultMode = 292 } }] : [],
        local.exceptions_yaml == null ? [] : [{ name = "tollgate-exceptions", configMap = { name = "tollgate-exceptions" } }],
      )
    }) }) }) })
  }
}

output "timeouts" {
  description = "Per function: webhook timeoutSeconds, the Knative request timeout and the function's deadline (set in knative_manifests_yaml)."
  value       = module.registration.timeouts
}

output "webhooks" {
  description = "Per cluster, what is registered: function, type, path, failurePolicy, timeoutSeconds per webhook."
  value       = module.registration.webhooks
}

output "knative_services" {
  description = "The Knative Services with the request timeout, deadline, clusters' connections and per-cluster token files Terraform decided (no secret in them)."
  value       = local.knative_services
}

output "knative_manifests_yaml" {
  description = "For the functions' cluster: the clusters Secret, each Service's per-cluster token files and the Knative Services (terraform output -raw knative_manifests_yaml | kubectl --context functions apply -f -)."
  value = join("---\n", concat([module.registration.clusters_secret_yaml],
    local.exceptions_config_map == null ? [] : [yamlencode(local.exceptions_config_map)],
    [for s in sort(keys(local.callers_secrets)) : yamlencode(local.callers_secrets[s])],
  [for s in sort(keys(local.knative_services)) : yamlencode(local.knative_services[s])]))
  sensitive = true
}

output "cluster_manifests_yaml" {
  description = "Per governed cluster: its read-only ServiceAccount and RBAC, then its webhook configurations (terraform output -json cluster_manifests_yaml | jq -r .<cluster> | kubectl --context <cluster> apply -f -)."
  value       = module.registration.cluster_manifests_yaml
  sensitive   = true
}

output "admission_kubeconfigs" {
  description = "Per cluster with bearer_tokens: its API server's admission kubeconfig (terraform output -json admission_kubeconfigs | jq -r .<cluster>), to put at the path admission_configuration_yaml names on that control plane."
  value       = module.registration.admission_kubeconfigs
  sensitive   = true
}

output "admission_configuration_yaml" {
  description = "The AdmissionConfiguration for --admission-control-config-file on the control planes of the clusters with bearer_tokens."
  value       = module.registration.admission_configuration_yaml
}

output "missing_reader_tokens" {
  description = "Governed clusters whose connection is not in the functions' Secret yet, with the command that reads their reader token."
  value       = module.registration.missing_reader_tokens
}

output "exceptions_applied_by_function" {
  description = "Per cluster, per function: exceptions its API server cannot apply on its version (the requests reach the function)."
  value       = module.registration.exceptions_applied_by_function
}

output "policy_rules" {
  description = "Per cluster, per function registered from policy_rules_files: the policies it covers and what the function applies that the webhook cannot select."
  value       = module.registration.policy_rules
}

output "exceptions_advice" {
  description = "Per cluster older than 1.28: exceptions by namespace name or user that the function applies (the requests still reach it), and the label form that keeps them away."
  value       = module.registration.exceptions_advice
}

output "enforcement_softened" {
  description = "Every enforcement setting that softens (warn, audit) => every function it softens; a cluster's mode softens every function of the bundle."
  value       = module.enforcement.softened
}

output "exceptions_expired" {
  description = "Exceptions past their expiry, dropped from every webhook: remove or renew them."
  value       = module.registration.exceptions_expired
}
