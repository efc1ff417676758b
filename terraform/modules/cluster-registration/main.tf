# Applies the rendered configurations to the external cluster with server-side apply. The provider is configured by
# the caller (kubeconfig, host + token, ...); kubernetes_manifest needs the cluster's API at plan time.

resource "kubernetes_manifest" "webhook_configuration" {
  for_each = toset(var.manifest_kinds)

  manifest = var.manifests[each.key]

  field_manager {
    name            = var.field_manager
    force_conflicts = var.force_conflicts
  }
}
