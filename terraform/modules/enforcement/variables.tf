variable "enforcement" {
  description = "How the functions' verdicts are enforced: mode (enforce, warn or audit) for every function, functions (function name => mode) overriding it per function, clusters (governed cluster => mode) overriding both for that cluster's calls, function_clusters (function name => governed cluster => mode) overriding all three for one function's calls from one cluster. See shared/function-runtime/README.md, \"Enforcement modes\"."
  type = object({
    mode              = optional(string, "enforce")
    functions         = optional(map(string), {})
    clusters          = optional(map(string), {})
    function_clusters = optional(map(map(string)), {})
  })
  default  = {}
  nullable = false

  validation {
    condition     = contains(["enforce", "warn", "audit"], var.enforcement.mode)
    error_message = "enforcement.mode: \"${var.enforcement.mode}\" is not enforce, warn or audit."
  }
  validation {
    condition     = alltrue([for m in values(var.enforcement.functions) : contains(["enforce", "warn", "audit"], m)])
    error_message = "enforcement.functions: ${join(", ", [for f, m in var.enforcement.functions : "${f} = \"${m}\"" if !contains(["enforce", "warn", "audit"], m)])}: not enforce, warn or audit."
  }
  validation {
    condition     = alltrue([for m in values(var.enforcement.clusters) : contains(["enforce", "warn", "audit"], m)])
    error_message = "enforcement.clusters: ${join(", ", [for c, m in var.enforcement.clusters : "${c} = \"${m}\"" if !contains(["enforce", "warn", "audit"], m)])}: not enforce, warn or audit."
  }
  validation {
    condition     = alltrue(flatten([for f, cs in var.enforcement.function_clusters : [for m in values(cs) : contains(["enforce", "warn", "audit"], m)]]))
    error_message = "enforcement.function_clusters: ${join(", ", flatten([for f, cs in var.enforcement.function_clusters : [for c, m in cs : "${f}.${c} = \"${m}\"" if !contains(["enforce", "warn", "audit"], m)]]))}: not enforce, warn or audit."
  }
  validation {
    condition     = alltrue(flatten([for f, cs in var.enforcement.function_clusters : [for c in keys(cs) : can(regex("^[a-z0-9]([-a-z0-9]{0,61}[a-z0-9])?$", c))]]))
    error_message = "enforcement.function_clusters: ${join(", ", flatten([for f, cs in var.enforcement.function_clusters : [for c in keys(cs) : "${f}.${c}" if !can(regex("^[a-z0-9]([-a-z0-9]{0,61}[a-z0-9])?$", c))]]))}: not a cluster name (a DNS label, as the functions name their caller clusters)."
  }
  validation {
    condition     = alltrue([for c in keys(var.enforcement.clusters) : can(regex("^[a-z0-9]([-a-z0-9]{0,61}[a-z0-9])?$", c))])
    error_message = "enforcement.clusters: ${join(", ", [for c in keys(var.enforcement.clusters) : c if !can(regex("^[a-z0-9]([-a-z0-9]{0,61}[a-z0-9])?$", c))])}: not a cluster name (a DNS label, as the functions name their caller clusters)."
  }
}

variable "services" {
  description = "What runs the functions: service (a Knative Service or Lambda function) => the functions it serves. One service has one mode, so the functions of a bundle must share theirs."
  type        = map(list(string))
  nullable    = false
}
