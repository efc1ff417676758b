# The cluster's Kubernetes version against what the rendered configurations use: the plan fails, naming the reason,
# when the API server of that version would ignore part of a configuration (matchConditions before 1.28; the
# kubernetes.io/metadata.name exclusions before 1.21), and warns for matchConditions while they are beta.

variables {
  kubernetes_version = "1.30"
  catalog = {
    functions = {
      plain = {
        webhooks = [{
          type = "validating"
          path = "/plain"
          webhook = {
            name                    = "plain.tollgate.dev"
            rules                   = [{ operations = ["CREATE"], apiGroups = [""], apiVersions = ["v1"], resources = ["pods"] }]
            sideEffects             = "None"
            admissionReviewVersions = ["v1"]
          }
        }]
      }
      conditional = {
        webhooks = [{
          type = "validating"
          path = "/conditional"
          webhook = {
            name                    = "conditional.tollgate.dev"
            rules                   = [{ operations = ["CREATE"], apiGroups = [""], apiVersions = ["v1"], resources = ["pods"] }]
            sideEffects             = "None"
            admissionReviewVersions = ["v1"]
            matchConditions         = [{ name = "not-a-node", expression = "!('system:nodes' in request.userInfo.groups)" }]
          }
        }]
      }
    }
  }
  default_url = "https://tollgate.example.com"
}

run "ga_match_conditions_and_exclusions_render_on_1_30" {
  command = plan

  assert {
    condition     = length(nonsensitive(output.validating_configuration.webhooks)) == 2
    error_message = "1.30 honours everything"
  }
}

run "version_forms_accepted" {
  command = plan

  variables {
    kubernetes_version = "v1.31.2-eks-7f9249a"
  }
}

run "match_conditions_before_1_28_are_a_plan_error" {
  command = plan

  variables {
    kubernetes_version = "v1.27.9"
  }

  expect_failures = [output.manifests]
}

run "match_conditions_from_overrides_count_too" {
  command = plan

  variables {
    kubernetes_version = "1.27"
    functions          = ["plain"]
    overrides          = { plain = { match_conditions = [{ name = "x", expression = "true" }] } }
  }

  expect_failures = [output.manifests]
}

run "without_match_conditions_1_27_is_fine" {
  command = plan

  variables {
    kubernetes_version = "1.27"
    functions          = ["plain"]
  }

  assert {
    condition     = nonsensitive(output.validating_configuration.webhooks[0].name) == "plain.tollgate.dev"
    error_message = "no matchConditions: nothing 1.27 cannot honour"
  }
}

run "beta_match_conditions_on_1_28_render_with_a_warning" {
  command = plan

  variables {
    kubernetes_version = "1.28"
  }

  # The check block's warning does not fail the plan.
  expect_failures = [check.match_conditions_are_ga]

  assert {
    condition     = length(nonsensitive(output.validating_configuration.webhooks)) == 2
    error_message = "1.28 renders matchConditions"
  }
}

run "exclusions_before_1_21_are_a_plan_error" {
  command = plan

  variables {
    kubernetes_version = "1.20"
    functions          = ["plain"]
  }

  expect_failures = [output.manifests]
}

run "without_exclusions_1_20_is_fine" {
  command = plan

  variables {
    kubernetes_version  = "1.20"
    functions           = ["plain"]
    excluded_namespaces = []
    functions_namespace = null
  }

  assert {
    condition     = !contains(keys(nonsensitive(output.validating_configuration.webhooks[0])), "namespaceSelector")
    error_message = "no exclusions rendered"
  }
}

run "rejects_a_version_that_is_not_one" {
  command = plan

  variables {
    kubernetes_version = "latest"
  }

  expect_failures = [var.kubernetes_version]
}

run "rejects_versions_without_admissionregistration_v1" {
  command = plan

  variables {
    kubernetes_version = "1.15"
  }

  expect_failures = [var.kubernetes_version]
}
