variable "path_tokens" {
  description = "Per governed cluster, the path token per function (cluster => function => token)."
  type        = map(map(string))
  default     = {}
  sensitive   = true
  nullable    = false
}

variable "bearer_tokens" {
  description = "Per governed cluster, the Authorization: Bearer tokens per function (cluster => function => tokens)."
  type        = map(map(list(string)))
  default     = {}
  sensitive   = true
  nullable    = false
}
