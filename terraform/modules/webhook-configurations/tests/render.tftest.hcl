# Rendering: the configurations field by field, from a small catalog that uses every declared field.

variables {
  kubernetes_version = "1.30"
  catalog = {
    functions = {
      alpha = {
        webhooks = [{
          type = "mutating"
          path = "/alpha"
          webhook = {
            name = "alpha.tollgate.dev"
            rules = [{
              operations  = ["CREATE"]
              apiGroups   = [""]
              apiVersions = ["v1"]
              resources   = ["pods"]
            }]
            failurePolicy      = "Fail"
            matchPolicy        = "Exact"
            reinvocationPolicy = "IfNeeded"
            sideEffects        = "None"
            timeoutSeconds     = 10
            namespaceSelector = {
              matchExpressions = [{ key = "tier", operator = "Exists" }]
            }
            objectSelector = {
              matchLabels = { "app.kubernetes.io/part-of" = "shop" }
            }
            matchConditions         = [{ name = "not-a-node", expression = "request.userInfo.username != 'system:node'" }]
            admissionReviewVersions = ["v1", "v1beta1"]
          }
        }]
      }
      beta = {
        webhooks = [
          {
            type = "validating"
            path = "/beta/enforce"
            webhook = {
              name = "enforce.beta.tollgate.dev"
              rules = [{
                operations  = ["CREATE", "UPDATE"]
                apiGroups   = ["apps"]
                apiVersions = ["v1"]
                resources   = ["deployments"]
                scope       = "Namespaced"
              }]
              sideEffects             = "NoneOnDryRun"
              admissionReviewVersions = ["v1"]
            }
          },
          {
            type = "validating"
            path = "/beta/warn"
            webhook = {
              name                    = "warn.beta.tollgate.dev"
              rules                   = [{ operations = ["*"], apiGroups = ["*"], apiVersions = ["*"], resources = ["*/*"], scope = "*" }]
              failurePolicy           = "Ignore"
              sideEffects             = "None"
              admissionReviewVersions = ["v1"]
            }
          },
        ]
      }
    }
  }
  function_urls = {
    alpha = "https://alpha.functions.example.com/"
    beta  = "https://beta.functions.example.com:8443/base"
  }
}

run "mutating_configuration_carries_every_declared_field" {
  command = plan

  assert {
    condition     = output.mutating_configuration.apiVersion == "admissionregistration.k8s.io/v1" && output.mutating_configuration.kind == "MutatingWebhookConfiguration"
    error_message = "apiVersion/kind of the mutating configuration"
  }
  assert {
    condition     = output.mutating_configuration.metadata.name == "tollgate" && output.mutating_configuration.metadata.labels["app.kubernetes.io/managed-by"] == "terraform"
    error_message = "metadata of the mutating configuration"
  }
  assert {
    condition     = length(output.mutating_configuration.webhooks) == 1
    error_message = "one mutating webhook"
  }
  assert {
    condition     = output.mutating_configuration.webhooks[0].name == "alpha.tollgate.dev"
    error_message = "name"
  }
  assert {
    condition     = output.mutating_configuration.webhooks[0].clientConfig.url == "https://alpha.functions.example.com/alpha"
    error_message = "url = base URL (trailing / dropped) + path, got ${nonsensitive(output.mutating_configuration.webhooks[0].clientConfig.url)}"
  }
  assert {
    condition     = !contains(keys(output.mutating_configuration.webhooks[0].clientConfig), "caBundle")
    error_message = "no caBundle unless one is given"
  }
  assert {
    condition     = output.mutating_configuration.webhooks[0].matchPolicy == "Exact" && output.mutating_configuration.webhooks[0].reinvocationPolicy == "IfNeeded" && output.mutating_configuration.webhooks[0].sideEffects == "None"
    error_message = "matchPolicy, reinvocationPolicy and sideEffects as declared"
  }
  assert {
    condition     = jsonencode(output.mutating_configuration.webhooks[0].admissionReviewVersions) == jsonencode(["v1", "v1beta1"])
    error_message = "admissionReviewVersions as declared, in order"
  }
  assert {
    condition     = output.mutating_configuration.webhooks[0].failurePolicy == "Fail"
    error_message = "failurePolicy as declared"
  }
  assert {
    condition     = jsonencode(output.mutating_configuration.webhooks[0].rules) == jsonencode([{ operations = ["CREATE"], apiGroups = [""], apiVersions = ["v1"], resources = ["pods"] }])
    error_message = "rules as declared, with no scope added: ${nonsensitive(jsonencode(output.mutating_configuration.webhooks[0].rules))}"
  }
  assert {
    condition = jsonencode(output.mutating_configuration.webhooks[0].namespaceSelector) == jsonencode({
      matchExpressions = [
        { key = "tier", operator = "Exists" },
        { key = "kubernetes.io/metadata.name", operator = "NotIn", values = ["knative-eventing", "knative-operator", "knative-serving", "kourier-system", "kube-node-lease", "kube-system", "tollgate"] },
      ]
    })
    error_message = "declared namespaceSelector then the excluded namespaces: ${nonsensitive(jsonencode(output.mutating_configuration.webhooks[0].namespaceSelector))}"
  }
  assert {
    condition     = jsonencode(output.mutating_configuration.webhooks[0].objectSelector) == jsonencode({ matchLabels = { "app.kubernetes.io/part-of" = "shop" } })
    error_message = "objectSelector as declared"
  }
  assert {
    condition     = jsonencode(output.mutating_configuration.webhooks[0].matchConditions) == jsonencode([{ name = "not-a-node", expression = "request.userInfo.username != 'system:node'" }])
    error_message = "matchConditions as declared"
  }
  assert {
    condition     = output.mutating_configuration.webhooks[0].timeoutSeconds == 10
    error_message = "timeoutSeconds as declared (10), checked against the default budget (5 + 1 + 1 = 7)"
  }
  assert {
    condition     = length(keys(output.mutating_configuration.webhooks[0])) == 12
    error_message = "exactly the declared fields plus clientConfig: ${join(", ", nonsensitive(keys(output.mutating_configuration.webhooks[0])))}"
  }
}

run "validating_configuration_keeps_catalog_order_and_sub_paths" {
  command = plan

  assert {
    condition     = jsonencode([for w in output.validating_configuration.webhooks : w.name]) == jsonencode(["enforce.beta.tollgate.dev", "warn.beta.tollgate.dev"])
    error_message = "webhooks in catalog order"
  }
  assert {
    condition     = jsonencode([for w in output.validating_configuration.webhooks : w.clientConfig.url]) == jsonencode(["https://beta.functions.example.com:8443/base/beta/enforce", "https://beta.functions.example.com:8443/base/beta/warn"])
    error_message = "URL = base URL with port and path + the entry's sub-path"
  }
  assert {
    condition     = jsonencode([for w in output.validating_configuration.webhooks : w.failurePolicy]) == jsonencode(["Fail", "Ignore"])
    error_message = "failurePolicy: Fail when not declared, Ignore as declared"
  }
  assert {
    condition     = output.validating_configuration.webhooks[0].sideEffects == "NoneOnDryRun"
    error_message = "sideEffects as declared"
  }
  assert {
    condition     = !contains(keys(output.validating_configuration.webhooks[0]), "matchConditions") && !contains(keys(output.validating_configuration.webhooks[0]), "objectSelector") && !contains(keys(output.validating_configuration.webhooks[0]), "matchPolicy")
    error_message = "fields nobody declared stay absent"
  }
  assert {
    condition     = !contains(keys(output.validating_configuration.webhooks[0]), "reinvocationPolicy")
    error_message = "no reinvocationPolicy on validating webhooks"
  }
  assert {
    condition     = output.validating_configuration.webhooks[1].rules[0].scope == "*" && jsonencode(output.validating_configuration.webhooks[1].rules[0].resources) == jsonencode(["*/*"])
    error_message = "wildcard rules as declared"
  }
  assert {
    condition     = jsonencode(output.manifest_kinds) == jsonencode(["MutatingWebhookConfiguration", "ValidatingWebhookConfiguration"])
    error_message = "both kinds present"
  }
}

run "yaml_outputs_are_the_objects" {
  command = plan

  assert {
    condition     = jsonencode(yamldecode(output.validating_configuration_yaml)) == jsonencode(output.validating_configuration)
    error_message = "validating YAML decodes to the object"
  }
  assert {
    condition     = jsonencode(yamldecode(output.mutating_configuration_yaml)) == jsonencode(output.mutating_configuration)
    error_message = "mutating YAML decodes to the object"
  }
  assert {
    condition     = length(split("---\n", output.manifests_yaml)) == 2 && jsonencode(yamldecode(split("---\n", output.manifests_yaml)[1])) == jsonencode(output.manifests.ValidatingWebhookConfiguration)
    error_message = "manifests_yaml: the mutating then the validating configuration"
  }
}

run "path_token_ca_bundle_and_default_url" {
  command = plan

  variables {
    function_urls = { alpha = "https://alpha.functions.example.com" }
    default_url   = "https://all-in-one.functions.example.com/"
    path_tokens   = { beta = "s3cr3t-T0ken_value-0123456789" }
    ca_bundle     = "-----BEGIN CERTIFICATE-----\nMIIB\n-----END CERTIFICATE-----\n"
  }

  assert {
    condition     = output.validating_configuration.webhooks[0].clientConfig.url == "https://all-in-one.functions.example.com/s3cr3t-T0ken_value-0123456789/beta/enforce"
    error_message = "token is the first path segment, after the default URL"
  }
  assert {
    condition     = output.mutating_configuration.webhooks[0].clientConfig.url == "https://alpha.functions.example.com/alpha"
    error_message = "functions without a token keep plain URLs"
  }
  assert {
    condition     = output.mutating_configuration.webhooks[0].clientConfig.caBundle == base64encode("-----BEGIN CERTIFICATE-----\nMIIB\n-----END CERTIFICATE-----\n")
    error_message = "caBundle is the base64 of the PEM"
  }
  assert {
    condition     = base64decode(output.validating_configuration.webhooks[1].clientConfig.caBundle) == var.ca_bundle
    error_message = "caBundle on every webhook"
  }
}

run "overrides_apply_to_every_webhook_of_the_function" {
  command = plan

  variables {
    overrides = {
      beta = {
        failure_policy  = "Ignore"
        timeout_seconds = 12
        namespace_selector = {
          matchLabels      = { "tollgate.dev/enforce" = "true" }
          matchExpressions = [{ key = "env", operator = "In", values = ["prod", "staging"] }]
        }
        object_selector  = { matchExpressions = [{ key = "tollgate.dev/skip", operator = "DoesNotExist" }] }
        match_conditions = [{ name = "skip-dry-run", expression = "!request.dryRun" }]
      }
    }
  }

  assert {
    condition     = jsonencode([for w in output.validating_configuration.webhooks : w.failurePolicy]) == jsonencode(["Ignore", "Ignore"])
    error_message = "failure_policy override on both webhooks"
  }
  assert {
    condition     = jsonencode([for w in output.validating_configuration.webhooks : w.timeoutSeconds]) == jsonencode([12, 12])
    error_message = "timeout_seconds override"
  }
  assert {
    condition = jsonencode(output.validating_configuration.webhooks[0].namespaceSelector) == jsonencode({
      matchExpressions = [
        { key = "kubernetes.io/metadata.name", operator = "NotIn", values = ["knative-eventing", "knative-operator", "knative-serving", "kourier-system", "kube-node-lease", "kube-system", "tollgate"] },
        { key = "env", operator = "In", values = ["prod", "staging"] },
      ]
      matchLabels = { "tollgate.dev/enforce" = "true" }
    })
    error_message = "namespace selector additions after the exclusion: ${nonsensitive(jsonencode(output.validating_configuration.webhooks[0].namespaceSelector))}"
  }
  assert {
    condition     = jsonencode(output.validating_configuration.webhooks[1].objectSelector) == jsonencode({ matchExpressions = [{ key = "tollgate.dev/skip", operator = "DoesNotExist" }] })
    error_message = "object selector addition"
  }
  assert {
    condition     = jsonencode(output.validating_configuration.webhooks[1].matchConditions) == jsonencode([{ name = "skip-dry-run", expression = "!request.dryRun" }])
    error_message = "match condition addition"
  }
  assert {
    condition     = output.mutating_configuration.webhooks[0].failurePolicy == "Fail" && output.mutating_configuration.webhooks[0].timeoutSeconds == 10
    error_message = "other functions unchanged"
  }
  assert {
    condition     = output.webhooks["warn.beta.tollgate.dev"].timeout_seconds == 12 && output.webhooks["alpha.tollgate.dev"].declared_timeout_seconds == 10
    error_message = "webhooks summary"
  }
}

run "additions_merge_with_declared_selectors_and_conditions" {
  command = plan

  variables {
    overrides = {
      alpha = {
        object_selector  = { matchLabels = { team = "payments" } }
        match_conditions = [{ name = "only-create", expression = "request.operation == 'CREATE'" }]
      }
    }
  }

  assert {
    condition     = jsonencode(output.mutating_configuration.webhooks[0].objectSelector.matchLabels) == jsonencode({ "app.kubernetes.io/part-of" = "shop", team = "payments" })
    error_message = "matchLabels merged"
  }
  assert {
    condition     = [for c in output.mutating_configuration.webhooks[0].matchConditions : c.name] == ["not-a-node", "only-create"]
    error_message = "declared conditions first, then the added ones"
  }
}

run "disabled_and_unselected_functions_are_left_out" {
  command = plan

  variables {
    overrides = { alpha = { enabled = false } }
  }

  assert {
    condition     = output.mutating_configuration == null && output.mutating_configuration_yaml == ""
    error_message = "no mutating configuration without mutating functions"
  }
  assert {
    condition     = jsonencode(output.manifest_kinds) == jsonencode(["ValidatingWebhookConfiguration"]) && jsonencode(keys(output.manifests)) == jsonencode(["ValidatingWebhookConfiguration"])
    error_message = "only the validating kind"
  }
  assert {
    condition     = jsonencode(keys(output.timeouts)) == jsonencode(["beta"])
    error_message = "timeouts only for registered functions"
  }
}

run "selecting_functions" {
  command = plan

  variables {
    functions     = ["alpha"]
    function_urls = { alpha = "https://alpha.functions.example.com" }
  }

  assert {
    condition     = output.validating_configuration == null && length(output.mutating_configuration.webhooks) == 1
    error_message = "only alpha is registered; beta needs no URL"
  }
}

run "no_exclusions_means_no_namespace_selector" {
  command = plan

  variables {
    excluded_namespaces = []
    functions_namespace = null
  }

  assert {
    condition     = !contains(keys(output.validating_configuration.webhooks[0]), "namespaceSelector")
    error_message = "an empty selector is left out"
  }
  assert {
    condition     = jsonencode(output.mutating_configuration.webhooks[0].namespaceSelector) == jsonencode({ matchExpressions = [{ key = "tier", operator = "Exists" }] })
    error_message = "the declared selector alone"
  }
}

run "custom_name_and_labels" {
  command = plan

  variables {
    configuration_name  = "tollgate.policies"
    labels              = { env = "prod" }
    functions_namespace = "admission-functions"
  }

  assert {
    condition     = output.validating_configuration.metadata.name == "tollgate.policies" && output.validating_configuration.metadata.labels.env == "prod"
    error_message = "metadata from the variables"
  }
  assert {
    condition     = contains(output.validating_configuration.webhooks[0].namespaceSelector.matchExpressions[0].values, "admission-functions") && !contains(output.validating_configuration.webhooks[0].namespaceSelector.matchExpressions[0].values, "tollgate")
    error_message = "the functions' namespace is excluded"
  }
}
