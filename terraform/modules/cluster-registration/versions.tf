terraform {
  # 1.9 for validations that refer to other variables. No provider: this module renders manifests; kubectl (or the
  # hashicorp/kubernetes provider, where it can be installed: see the examples' cluster.tf) applies them.
  required_version = ">= 1.9.0"
}
