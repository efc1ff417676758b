variable "catalog" {
  description = "The registration catalog (jsondecode of terraform/catalog/catalog.json)."
  type        = any
}

variable "clusters" {
  description = "The governed clusters by name (a DNS label; the name the functions know the cluster by): kubernetes_version as kubectl version prints it, server (the API server URL the functions read it through), certificate_authority (PEM of its CA; null: the functions' system trust) and namespace_exclusions (false renders no kubernetes.io/metadata.name exclusions: for clusters before 1.21, which do not set that label)."
  type = map(object({
    kubernetes_version    = string
    server                = string
    certificate_authority = optional(string)
    namespace_exclusions  = optional(bool, true)
  }))

  validation {
    condition     = length(var.clusters) > 0
    error_message = "clusters must name at least one cluster."
  }
  validation {
    condition     = alltrue([for n in keys(var.clusters) : can(regex("^[a-z0-9]([-a-z0-9]{0,61}[a-z0-9])?$", n))])
    error_message = "Cluster names must be DNS labels (lower-case letters, digits and '-', at most 63): they name files and the clusters' connections."
  }
  validation {
    condition     = alltrue([for c in values(var.clusters) : startswith(c.server, "https://")])
    error_message = "Each cluster's server must be an https:// URL."
  }
  # Said here, in this module's own setting and per cluster, before webhook-configurations refuses the same
  # configuration in its variables' terms (excluded_namespaces, functions_namespace), which the user does not set.
  validation {
    condition     = alltrue([for c in values(var.clusters) : !c.namespace_exclusions || try(tonumber(regex("^v?1\\.([0-9]+)", c.kubernetes_version)[0]), 21) >= 21])
    error_message = "${join("; ", [for n, c in var.clusters : "cluster ${n}: Kubernetes ${var.clusters[n].kubernetes_version} does not put the kubernetes.io/metadata.name label on namespaces (it does from 1.21), so the namespace exclusions would exclude nothing" if c.namespace_exclusions && try(tonumber(regex("^v?1\\.([0-9]+)", c.kubernetes_version)[0]), 21) < 21])}: set namespace_exclusions = false in that cluster's entry of clusters (and exclude the control plane another way)."
  }
}

variable "path_tokens" {
  description = "Per cluster, the path token per function (cluster => function => token): each cluster calls with its own, so rotating or revoking one cluster's token touches no other cluster."
  type        = map(map(string))
  default     = {}
  sensitive   = true

  validation {
    condition     = length(setsubtract(nonsensitive(keys(var.path_tokens)), keys(var.clusters))) == 0
    error_message = "path_tokens names clusters that are not in clusters: ${join(", ", setsubtract(nonsensitive(keys(var.path_tokens)), keys(var.clusters)))}."
  }
  # A token given to two clusters: a precondition of output path_token_files (modules/caller-tokens finds them).
}

variable "bearer_tokens" {
  description = "Per cluster, the bearer token per function (cluster => function => token), for clusters whose API server you configure: the API server sends it from its admission kubeconfig (output admission_kubeconfigs), which a leaked path token alone does not give. Every cluster of a function that has one needs one: the function checks it on every call."
  type        = map(map(string))
  default     = {}
  sensitive   = true

  validation {
    condition     = length(setsubtract(nonsensitive(keys(var.bearer_tokens)), keys(var.clusters))) == 0
    error_message = "bearer_tokens names clusters that are not in clusters: ${join(", ", setsubtract(nonsensitive(keys(var.bearer_tokens)), keys(var.clusters)))}."
  }
  # A token given to two clusters: a precondition of output bearer_token_files (modules/caller-tokens finds them).
  # The runtime runs every configured check on every call, so a function reading bearer tokens for one cluster
  # refuses the calls of a cluster that sends none (shared/function-runtime CallerClusters).
  validation {
    condition     = length(flatten([for f in distinct(flatten([for c, m in nonsensitive(var.bearer_tokens) : keys(m)])) : [for c in keys(var.clusters) : c if !contains(keys(try(nonsensitive(var.bearer_tokens)[c], {})), f)]])) == 0
    error_message = "A function checks bearer tokens for every cluster once one cluster has them, so these clusters' calls would be refused: ${join("; ", [for f in sort(distinct(flatten([for c, m in nonsensitive(var.bearer_tokens) : keys(m)]))) : "${f}: ${join(", ", [for c in sort(keys(var.clusters)) : c if !contains(keys(try(nonsensitive(var.bearer_tokens)[c], {})), f)])}" if length([for c in keys(var.clusters) : c if !contains(keys(try(nonsensitive(var.bearer_tokens)[c], {})), f)]) > 0])}. Give every cluster of the function a bearer token."
  }
}

variable "admission_kubeconfig_path" {
  description = "Where each governed API server finds its admission kubeconfig (admission_kubeconfigs), as written into admission_configurations' kubeConfigFile."
  type        = string
  default     = "/etc/kubernetes/tollgate/admission-kubeconfig.yaml"
}

variable "reader_tokens" {
  description = "Per cluster, the token of the read-only ServiceAccount this module renders there (kubectl -n <reader_namespace> get secret <reader_name>-token -o jsonpath='{.data.token}' | base64 -d, after the first apply). A cluster without one gets no connection in the functions' Secret yet (output missing_reader_tokens)."
  type        = map(string)
  default     = {}
  sensitive   = true

  validation {
    condition     = length(setsubtract(nonsensitive(keys(var.reader_tokens)), keys(var.clusters))) == 0
    error_message = "reader_tokens names clusters that are not in clusters: ${join(", ", setsubtract(nonsensitive(keys(var.reader_tokens)), keys(var.clusters)))}."
  }
}

variable "caller_credentials" {
  description = "Per function, the caller credential its deployment requires: path-token, api-server or none (as in webhook-configurations). Checked for every cluster: a cluster missing a required path token is a plan error naming the cluster and the function."
  type        = map(string)
  default     = {}

  validation {
    condition = length(flatten([for n in keys(var.clusters) : [for f, c in var.caller_credentials : f if c == "path-token"
      && (var.functions == null || contains(coalesce(var.functions, ["-"]), f)) && contains(keys(var.catalog.functions), f)
    && !contains(nonsensitive(keys(try(var.path_tokens[n], {}))), f)]])) == 0
    error_message = "These functions require a path token (caller_credentials) that path_tokens does not give them, so the cluster's every call would be refused: ${join("; ", [for n in keys(var.clusters) : "cluster ${n}: ${join(", ", [for f, c in var.caller_credentials : f if c == "path-token" && (var.functions == null || contains(coalesce(var.functions, ["-"]), f)) && contains(keys(var.catalog.functions), f) && !contains(nonsensitive(keys(try(var.path_tokens[n], {}))), f)])}" if length([for f, c in var.caller_credentials : f if c == "path-token" && (var.functions == null || contains(coalesce(var.functions, ["-"]), f)) && contains(keys(var.catalog.functions), f) && !contains(nonsensitive(keys(try(var.path_tokens[n], {}))), f)]) > 0])}. Give each cluster its own token per function in path_tokens (and the function the same tokens, TOLLGATE_AUTH_PATH_TOKEN_FILES)."
  }
}

variable "function_urls" {
  description = "Base HTTPS URL per function (as in webhook-configurations)."
  type        = map(string)
  default     = {}
}

variable "default_url" {
  description = "Base URL for functions missing from function_urls, e.g. the all-in-one bundle's."
  type        = string
  default     = null
}

variable "functions" {
  description = "The catalog functions to register; null: every function in the catalog."
  type        = list(string)
  default     = null
}

variable "ca_bundle" {
  description = "PEM of the CA that signed the functions' serving certificate; null for public CAs."
  type        = string
  default     = null
}

variable "overrides" {
  description = "Per-function overrides, as in webhook-configurations (the same for every cluster: one set of functions serves them all)."
  type        = any
  default     = {}
}

variable "exceptions" {
  description = "The exceptions file's list (yamldecode(file(\"exceptions.yaml\")).exceptions), as in webhook-configurations: compiled per cluster for its kubernetes_version."
  type        = any
  default     = []
  nullable    = false
}

variable "timing" {
  description = "Timing budget in seconds (cold_start_seconds, evaluation_seconds, network_seconds), as in webhook-configurations."
  type = object({
    cold_start_seconds = optional(number, 5)
    evaluation_seconds = optional(number, 1)
    network_seconds    = optional(number, 1)
  })
  default = {}
}

variable "functions_namespace" {
  description = "Namespace of the functions (excluded from the webhooks), and of the functions' clusters Secret."
  type        = string
  default     = "tollgate"
}

variable "reader_namespace" {
  description = "Namespace of the read-only ServiceAccount in each governed cluster."
  type        = string
  default     = "tollgate"
}

variable "reader_name" {
  description = "Name of the read-only ServiceAccount, its token Secret (<name>-token), ClusterRole and ClusterRoleBinding in each governed cluster."
  type        = string
  default     = "tollgate-reader"
}

variable "param_resources" {
  description = "Resources holding the CEL policies' params in the governed clusters (paramRef), read-only (get, list, watch), e.g. [{ api_groups = [\"\"], resources = [\"configmaps\"] }]."
  type = list(object({
    api_groups = list(string)
    resources  = list(string)
  }))
  default = []
}

variable "clusters_secret_name" {
  description = "The Secret in the functions' cluster holding one <cluster>.kubeconfig per governed cluster (mount it where tollgate.clusters.dir points)."
  type        = string
  default     = "tollgate-clusters"
}

variable "policy_rules" {
  description = "Per CEL function, its registration derived from the policies it serves (tollgate registration's JSON, decoded), as in webhook-configurations: the same for every cluster, each cluster's version deciding what its webhooks can select."
  type        = any
  default     = {}
  nullable    = false
}
