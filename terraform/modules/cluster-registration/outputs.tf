output "applied" {
  description = "kind => metadata.name of each configuration applied."
  value       = { for kind, m in kubernetes_manifest.webhook_configuration : kind => nonsensitive(m.manifest.metadata.name) }
}
