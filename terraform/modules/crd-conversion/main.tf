# Renders the spec.conversion block of each CRD that a Tollgate function converts (webhook.yaml with type: conversion,
# listed by CRD in the catalog's conversions section): strategy Webhook, the function's URL (with its path token) and
# caBundle, and the declared conversionReviewVersions. Nothing here talks to a provider.

locals {
  selected = sort(var.crds == null ? keys(var.catalog.conversions) : distinct(var.crds))

  conversions = { for crd in local.selected : crd => {
    strategy = "Webhook"
    webhook = {
      clientConfig = { for k, v in {
        url = join("", [
          trimsuffix(lookup(var.function_urls, var.catalog.conversions[crd].function, var.default_url == null ? "" : var.default_url), "/"),
          contains(keys(var.path_tokens), var.catalog.conversions[crd].function) ? "/${var.path_tokens[var.catalog.conversions[crd].function]}" : "",
          var.catalog.conversions[crd].path,
        ])
        caBundle = var.ca_bundle == null ? null : base64encode(var.ca_bundle)
      } : k => v if v != null }
      conversionReviewVersions = var.catalog.conversions[crd].webhook.conversionReviewVersions
    }
  } }

  # CRDs Terraform applies: the given objects with spec.conversion set (everything else as given).
  crd_manifests = { for name, crd in var.crd_manifests : name => merge(crd, {
    spec = merge(crd.spec, { conversion = local.conversions[name] })
  }) if contains(local.selected, name) }

  # A CRD given in crd_manifests must be one this module renders, and list exactly the versions its function converts.
  manifest_problems = concat(
    [for name in keys(var.crd_manifests) : "${name}: no conversion webhook for it is selected (catalog conversions / crds)" if !contains(local.selected, name)],
    [for name, crd in var.crd_manifests : format("%s: the CRD's versions %s differ from those its function converts %s",
      name, jsonencode(sort([for v in crd.spec.versions : v.name])), jsonencode(sort(var.catalog.conversions[name].versions)))
      if contains(local.selected, name) ? try(sort([for v in crd.spec.versions : v.name]), []) != sort(var.catalog.conversions[name].versions) : false
    ],
  )
}
