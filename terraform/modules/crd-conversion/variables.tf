# Inputs of the pure rendering module for CRD conversion webhooks. The checks the API server makes on a CRD's
# spec.conversion that depend only on these inputs are validations here.

variable "catalog" {
  description = "The registration catalog: jsondecode(file(\"<repo>/terraform/catalog/catalog.json\")). Only its conversions section is read (one entry per CRD, from the functions' webhook.yaml with type: conversion)."
  type = object({
    conversions = optional(map(object({
      function = string
      path     = string
      versions = list(string)
      webhook = object({
        conversionReviewVersions = list(string)
      })
    })), {})
  })

  validation {
    condition = alltrue([for crd, c in var.catalog.conversions :
      length(crd) <= 253 && can(regex("^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?){2,}$", crd))
    ])
    error_message = "Every conversions key must be a CustomResourceDefinition name: <plural>.<group>, whose group has a dot."
  }
  validation {
    condition     = alltrue([for c in values(var.catalog.conversions) : can(regex("^/${c.function}(/[^/?#]+)*$", c.path))])
    error_message = "Every conversion's path must be /<function> or below it, without query, fragment, empty segments or trailing '/'."
  }
  validation {
    condition = alltrue([for c in values(var.catalog.conversions) :
      length(c.webhook.conversionReviewVersions) > 0 && length(setsubtract(c.webhook.conversionReviewVersions, ["v1", "v1beta1"])) == 0
      && length(distinct(c.webhook.conversionReviewVersions)) == length(c.webhook.conversionReviewVersions)
    ])
    error_message = "Every conversion needs conversionReviewVersions: a non-empty list of distinct known versions (v1, v1beta1)."
  }
  validation {
    condition     = alltrue([for c in values(var.catalog.conversions) : length(c.versions) >= 2 && length(distinct(c.versions)) == length(c.versions)])
    error_message = "Every conversion lists at least two distinct CRD versions."
  }
}

variable "crds" {
  description = "The CRDs (catalog conversions keys) to render; null renders every conversion in the catalog."
  type        = list(string)
  default     = null

  validation {
    condition     = var.crds == null || length(setsubtract(coalesce(var.crds, []), keys(var.catalog.conversions))) == 0
    error_message = "crds names CRDs that have no conversion webhook in the catalog: ${join(", ", setsubtract(coalesce(var.crds, []), keys(var.catalog.conversions)))}."
  }
}

variable "function_urls" {
  description = "Base HTTPS URL of each conversion function (function name => URL), e.g. the Knative Service URL. Other functions' URLs may be present and are ignored, so one map serves this module and webhook-configurations."
  type        = map(string)
  default     = {}

  validation {
    condition     = alltrue([for u in values(var.function_urls) : can(regex("^https://[^/?#@:]+(:[0-9]+)?(/[^?#]*)?$", u))])
    error_message = "Function URLs must be https://<host>[:port][/path], without user info, query or fragment (the API server rejects them)."
  }
  validation {
    condition = var.default_url != null || length(setsubtract(distinct([
      for crd, c in var.catalog.conversions : c.function if var.crds == null || contains(coalesce(var.crds, []), crd)
    ]), keys(var.function_urls))) == 0
    error_message = "No base URL for conversion function(s) ${join(", ", setsubtract(distinct([for crd, c in var.catalog.conversions : c.function if var.crds == null || contains(coalesce(var.crds, []), crd)]), keys(var.function_urls)))}: add them to function_urls, set default_url, or leave their CRDs out (variable crds)."
  }
}

variable "default_url" {
  description = "Base HTTPS URL for conversion functions missing from function_urls (e.g. a bundle serving every path). null: each needs an entry in function_urls."
  type        = string
  default     = null

  validation {
    condition     = var.default_url == null || can(regex("^https://[^/?#@:]+(:[0-9]+)?(/[^?#]*)?$", coalesce(var.default_url, "-")))
    error_message = "default_url must be https://<host>[:port][/path], without user info, query or fragment."
  }
}

variable "ca_bundle" {
  description = "PEM certificate(s) the API server uses to verify the functions' TLS certificates. null: the API server's system trust roots."
  type        = string
  default     = null

  validation {
    condition     = var.ca_bundle == null || strcontains(coalesce(var.ca_bundle, "-"), "-----BEGIN CERTIFICATE-----")
    error_message = "ca_bundle must be PEM text with at least one -----BEGIN CERTIFICATE----- block (not base64 of it: the module encodes it)."
  }
}

variable "path_tokens" {
  description = "Secret path token per function (function name => token): the URL becomes <base URL>/<token><path>, checked and stripped by the function runtime (tollgate.auth.path-token). Other functions' tokens may be present and are ignored."
  type        = map(string)
  default     = {}
  sensitive   = true

  validation {
    condition     = alltrue([for t in values(var.path_tokens) : can(regex("^[A-Za-z0-9_-]{16,256}$", t))])
    error_message = "Path tokens must be 16 to 256 characters from A-Z a-z 0-9 _ - (one URL path segment, hard to guess)."
  }
}

variable "crd_manifests" {
  description = "CustomResourceDefinition objects that Terraform applies, by name (e.g. { \"databases.data.tollgate.dev\" = yamldecode(file(\".../crd.yaml\")) }): output crd_manifests returns them with spec.conversion set. CRDs applied elsewhere use output crd_patches instead."
  type        = any
  default     = {}

  validation {
    condition     = can(keys(var.crd_manifests))
    error_message = "crd_manifests must be a map (or object) from CRD name to CustomResourceDefinition object."
  }
  validation {
    condition = alltrue([for name, crd in var.crd_manifests :
      try(crd.apiVersion, "") == "apiextensions.k8s.io/v1" && try(crd.kind, "") == "CustomResourceDefinition" && try(crd.metadata.name, "") == name
    ])
    error_message = "Each crd_manifests entry must be an apiextensions.k8s.io/v1 CustomResourceDefinition whose metadata.name is its key."
  }
  validation {
    condition     = alltrue([for name, crd in var.crd_manifests : !try(crd.spec.preserveUnknownFields, false)])
    error_message = "A CRD with spec.preserveUnknownFields: true cannot use webhook conversion (the API server requires false)."
  }
}
