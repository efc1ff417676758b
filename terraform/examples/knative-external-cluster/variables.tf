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

variable "path_tokens" {
  description = "Secret path token per function, also set on the function (TOLLGATE_AUTH_PATH_TOKEN_VALUES)."
  type        = map(string)
  default     = {}
  sensitive   = true
}

variable "overrides" {
  description = "Per-function overrides, as in the webhook-configurations module."
  type        = any
  default     = {}
}

variable "kubernetes_version" {
  description = "The external cluster's Kubernetes version (kubectl version: Server Version); the plan fails when the configurations use what it cannot honour."
  type        = string
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
  description = "Namespace of the Knative Services (for the kn commands, and excluded from the webhooks)."
  type        = string
  default     = "tollgate"
}

variable "kubeconfig_path" {
  description = "kubeconfig of the external cluster that gets the webhook configurations."
  type        = string
  default     = "~/.kube/config"
}

variable "kube_context" {
  description = "Context in that kubeconfig (null: its current context)."
  type        = string
  default     = null
}
