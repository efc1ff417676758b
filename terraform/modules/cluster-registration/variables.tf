variable "manifests" {
  description = "The manifests output of the webhook-configurations module (kind => configuration object)."
  type        = any
  sensitive   = true
}

variable "manifest_kinds" {
  description = "The manifest_kinds output of the webhook-configurations module: known at plan time, so it drives for_each."
  type        = list(string)

  validation {
    condition     = length(setsubtract(var.manifest_kinds, ["MutatingWebhookConfiguration", "ValidatingWebhookConfiguration"])) == 0
    error_message = "manifest_kinds may only hold MutatingWebhookConfiguration and ValidatingWebhookConfiguration."
  }
}

variable "field_manager" {
  description = "Server-side apply field manager name."
  type        = string
  default     = "tollgate-terraform"
}

variable "force_conflicts" {
  description = "Take over fields another manager owns (e.g. after a kubectl apply of the same objects)."
  type        = bool
  default     = false
}
