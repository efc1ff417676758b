# Values carry the functions' URLs, and with them any path token: the outputs that hold them are sensitive. Read them
# with `terraform output -json conversions` or `terraform output -raw ...`.

output "conversions" {
  description = "spec.conversion per CRD name: { strategy = \"Webhook\", webhook = { clientConfig = { url, caBundle }, conversionReviewVersions } }."
  value       = local.conversions
  sensitive   = true

  precondition {
    condition     = length(local.manifest_problems) == 0
    error_message = "crd_manifests do not match the conversions: ${join("; ", local.manifest_problems)}."
  }
}

output "crd_patches" {
  description = "For CRDs applied elsewhere, per CRD name, the merge patch to apply: kubectl patch crd <name> --type merge -p \"$(terraform output -json crd_patches | jq -r '.[\"<name>\"]')\"."
  value       = { for crd, c in local.conversions : crd => jsonencode({ spec = { conversion = c } }) }
  sensitive   = true
}

output "crd_manifests" {
  description = "The crd_manifests given, each with spec.conversion set: the objects to apply (e.g. kubernetes_manifest)."
  value       = local.crd_manifests
  sensitive   = true
}

output "crd_manifests_yaml" {
  description = "crd_manifests as one multi-document YAML stream, for kubectl apply -f - or a GitOps repository."
  value       = join("---\n", [for name in sort(keys(local.crd_manifests)) : yamlencode(local.crd_manifests[name])])
  sensitive   = true
}

output "summary" {
  description = "Per CRD (no URLs): the function, its path, the versions it converts and the conversionReviewVersions."
  value = { for crd in local.selected : crd => {
    function                   = var.catalog.conversions[crd].function
    path                       = var.catalog.conversions[crd].path
    versions                   = var.catalog.conversions[crd].versions
    conversion_review_versions = var.catalog.conversions[crd].webhook.conversionReviewVersions
  } }
}
