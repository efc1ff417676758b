# Inputs of the pure rendering module. Every check the API server makes on a webhook configuration that depends only
# on these inputs is a validation here, so `terraform plan` fails before a cluster rejects the object.

variable "catalog" {
  description = "The registration catalog: jsondecode(file(\"<repo>/terraform/catalog/catalog.json\")), generated from functions/*/webhook.yaml."
  type = object({
    generated_by = optional(string)
    # CRD conversion webhooks (rendered by modules/crd-conversion): read here only so that function_urls and
    # path_tokens may name their functions too, and one map serves both modules.
    conversions = optional(map(object({ function = string })), {})
    functions = map(object({
      webhooks = list(object({
        type = string
        path = string
        webhook = object({
          name = string
          rules = optional(list(object({
            operations  = optional(list(string))
            apiGroups   = optional(list(string))
            apiVersions = optional(list(string))
            resources   = optional(list(string))
            scope       = optional(string)
          })))
          failurePolicy = optional(string)
          matchPolicy   = optional(string)
          namespaceSelector = optional(object({
            matchLabels = optional(map(string))
            matchExpressions = optional(list(object({
              key      = string
              operator = string
              values   = optional(list(string))
            })))
          }))
          objectSelector = optional(object({
            matchLabels = optional(map(string))
            matchExpressions = optional(list(object({
              key      = string
              operator = string
              values   = optional(list(string))
            })))
          }))
          sideEffects             = optional(string)
          timeoutSeconds          = optional(number)
          admissionReviewVersions = optional(list(string))
          matchConditions = optional(list(object({
            name       = string
            expression = string
          })))
          reinvocationPolicy = optional(string)
        })
      }))
    }))
  })

  validation {
    condition     = length(var.catalog.functions) > 0 && alltrue([for fn in values(var.catalog.functions) : length(fn.webhooks) > 0])
    error_message = "The catalog must list at least one function, each with at least one webhook."
  }
  validation {
    condition = alltrue(flatten([for f, fn in var.catalog.functions : [
      for e in fn.webhooks : contains(["validating", "mutating"], e.type)
    ]]))
    error_message = "Every catalog entry's type must be validating or mutating."
  }
  validation {
    condition = alltrue(flatten([for f, fn in var.catalog.functions : [
      for e in fn.webhooks : can(regex("^/${f}(/[^/?#]+)*$", e.path))
    ]]))
    error_message = "Every catalog entry's path must be /<function> or below it, without query, fragment, empty segments or trailing '/'."
  }
  validation {
    condition = alltrue(flatten([for f, fn in var.catalog.functions : [
      for e in fn.webhooks : length(e.webhook.name) <= 253 && can(regex("^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?){2,}$", e.webhook.name))
    ]]))
    error_message = "Every webhook name must be fully qualified: a lowercase DNS subdomain with at least three segments, e.g. require-labels.tollgate.dev."
  }
  validation {
    condition = length(flatten([for f, fn in var.catalog.functions : [for e in fn.webhooks : e.webhook.name]])) == length(distinct(flatten([
      for f, fn in var.catalog.functions : [for e in fn.webhooks : e.webhook.name]
    ])))
    error_message = "Webhook names must be unique across the catalog."
  }
  validation {
    condition = alltrue(flatten([for f, fn in var.catalog.functions : [
      for e in fn.webhooks : contains(["None", "NoneOnDryRun"], coalesce(e.webhook.sideEffects, "missing"))
    ]]))
    error_message = "Every webhook's sideEffects must be None or NoneOnDryRun (the API server requires it for admissionregistration.k8s.io/v1)."
  }
  validation {
    condition = alltrue(flatten([for f, fn in var.catalog.functions : [
      for e in fn.webhooks : e.webhook.failurePolicy == null || contains(["Fail", "Ignore"], coalesce(e.webhook.failurePolicy, "Fail"))
    ]]))
    error_message = "A declared failurePolicy must be Fail or Ignore."
  }
  validation {
    condition = alltrue(flatten([for f, fn in var.catalog.functions : [
      for e in fn.webhooks : e.webhook.matchPolicy == null || contains(["Exact", "Equivalent"], coalesce(e.webhook.matchPolicy, "Equivalent"))
    ]]))
    error_message = "A declared matchPolicy must be Exact or Equivalent."
  }
  validation {
    condition = alltrue(flatten([for f, fn in var.catalog.functions : [
      for e in fn.webhooks : e.webhook.timeoutSeconds == null || try(e.webhook.timeoutSeconds >= 1 && e.webhook.timeoutSeconds <= 30 && floor(e.webhook.timeoutSeconds) == e.webhook.timeoutSeconds, false)
    ]]))
    error_message = "A declared timeoutSeconds must be a whole number between 1 and 30."
  }
  validation {
    condition = alltrue(flatten([for f, fn in var.catalog.functions : [
      for e in fn.webhooks : e.webhook.reinvocationPolicy == null || (e.type == "mutating" && contains(["Never", "IfNeeded"], coalesce(e.webhook.reinvocationPolicy, "Never")))
    ]]))
    error_message = "reinvocationPolicy is for mutating webhooks only, and must be Never or IfNeeded."
  }
  validation {
    condition = alltrue(flatten([for f, fn in var.catalog.functions : [
      for e in fn.webhooks : length(coalesce(e.webhook.admissionReviewVersions, [])) > 0 && length(setsubtract(coalesce(e.webhook.admissionReviewVersions, []), ["v1", "v1beta1"])) == 0
    ]]))
    error_message = "Every webhook needs admissionReviewVersions, a non-empty list of known versions (v1, v1beta1)."
  }
  validation {
    condition = alltrue(flatten([for f, fn in var.catalog.functions : [
      for e in fn.webhooks : length(coalesce(e.webhook.matchConditions, [])) <= 64 && length(distinct([for c in coalesce(e.webhook.matchConditions, []) : c.name])) == length(coalesce(e.webhook.matchConditions, []))
    ]]))
    error_message = "A webhook may declare at most 64 matchConditions, with unique names."
  }
}

variable "function_urls" {
  description = "Base HTTPS URL of each function (function name => URL), e.g. the Knative Service URL or the Lambda function URL. The webhook URL is this plus the entry's path (and the path token, when set)."
  type        = map(string)
  default     = {}

  validation {
    condition     = alltrue([for u in values(var.function_urls) : startswith(u, "https://")])
    error_message = "Function URLs must use https:// (the API server only calls webhooks over HTTPS)."
  }
  validation {
    condition     = alltrue([for u in values(var.function_urls) : !can(regex("^https://[^/?#]*@", u))])
    error_message = "Function URLs must not contain user info (user:password@); the API server rejects it."
  }
  validation {
    condition     = alltrue([for u in values(var.function_urls) : !strcontains(u, "?")])
    error_message = "Function URLs must not contain a query; the API server rejects it."
  }
  validation {
    condition     = alltrue([for u in values(var.function_urls) : !strcontains(u, "#")])
    error_message = "Function URLs must not contain a fragment; the API server rejects it."
  }
  validation {
    condition     = alltrue([for u in values(var.function_urls) : can(regex("^https://[^/?#@:]+(:[0-9]+)?(/[^?#]*)?$", u))])
    error_message = "Function URLs must be https://<host>[:port][/path]."
  }
  validation {
    condition = var.default_url != null || length(setsubtract([
      for f in keys(var.catalog.functions) : f if(var.functions == null || contains(coalesce(var.functions, []), f)) && try(var.overrides[f].enabled, true)
    ], keys(var.function_urls))) == 0
    error_message = "No base URL for function(s) ${join(", ", setsubtract([for f in keys(var.catalog.functions) : f if(var.functions == null || contains(coalesce(var.functions, []), f)) && try(var.overrides[f].enabled, true)], keys(var.function_urls)))}: add them to function_urls, set default_url, or leave them out (variable functions, or overrides[name].enabled = false)."
  }
  validation {
    condition     = length(setsubtract(keys(var.function_urls), concat(keys(var.catalog.functions), [for c in values(var.catalog.conversions) : c.function]))) == 0
    error_message = "function_urls names functions that are not in the catalog: ${join(", ", setsubtract(keys(var.function_urls), concat(keys(var.catalog.functions), [for c in values(var.catalog.conversions) : c.function])))}."
  }
}

variable "default_url" {
  description = "Base HTTPS URL for catalog functions missing from function_urls, e.g. the all-in-one bundle that serves every function's path. null: every selected function needs an entry in function_urls."
  type        = string
  default     = null

  validation {
    condition     = var.default_url == null || can(regex("^https://[^/?#@:]+(:[0-9]+)?(/[^?#]*)?$", coalesce(var.default_url, "-")))
    error_message = "default_url must be https://<host>[:port][/path], without user info, query or fragment."
  }
}

variable "functions" {
  description = "The catalog functions to register; null registers every function in the catalog."
  type        = list(string)
  default     = null

  validation {
    condition     = var.functions == null || length(setsubtract(coalesce(var.functions, []), keys(var.catalog.functions))) == 0
    error_message = "functions names functions that are not in the catalog: ${join(", ", setsubtract(coalesce(var.functions, []), keys(var.catalog.functions)))}."
  }
}

variable "ca_bundle" {
  description = "PEM certificate(s) the API server uses to verify the functions' TLS certificates. null: the API server's system trust roots (enough for public CAs such as Lambda function URLs)."
  type        = string
  default     = null

  validation {
    condition     = var.ca_bundle == null || strcontains(coalesce(var.ca_bundle, "-"), "-----BEGIN CERTIFICATE-----")
    error_message = "ca_bundle must be PEM text with at least one -----BEGIN CERTIFICATE----- block (not base64 of it: the module encodes it)."
  }
}

variable "path_tokens" {
  description = "Secret path token per function (function name => token). When set, the webhook URL is <base URL>/<token><path>; the function runtime (tollgate.auth.path-token) checks and strips that first segment. For API servers that cannot be given credentials."
  type        = map(string)
  default     = {}
  sensitive   = true

  validation {
    condition     = alltrue([for t in values(var.path_tokens) : can(regex("^[A-Za-z0-9_-]{16,256}$", t))])
    error_message = "Path tokens must be 16 to 256 characters from A-Z a-z 0-9 _ - (one URL path segment, hard to guess)."
  }
  validation {
    condition     = length(setsubtract(keys(var.path_tokens), concat(keys(var.catalog.functions), [for c in values(var.catalog.conversions) : c.function]))) == 0
    error_message = "path_tokens names functions that are not in the catalog: ${join(", ", nonsensitive(setsubtract(keys(var.path_tokens), concat(keys(var.catalog.functions), [for c in values(var.catalog.conversions) : c.function]))))}."
  }
}

variable "caller_credentials" {
  description = "Per function, the caller credential its deployment requires (function name => kind): \"path-token\" (the function checks TOLLGATE_AUTH_PATH_TOKEN_*: its webhook URLs must carry path_tokens[function]), \"api-server\" (a bearer token or client certificate from the API server's admission kubeconfig, outside this module) or \"none\". A registered function marked path-token without a path token is a plan error: its every call would be refused (401) and, under failurePolicy Fail, every matching request with it. Functions not listed are not checked."
  type        = map(string)
  default     = {}

  validation {
    condition     = alltrue([for c in values(var.caller_credentials) : contains(["path-token", "api-server", "none"], c)])
    error_message = "caller_credentials values must be \"path-token\", \"api-server\" or \"none\"."
  }
  validation {
    condition = length([for f, c in var.caller_credentials : f if c == "path-token"
      && (var.functions == null || contains(coalesce(var.functions, ["-"]), f)) && contains(keys(var.catalog.functions), f)
    && !contains(nonsensitive(keys(var.path_tokens)), f)]) == 0
    error_message = "These functions require a path token (caller_credentials) but path_tokens has none for them, so the API server's every call would be refused: ${join(", ", [for f, c in var.caller_credentials : f if c == "path-token" && (var.functions == null || contains(coalesce(var.functions, ["-"]), f)) && contains(keys(var.catalog.functions), f) && !contains(nonsensitive(keys(var.path_tokens)), f)])}. Give each its token in path_tokens (the same one the function reads from TOLLGATE_AUTH_PATH_TOKEN_FILES)."
  }
}

variable "overrides" {
  description = "Per-function changes to what the function declares (function name => changes), applied to each of its webhooks."
  type = map(object({
    enabled         = optional(bool, true)
    failure_policy  = optional(string)
    timeout_seconds = optional(number)
    # Added to the declared selectors: matchLabels merged, matchExpressions appended (all must hold).
    namespace_selector = optional(object({
      matchLabels = optional(map(string), {})
      matchExpressions = optional(list(object({
        key      = string
        operator = string
        values   = optional(list(string))
      })), [])
    }), {})
    object_selector = optional(object({
      matchLabels = optional(map(string), {})
      matchExpressions = optional(list(object({
        key      = string
        operator = string
        values   = optional(list(string))
      })), [])
    }), {})
    # Appended to the declared matchConditions (CEL, evaluated by the API server).
    match_conditions = optional(list(object({
      name       = string
      expression = string
    })), [])
  }))
  default = {}

  validation {
    condition     = length(setsubtract(keys(var.overrides), keys(var.catalog.functions))) == 0
    error_message = "overrides names functions that are not in the catalog: ${join(", ", setsubtract(keys(var.overrides), keys(var.catalog.functions)))}."
  }
  validation {
    condition     = alltrue([for o in values(var.overrides) : o.failure_policy == null || contains(["Fail", "Ignore"], coalesce(o.failure_policy, "-"))])
    error_message = "failure_policy must be Fail or Ignore."
  }
  validation {
    condition     = alltrue([for o in values(var.overrides) : o.timeout_seconds == null || try(o.timeout_seconds >= 1 && o.timeout_seconds <= 30 && floor(o.timeout_seconds) == o.timeout_seconds, false)])
    error_message = "timeout_seconds must be a whole number between 1 and 30 (the API server's limits)."
  }
  validation {
    condition = alltrue(flatten([for o in values(var.overrides) : [
      for e in concat(o.namespace_selector.matchExpressions, o.object_selector.matchExpressions) :
      contains(["In", "NotIn"], e.operator) ? length(coalesce(e.values, [])) > 0 : (contains(["Exists", "DoesNotExist"], e.operator) && length(coalesce(e.values, [])) == 0)
    ]]))
    error_message = "Selector expressions: operator must be In, NotIn (with values), Exists or DoesNotExist (without values)."
  }
  validation {
    condition = alltrue(flatten([for o in values(var.overrides) : [
      for k in concat(keys(o.namespace_selector.matchLabels), keys(o.object_selector.matchLabels), [for e in concat(o.namespace_selector.matchExpressions, o.object_selector.matchExpressions) : e.key]) :
      can(regex("^([a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*/)?[A-Za-z0-9]([-A-Za-z0-9_.]{0,61}[A-Za-z0-9])?$", k))
    ]]))
    error_message = "Selector label keys must be valid label keys ([prefix/]name, name up to 63 characters)."
  }
  validation {
    condition = alltrue(flatten([for o in values(var.overrides) : [
      for v in concat(values(o.namespace_selector.matchLabels), values(o.object_selector.matchLabels), flatten([for e in concat(o.namespace_selector.matchExpressions, o.object_selector.matchExpressions) : coalesce(e.values, [])])) :
      can(regex("^([A-Za-z0-9]([-A-Za-z0-9_.]{0,61}[A-Za-z0-9])?)?$", v))
    ]]))
    error_message = "Selector label values must be valid label values (up to 63 characters, alphanumeric at both ends)."
  }
  validation {
    condition     = alltrue([for o in values(var.overrides) : length(o.match_conditions) <= 64 && length(distinct([for c in o.match_conditions : c.name])) == length(o.match_conditions)])
    error_message = "match_conditions: at most 64, with unique names."
  }
  validation {
    condition = alltrue(flatten([for o in values(var.overrides) : [
      for c in o.match_conditions : can(regex("^([a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*/)?[A-Za-z0-9]([-A-Za-z0-9_.]{0,61}[A-Za-z0-9])?$", c.name)) && trimspace(c.expression) != ""
    ]]))
    error_message = "match_conditions: each name must be a qualified name and each expression non-empty."
  }
}

variable "excluded_namespaces" {
  description = "Namespaces no generated webhook ever applies to (namespaceSelector on kubernetes.io/metadata.name), so the functions and the control plane cannot deadlock each other."
  type        = list(string)
  default     = ["kube-system", "kube-node-lease", "knative-serving", "knative-eventing", "kourier-system", "knative-operator"]
  nullable    = false

  validation {
    condition     = alltrue([for n in var.excluded_namespaces : length(n) <= 63 && can(regex("^[a-z0-9]([-a-z0-9]*[a-z0-9])?$", n))])
    error_message = "excluded_namespaces must be namespace names (DNS labels)."
  }
}

variable "functions_namespace" {
  description = "The namespace the functions run in, also excluded (null: none, e.g. when they run outside any cluster)."
  type        = string
  default     = "tollgate"

  validation {
    condition     = var.functions_namespace == null || can(regex("^[a-z0-9]([-a-z0-9]{0,61}[a-z0-9])?$", coalesce(var.functions_namespace, "-")))
    error_message = "functions_namespace must be a namespace name (DNS label)."
  }
}

variable "timing" {
  description = "The timing budget of one admission call, in seconds: a cold start of the function (platform scheduling plus process start), the policy's evaluation, and the network round trip between the API server and the function."
  type = object({
    cold_start_seconds = optional(number, 5)
    evaluation_seconds = optional(number, 1)
    network_seconds    = optional(number, 1)
  })
  default = {}

  validation {
    condition     = var.timing.cold_start_seconds >= 0 && var.timing.network_seconds >= 0
    error_message = "timing: cold_start_seconds and network_seconds must not be negative."
  }
  validation {
    condition     = var.timing.evaluation_seconds > 0
    error_message = "timing: evaluation_seconds must be greater than zero."
  }
}

variable "configuration_name" {
  description = "metadata.name of the generated MutatingWebhookConfiguration and ValidatingWebhookConfiguration."
  type        = string
  default     = "tollgate"

  validation {
    condition     = length(var.configuration_name) <= 253 && can(regex("^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$", var.configuration_name))
    error_message = "configuration_name must be a lowercase DNS subdomain."
  }
}

variable "labels" {
  description = "Extra metadata.labels for both configurations."
  type        = map(string)
  default     = {}
}

variable "kubernetes_version" {
  description = "The cluster's Kubernetes version (kubectl version: Server Version), e.g. \"1.30\", \"v1.29.4\" or \"v1.28.9-eks-036c24b\". The plan fails when the rendered configurations use what that version cannot honour: matchConditions before 1.28, the kubernetes.io/metadata.name exclusions before 1.21."
  type        = string

  validation {
    condition     = can(regex("^v?1\\.[0-9]+(\\.[0-9]+)?([-+][0-9A-Za-z.+-]*)?$", var.kubernetes_version))
    error_message = "kubernetes_version must be a Kubernetes version such as 1.30, v1.29.4 or v1.28.9-eks-036c24b (the server version of kubectl version)."
  }
  validation {
    condition     = !can(regex("^v?1\\.[0-9]+", var.kubernetes_version)) || try(tonumber(regex("^v?1\\.([0-9]+)", var.kubernetes_version)[0]) >= 16, false)
    error_message = "kubernetes_version: Tollgate renders admissionregistration.k8s.io/v1 webhook configurations and admission.k8s.io/v1 reviews, served from Kubernetes 1.16; the supported versions start at 1.21."
  }
}

variable "policy_rules" {
  description = "Per CEL function (function name => the decoded output of `tollgate registration <policy files>`, e.g. jsondecode(file(\"cel-policy-registration.json\"))): the rules, namespaceSelector and objectSelector derived from the policies it serves, in place of those its catalog entry declares. The plan fails when a listed source file changed since (its SHA-256, read from the working directory)."
  type = map(object({
    generated_by = optional(string)
    sources = optional(list(object({
      file   = string
      sha256 = string
    })), [])
    rules = list(object({
      operations  = optional(list(string))
      apiGroups   = optional(list(string))
      apiVersions = optional(list(string))
      resources   = optional(list(string))
      scope       = optional(string)
    }))
    namespaceSelector = optional(object({
      matchLabels = optional(map(string))
      matchExpressions = optional(list(object({
        key      = string
        operator = string
        values   = optional(list(string))
      })))
    }))
    objectSelector = optional(object({
      matchLabels = optional(map(string))
      matchExpressions = optional(list(object({
        key      = string
        operator = string
        values   = optional(list(string))
      })))
    }))
    policies            = optional(list(string), [])
    applied_by_function = optional(list(string), [])
  }))
  default  = {}
  nullable = false

  validation {
    condition     = length(setsubtract(keys(var.policy_rules), keys(var.catalog.functions))) == 0
    error_message = "policy_rules names functions that are not in the catalog: ${join(", ", setsubtract(keys(var.policy_rules), keys(var.catalog.functions)))}."
  }
  validation {
    condition     = alltrue([for f in keys(var.policy_rules) : !contains(keys(var.catalog.functions), f) || length(try(var.catalog.functions[f].webhooks, [])) == 1])
    error_message = "policy_rules: a derived registration is one webhook's; these functions declare several: ${join(", ", [for f in keys(var.policy_rules) : f if length(try(var.catalog.functions[f].webhooks, [])) > 1])}."
  }
  validation {
    condition = alltrue(flatten([for p in values(var.policy_rules) : [
      for r in p.rules : length(coalesce(r.operations, [])) > 0 && length(setsubtract(coalesce(r.operations, []), ["CREATE", "UPDATE", "DELETE", "CONNECT", "*"])) == 0
      && length(coalesce(r.apiGroups, [])) > 0 && length(coalesce(r.apiVersions, [])) > 0 && length(coalesce(r.resources, [])) > 0
      && contains(["*", "Cluster", "Namespaced"], coalesce(r.scope, "*"))
    ]]))
    error_message = "policy_rules: every rule needs operations (CREATE, UPDATE, DELETE, CONNECT or *), apiGroups, apiVersions and resources, and a scope of *, Cluster or Namespaced."
  }
  validation {
    condition = alltrue(flatten([for p in values(var.policy_rules) : [
      for e in concat(coalesce(try(p.namespaceSelector.matchExpressions, null), []), coalesce(try(p.objectSelector.matchExpressions, null), [])) :
      contains(["In", "NotIn"], e.operator) ? length(coalesce(e.values, [])) > 0 : (contains(["Exists", "DoesNotExist"], e.operator) && length(coalesce(e.values, [])) == 0)
    ]]))
    error_message = "policy_rules selectors: operator must be In, NotIn (with values), Exists or DoesNotExist (without values)."
  }
  validation {
    condition     = alltrue(flatten([for p in values(var.policy_rules) : [for s in p.sources : can(regex("^[0-9a-f]{64}$", s.sha256))]]))
    error_message = "policy_rules: every source's sha256 must be 64 lowercase hexadecimal digits (as tollgate registration writes it)."
  }
}
