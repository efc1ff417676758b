variable "catalog_file" {
  description = "The registration catalog; null: the one in this repository (terraform/catalog/catalog.json)."
  type        = string
  default     = null
}

variable "function_urls" {
  description = "Base HTTPS URL per Knative-hosted function (kn service describe <name> -o url). The Knative deployer writes this variable: java -jar shared/knative-deployer/... deploy -o function-urls.auto.tfvars.json."
  type        = map(string)
  default     = {}
}

variable "images" {
  description = "The image each Knative Service was deployed with (service => image); the Knative deployer writes it beside function_urls. A Service not listed keeps its committed manifest's image."
  type        = map(string)
  default     = {}
}

variable "default_url" {
  description = "Base URL for functions missing from function_urls, e.g. the all-in-one bundle's Knative Service."
  type        = string
  default     = null
}

variable "functions" {
  description = "Functions to register (null: every function in the catalog)."
  type        = list(string)
  default     = null
}

variable "ca_bundle_file" {
  description = "PEM file of the CA that signed the Knative external domain's certificate; null when it is a public CA."
  type        = string
  default     = null
}

variable "clusters" {
  description = "The governed clusters by name: kubernetes_version (kubectl version: Server Version; the plan fails when the configurations use what it cannot honour), server and certificate_authority (how the functions reach its API, read-only), namespace_exclusions (false before 1.21)."
  type = map(object({
    kubernetes_version    = string
    server                = string
    certificate_authority = optional(string)
    namespace_exclusions  = optional(bool, true)
  }))
}

variable "path_tokens" {
  description = "Per cluster, a secret path token per function (cluster => function => token); the functions accept every cluster's tokens (TOLLGATE_AUTH_PATH_TOKEN_FILES)."
  type        = map(map(string))
  default     = {}
  sensitive   = true
}

variable "bearer_tokens" {
  description = "Per cluster whose API server you configure, a bearer token per function (cluster => function => token), sent from the API server's admission kubeconfig (outputs admission_kubeconfigs, admission_configuration_yaml) beside the path token; every cluster of such a function needs one."
  type        = map(map(string))
  default     = {}
  sensitive   = true
}

variable "reader_tokens" {
  description = "Per cluster, the token of its read-only ServiceAccount (output missing_reader_tokens says how to read it after the first apply)."
  type        = map(string)
  default     = {}
  sensitive   = true
}

variable "param_resources" {
  description = "Resources holding the CEL policies' params in the governed clusters, granted read-only."
  type = list(object({
    api_groups = list(string)
    resources  = list(string)
  }))
  default = []
}

variable "knative_dir" {
  description = "The Knative manifests as deployed (<dir>/<service>.yaml); null: this repository's knative/ (the native images); the JVM images: knative/jvm."
  type        = string
  default     = null
}

variable "default_service" {
  description = "The Knative Service behind default_url (the bundle serving every function without a URL of its own)."
  type        = string
  default     = "all-in-one"
}

variable "overrides" {
  description = "Per-function overrides, as in the webhook-configurations module."
  type        = any
  default     = {}
}

variable "timing" {
  description = "Timing budget in seconds (cold_start_seconds, evaluation_seconds, network_seconds)."
  type = object({
    cold_start_seconds = optional(number, 5)
    evaluation_seconds = optional(number, 1)
    network_seconds    = optional(number, 1)
  })
  default = {}
}

variable "functions_namespace" {
  description = "Namespace of the Knative Services and the clusters Secret (also excluded from the webhooks)."
  type        = string
  default     = "tollgate"
}

variable "kubeconfig_path" {
  description = "kubeconfig of the functions' cluster (cluster.tf applies the Knative Services and the clusters Secret there)."
  type        = string
  default     = "~/.kube/config"
}

variable "kube_context" {
  description = "Context in that kubeconfig (null: its current context)."
  type        = string
  default     = null
}

variable "policy_rules_files" {
  description = "Per CEL function, the JSON `tollgate registration <its policy files>` wrote (run from this folder): the function is registered for what those policies select instead of its webhook.yaml's rules. {}: every function as its webhook.yaml declares."
  type        = map(string)
  default     = {}
}

variable "exceptions_file" {
  description = "The reviewed exceptions file (YAML, terraform/README.md \"Exceptions\"); null: no exceptions."
  type        = string
  default     = null
}

variable "enforcement" {
  description = "Enforcement modes, written into each function's environment without a rebuild: mode (enforce, warn or audit), functions (name => mode), clusters (governed cluster => mode, overriding both), function_clusters (function => governed cluster => mode, overriding all for that function and cluster). See the enforcement module."
  type = object({
    mode              = optional(string, "enforce")
    functions         = optional(map(string), {})
    clusters          = optional(map(string), {})
    function_clusters = optional(map(map(string)), {})
  })
  default  = {}
  nullable = false
}
