# policy_rules: a CEL function registered for what its policies select (tollgate registration's output), in place of
# the rules its catalog entry declares.

variables {
  kubernetes_version = "1.30"
  function_urls      = { cel = "https://cel.example.com", other = "https://other.example.com" }
  catalog = {
    functions = {
      cel = {
        webhooks = [{
          type = "validating"
          path = "/cel"
          webhook = {
            name                    = "cel.tollgate.dev"
            rules                   = [{ operations = ["CREATE", "UPDATE"], apiGroups = ["apps"], apiVersions = ["*"], resources = ["deployments"], scope = "Namespaced" }]
            objectSelector          = { matchLabels = { declared = "yes" } }
            sideEffects             = "None"
            timeoutSeconds          = 10
            admissionReviewVersions = ["v1"]
          }
        }]
      }
      other = {
        webhooks = [{
          type = "validating"
          path = "/other"
          webhook = {
            name                    = "other.tollgate.dev"
            rules                   = [{ operations = ["CREATE"], apiGroups = [""], apiVersions = ["v1"], resources = ["configmaps"] }]
            sideEffects             = "None"
            timeoutSeconds          = 10
            admissionReviewVersions = ["v1"]
          }
        }]
      }
    }
  }
  policy_rules = {
    cel = {
      generated_by = "tollgate registration tests/policy-rules"
      sources      = [{ file = "tests/policy-rules/constraint.yaml", sha256 = "04460c63749257321522409183962f330d40bc39c9f6f0ac97535fd9ad0e3648" }]
      rules        = [{ operations = ["CREATE", "UPDATE"], apiGroups = [""], apiVersions = ["*"], resources = ["pods"], scope = "*" }]
      namespaceSelector = {
        matchExpressions = [
          { key = "kubernetes.io/metadata.name", operator = "NotIn", values = ["legacy"] },
          { key = "team", operator = "Exists" },
        ]
      }
      policies            = ["K8sRequiredLabels/pods-need-owner"]
      applied_by_function = ["K8sRequiredLabels/pods-need-owner: name web-*"]
    }
  }
}

run "derived_rules_and_selectors_replace_the_declared_ones" {
  command = plan

  assert {
    condition = jsonencode(output.validating_configuration.webhooks[0].rules) == jsonencode([
      { operations = ["CREATE", "UPDATE"], apiGroups = [""], apiVersions = ["*"], resources = ["pods"], scope = "*" }
    ])
    error_message = "cel's rules must be the derived ones."
  }
  assert {
    condition = jsonencode(output.validating_configuration.webhooks[0].namespaceSelector.matchExpressions) == jsonencode([
      { key = "kubernetes.io/metadata.name", operator = "NotIn", values = ["legacy"] },
      { key = "team", operator = "Exists" },
      { key = "kubernetes.io/metadata.name", operator = "NotIn", values = ["knative-eventing", "knative-operator", "knative-serving", "kourier-system", "kube-node-lease", "kube-system", "tollgate"] },
    ])
    error_message = "The derived namespaceSelector, then the control-plane exclusion."
  }
  assert {
    condition     = !can(output.validating_configuration.webhooks[0].objectSelector)
    error_message = "The declared objectSelector is replaced: the derived registration has none."
  }
  assert {
    condition     = jsonencode(output.validating_configuration.webhooks[1].rules) == jsonencode([{ operations = ["CREATE"], apiGroups = [""], apiVersions = ["v1"], resources = ["configmaps"] }])
    error_message = "A function without policy_rules keeps its declared rules."
  }
  assert {
    condition     = output.policy_rules.cel.applied_by_function == tolist(["K8sRequiredLabels/pods-need-owner: name web-*"]) && output.policy_rules.cel.policies == tolist(["K8sRequiredLabels/pods-need-owner"])
    error_message = "The summary lists the policies and what the function applies."
  }
}

run "before_1_21_the_name_requirements_are_left_to_the_function" {
  command = plan

  variables {
    kubernetes_version  = "1.20"
    excluded_namespaces = []
    functions_namespace = null
  }

  assert {
    condition     = jsonencode(output.validating_configuration.webhooks[0].namespaceSelector.matchExpressions) == jsonencode([{ key = "team", operator = "Exists" }])
    error_message = "1.20 sets no kubernetes.io/metadata.name label: that requirement is dropped."
  }
  assert {
    condition = output.policy_rules.cel.applied_by_function == tolist([
      "K8sRequiredLabels/pods-need-owner: name web-*",
      "namespaceSelector kubernetes.io/metadata.name NotIn [legacy] (needs Kubernetes 1.21)",
    ])
    error_message = "The dropped requirement is listed as applied by the function."
  }
}

run "a_source_changed_since_the_derivation_fails_the_plan" {
  command = plan

  variables {
    policy_rules = {
      cel = {
        sources = [{ file = "tests/policy-rules/constraint.yaml", sha256 = "0000000000000000000000000000000000000000000000000000000000000000" }]
        rules   = [{ operations = ["CREATE"], apiGroups = [""], apiVersions = ["*"], resources = ["pods"], scope = "*" }]
      }
    }
  }

  expect_failures = [output.manifests]
}

run "a_source_not_found_is_a_warning" {
  command = plan

  variables {
    policy_rules = {
      cel = {
        sources = [{ file = "tests/policy-rules/not-here.yaml", sha256 = "0000000000000000000000000000000000000000000000000000000000000000" }]
        rules   = [{ operations = ["CREATE"], apiGroups = [""], apiVersions = ["*"], resources = ["pods"], scope = "*" }]
      }
    }
  }

  expect_failures = [check.policy_rules_sources_found]
}

run "a_function_not_in_the_catalog_is_refused" {
  command = plan

  variables {
    policy_rules = { nosuch = { rules = [] } }
  }

  expect_failures = [var.policy_rules]
}

run "a_bad_rule_is_refused" {
  command = plan

  variables {
    policy_rules = { cel = { rules = [{ operations = ["PATCH"], apiGroups = [""], apiVersions = ["*"], resources = ["pods"] }] } }
  }

  expect_failures = [var.policy_rules]
}

run "a_bad_selector_is_refused" {
  command = plan

  variables {
    policy_rules = { cel = {
      rules          = [{ operations = ["CREATE"], apiGroups = [""], apiVersions = ["*"], resources = ["pods"] }]
      objectSelector = { matchExpressions = [{ key = "tier", operator = "In" }] }
    } }
  }

  expect_failures = [var.policy_rules]
}
