variable "functions" {
  description = "The functions to deploy (function name => settings). package_file is the zip the build writes: ./mvnw -pl functions/<name> -Plambda package [-Dnative] -> functions/<name>/target/function.zip."
  type = map(object({
    package_file = string
    # native: the GraalVM/Mandrel executable on the provided.al2023 custom runtime; jvm: the JVM runtime (var.jvm_runtime).
    build                = optional(string, "native")
    memory_mb            = optional(number)
    architecture         = optional(string, "x86_64")
    reserved_concurrency = optional(number)
    environment          = optional(map(string), {})
    # The CEL functions (cel-policy, cel-mutate, a bundle of them): read namespaces and params from the calling
    # cluster through cluster_connections.
    cluster_context = optional(bool, false)
  }))

  validation {
    condition     = length(var.functions) > 0
    error_message = "functions: name at least one function to deploy."
  }
  validation {
    condition     = alltrue([for f in values(var.functions) : contains(["native", "jvm"], f.build)])
    error_message = "build must be native (provided.al2023) or jvm."
  }
  validation {
    condition     = alltrue([for f in values(var.functions) : fileexists(f.package_file)])
    error_message = "package_file not found for: ${join(", ", [for n, f in var.functions : "${n} (${f.package_file})" if !fileexists(f.package_file)])}. Build it with ./mvnw -pl functions/<name> -Plambda package [-Dnative]."
  }
  validation {
    condition     = alltrue([for f in values(var.functions) : contains(["x86_64", "arm64"], f.architecture)])
    error_message = "architecture must be x86_64 or arm64 (a native build must match the machine it was built for)."
  }
  validation {
    condition     = alltrue([for f in values(var.functions) : f.memory_mb == null || try(f.memory_mb >= 128 && f.memory_mb <= 10240 && floor(f.memory_mb) == f.memory_mb, false)])
    error_message = "memory_mb must be a whole number of MB between 128 and 10240 (Lambda's limits)."
  }
  validation {
    condition     = alltrue([for f in values(var.functions) : f.reserved_concurrency == null || try(f.reserved_concurrency >= 0 && floor(f.reserved_concurrency) == f.reserved_concurrency, false)])
    error_message = "reserved_concurrency must be a whole number >= 0 (null: unreserved; 0 stops the function)."
  }
  validation {
    condition     = alltrue([for n in keys(var.functions) : can(regex("^[a-z0-9][a-z0-9-]*$", n))])
    error_message = "Function names are the functions/<name> folder names (lowercase letters, digits, '-')."
  }
}

variable "timeouts" {
  description = "The timeouts output of the webhook-configurations module: each function's request_timeout_seconds (the Lambda timeout) and internal_deadline_ms (TOLLGATE_DEADLINE_TIMEOUT), so Lambda, the function and the webhook agree."
  type = map(object({
    request_timeout_seconds = number
    internal_deadline_ms    = number
  }))

  validation {
    condition     = length(setsubtract(keys(var.functions), keys(var.timeouts))) == 0
    error_message = "timeouts has no entry for: ${join(", ", setsubtract(keys(var.functions), keys(var.timeouts)))}. Pass module.<webhook-configurations>.timeouts and register every deployed function there."
  }
  validation {
    condition     = alltrue([for t in values(var.timeouts) : t.request_timeout_seconds >= 1 && t.request_timeout_seconds <= 900 && floor(t.request_timeout_seconds) == t.request_timeout_seconds && t.internal_deadline_ms > 0])
    error_message = "request_timeout_seconds must be a whole number of seconds in 1..900 and internal_deadline_ms positive."
  }
}

variable "path_tokens" {
  description = "Per governed cluster, the path token per function (cluster => function => token), as cluster-registration takes them: each function gets its own tokens of every cluster in TOLLGATE_AUTH_CLUSTERS_JSON, so each call is its cluster's (decision log, metrics) and one cluster's token is rotated or revoked without touching another's. One cluster: { <its name> = { <function> = <token> } }."
  type        = map(map(string))
  default     = {}
  sensitive   = true
  nullable    = false

  validation {
    condition     = alltrue([for c in nonsensitive(keys(var.path_tokens)) : can(regex("^[a-z0-9]([-a-z0-9]{0,61}[a-z0-9])?$", c))])
    error_message = "path_tokens: cluster names must be DNS labels (lower-case letters, digits and '-', at most 63), as the function runtime names clusters: ${join(", ", [for c in nonsensitive(keys(var.path_tokens)) : c if !can(regex("^[a-z0-9]([-a-z0-9]{0,61}[a-z0-9])?$", c))])}."
  }
  validation {
    condition     = length(setsubtract(flatten([for m in values(nonsensitive(var.path_tokens)) : keys(m)]), keys(var.functions))) == 0
    error_message = "path_tokens names functions this module does not deploy: ${join(", ", setsubtract(flatten([for m in values(nonsensitive(var.path_tokens)) : keys(m)]), keys(var.functions)))}."
  }
  validation {
    condition     = alltrue(flatten([for m in values(var.path_tokens) : [for t in values(m) : can(regex("^[A-Za-z0-9_-]{16,256}$", t))]]))
    error_message = "Path tokens must be 16 to 256 characters from A-Z a-z 0-9 _ -."
  }
}

variable "bearer_tokens" {
  description = "Per governed cluster, the Authorization: Bearer tokens per function (cluster => function => tokens) its API server sends from its AdmissionConfiguration kubeconfig; in TOLLGATE_AUTH_CLUSTERS_JSON with the path tokens."
  type        = map(map(list(string)))
  default     = {}
  sensitive   = true
  nullable    = false

  validation {
    condition     = alltrue([for c in nonsensitive(keys(var.bearer_tokens)) : can(regex("^[a-z0-9]([-a-z0-9]{0,61}[a-z0-9])?$", c))])
    error_message = "bearer_tokens: cluster names must be DNS labels (lower-case letters, digits and '-', at most 63), as the function runtime names clusters: ${join(", ", [for c in nonsensitive(keys(var.bearer_tokens)) : c if !can(regex("^[a-z0-9]([-a-z0-9]{0,61}[a-z0-9])?$", c))])}."
  }
  validation {
    condition     = length(setsubtract(flatten([for m in values(nonsensitive(var.bearer_tokens)) : keys(m)]), keys(var.functions))) == 0
    error_message = "bearer_tokens names functions this module does not deploy: ${join(", ", setsubtract(flatten([for m in values(nonsensitive(var.bearer_tokens)) : keys(m)]), keys(var.functions)))}."
  }
  validation {
    # The runtime's syntax for bearer tokens: token68 (RFC 7235), at least 16 characters (TokenSet).
    condition     = alltrue(flatten([for m in values(var.bearer_tokens) : [for ts in values(m) : [for t in ts : can(regex("^[A-Za-z0-9._~+/-]{16,}=*$", t))]]]))
    error_message = "Bearer tokens must be at least 16 characters from A-Z a-z 0-9 . _ ~ + / - (token68), optionally ending in '='."
  }
}

variable "name_prefix" {
  description = "Prefix of every function, role and log group name."
  type        = string
  default     = "tollgate-"

  validation {
    condition     = can(regex("^[A-Za-z0-9_-]{0,30}$", var.name_prefix))
    error_message = "name_prefix: up to 30 characters from A-Z a-z 0-9 _ -."
  }
}

variable "jvm_runtime" {
  description = "Lambda runtime for build = jvm functions."
  type        = string
  default     = "java21"

  validation {
    condition     = contains(["java17", "java21"], var.jvm_runtime)
    error_message = "jvm_runtime must be java17 or java21 (Quarkus 3 needs Java 17 or later)."
  }
}

variable "log_retention_days" {
  description = "Retention of each function's CloudWatch log group."
  type        = number
  default     = 14

  validation {
    condition     = contains([1, 3, 5, 7, 14, 30, 60, 90, 120, 150, 180, 365, 400, 545, 731, 1096, 1827, 2192, 2557, 2922, 3288, 3653], var.log_retention_days)
    error_message = "log_retention_days must be one of CloudWatch's retention values (1, 3, 5, 7, 14, 30, 60, 90, ...)."
  }
}

variable "grant_invoke_function" {
  description = "Also grant lambda:InvokeFunction to everyone: AWS requires it, besides lambda:InvokeFunctionUrl, for function URLs created since October 2025. Callers still pass the function's own token check."
  type        = bool
  default     = true
}

variable "tags" {
  description = "Tags for every resource."
  type        = map(string)
  default     = {}
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

variable "exceptions" {
  description = "The reviewed exceptions file's list (terraform/README.md \"Exceptions\"), as the webhook configurations take it: each function gets the exceptions naming it in TOLLGATE_EXCEPTIONS_JSON and applies those the API server cannot."
  type        = any
  default     = []
  nullable    = false
}

variable "cluster_connections" {
  description = "Per governed cluster, the kubeconfig of its read-only identity (cluster => kubeconfig YAML, as cluster-registration renders each <cluster>.kubeconfig), for the functions with cluster_context: kept in one AWS Secrets Manager secret, read by the functions through the AWS Parameters and Secrets Lambda Extension (tollgate.clusters.aws-secret), since Lambda mounts no files and allows 4 KB of environment."
  type        = map(string)
  default     = {}
  sensitive   = true
  nullable    = false

  validation {
    condition     = alltrue([for n in nonsensitive(keys(var.cluster_connections)) : can(regex("^[a-z0-9]([-a-z0-9]{0,61}[a-z0-9])?$", n))])
    error_message = "cluster_connections: cluster names must be DNS labels."
  }
}

variable "secrets_extension_layer_arn" {
  description = "The AWS Parameters and Secrets Lambda Extension layer for the functions' region and architecture (AWS documents its ARN per region, e.g. arn:aws:lambda:<region>:<account>:layer:AWS-Parameters-and-Secrets-Lambda-Extension:<version>); needed with cluster_connections."
  type        = string
  default     = null
}
