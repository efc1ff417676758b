# Every rejection: each run breaks one input and expects the variable validation (or output precondition) that
# names the problem. Generated rows are kept flat on purpose: one run, one rule.

variables {
  kubernetes_version = "1.30"
  catalog = {
    functions = {
      demo = {
        webhooks = [{
          type = "validating"
          path = "/demo"
          webhook = {
            name                    = "demo.tollgate.dev"
            rules                   = [{ operations = ["CREATE"], apiGroups = [""], apiVersions = ["v1"], resources = ["pods"] }]
            sideEffects             = "None"
            admissionReviewVersions = ["v1"]
          }
        }]
      }
    }
  }
  function_urls = { demo = "https://demo.example.com" }
}

run "the_base_inputs_are_valid" {
  command = plan

  assert {
    condition     = nonsensitive(output.validating_configuration.webhooks[0].clientConfig.url) == "https://demo.example.com/demo"
    error_message = "control: the unmodified inputs render"
  }
}

run "rejects_url_http" {
  command = plan

  variables {
    function_urls = { demo = "http://demo.example.com" }
  }

  expect_failures = [var.function_urls]
}

run "rejects_url_user_info" {
  command = plan

  variables {
    function_urls = { demo = "https://user:pw@demo.example.com" }
  }

  expect_failures = [var.function_urls]
}

run "rejects_url_query" {
  command = plan

  variables {
    function_urls = { demo = "https://demo.example.com/?a=b" }
  }

  expect_failures = [var.function_urls]
}

run "rejects_url_fragment" {
  command = plan

  variables {
    function_urls = { demo = "https://demo.example.com/#top" }
  }

  expect_failures = [var.function_urls]
}

run "rejects_url_without_host" {
  command = plan

  variables {
    function_urls = { demo = "https:///demo" }
  }

  expect_failures = [var.function_urls]
}

run "rejects_url_for_unknown_function" {
  command = plan

  variables {
    function_urls = { demo = "https://demo.example.com", other = "https://other.example.com" }
  }

  expect_failures = [var.function_urls]
}

run "rejects_url_missing_for_a_registered_function" {
  command = plan

  variables {
    function_urls = {}
  }

  expect_failures = [var.function_urls]
}

run "rejects_default_url_http" {
  command = plan

  variables {
    function_urls = {}
    default_url   = "http://all.example.com"
  }

  expect_failures = [var.default_url]
}

run "rejects_default_url_with_query" {
  command = plan

  variables {
    function_urls = {}
    default_url   = "https://all.example.com/?x=1"
  }

  expect_failures = [var.default_url]
}

run "rejects_unknown_function_selected" {
  command = plan

  variables {
    functions = ["demo", "missing"]
  }

  expect_failures = [var.functions]
}

run "rejects_ca_bundle_not_pem" {
  command = plan

  variables {
    ca_bundle = "LS0tLS1CRUdJTiBDRVJUSUZJQ0FURS0tLS0t"
  }

  expect_failures = [var.ca_bundle]
}

run "rejects_path_token_too_short" {
  command = plan

  variables {
    path_tokens = { demo = "short" }
  }

  expect_failures = [var.path_tokens]
}

run "rejects_path_token_with_slash" {
  command = plan

  variables {
    path_tokens = { demo = "abcdefghijklmnop/qrstuv" }
  }

  expect_failures = [var.path_tokens]
}

run "rejects_path_token_for_unknown_function" {
  command = plan

  variables {
    path_tokens = { other = "abcdefghijklmnopqrstuv" }
  }

  expect_failures = [var.path_tokens]
}

run "rejects_override_unknown_function" {
  command = plan

  variables {
    overrides = { other = { enabled = false } }
  }

  expect_failures = [var.overrides]
}

run "rejects_override_failure_policy" {
  command = plan

  variables {
    overrides = { demo = { failure_policy = "Never" } }
  }

  expect_failures = [var.overrides]
}

run "rejects_override_timeout_zero" {
  command = plan

  variables {
    overrides = { demo = { timeout_seconds = 0 } }
  }

  expect_failures = [var.overrides]
}

run "rejects_override_timeout_31" {
  command = plan

  variables {
    overrides = { demo = { timeout_seconds = 31 } }
  }

  expect_failures = [var.overrides]
}

run "rejects_override_timeout_fraction" {
  command = plan

  variables {
    overrides = { demo = { timeout_seconds = 7.5 } }
  }

  expect_failures = [var.overrides]
}

run "rejects_override_selector_operator" {
  command = plan

  variables {
    overrides = { demo = { namespace_selector = { matchExpressions = [{ key = "a", operator = "Has" }] } } }
  }

  expect_failures = [var.overrides]
}

run "rejects_override_selector_in_without_values" {
  command = plan

  variables {
    overrides = { demo = { object_selector = { matchExpressions = [{ key = "a", operator = "In" }] } } }
  }

  expect_failures = [var.overrides]
}

run "rejects_override_selector_exists_with_values" {
  command = plan

  variables {
    overrides = { demo = { object_selector = { matchExpressions = [{ key = "a", operator = "Exists", values = ["x"] }] } } }
  }

  expect_failures = [var.overrides]
}

run "rejects_override_selector_bad_key" {
  command = plan

  variables {
    overrides = { demo = { namespace_selector = { matchLabels = { "-bad" = "x" } } } }
  }

  expect_failures = [var.overrides]
}

run "rejects_override_selector_bad_value" {
  command = plan

  variables {
    overrides = { demo = { namespace_selector = { matchLabels = { team = "has space" } } } }
  }

  expect_failures = [var.overrides]
}

run "rejects_override_match_conditions_duplicate" {
  command = plan

  variables {
    overrides = { demo = { match_conditions = [{ name = "a", expression = "true" }, { name = "a", expression = "false" }] } }
  }

  expect_failures = [var.overrides]
}

run "rejects_override_match_conditions_over_64" {
  command = plan

  variables {
    overrides = { demo = { match_conditions = [{ name = "c0", expression = "true" }, { name = "c1", expression = "true" }, { name = "c2", expression = "true" }, { name = "c3", expression = "true" }, { name = "c4", expression = "true" }, { name = "c5", expression = "true" }, { name = "c6", expression = "true" }, { name = "c7", expression = "true" }, { name = "c8", expression = "true" }, { name = "c9", expression = "true" }, { name = "c10", expression = "true" }, { name = "c11", expression = "true" }, { name = "c12", expression = "true" }, { name = "c13", expression = "true" }, { name = "c14", expression = "true" }, { name = "c15", expression = "true" }, { name = "c16", expression = "true" }, { name = "c17", expression = "true" }, { name = "c18", expression = "true" }, { name = "c19", expression = "true" }, { name = "c20", expression = "true" }, { name = "c21", expression = "true" }, { name = "c22", expression = "true" }, { name = "c23", expression = "true" }, { name = "c24", expression = "true" }, { name = "c25", expression = "true" }, { name = "c26", expression = "true" }, { name = "c27", expression = "true" }, { name = "c28", expression = "true" }, { name = "c29", expression = "true" }, { name = "c30", expression = "true" }, { name = "c31", expression = "true" }, { name = "c32", expression = "true" }, { name = "c33", expression = "true" }, { name = "c34", expression = "true" }, { name = "c35", expression = "true" }, { name = "c36", expression = "true" }, { name = "c37", expression = "true" }, { name = "c38", expression = "true" }, { name = "c39", expression = "true" }, { name = "c40", expression = "true" }, { name = "c41", expression = "true" }, { name = "c42", expression = "true" }, { name = "c43", expression = "true" }, { name = "c44", expression = "true" }, { name = "c45", expression = "true" }, { name = "c46", expression = "true" }, { name = "c47", expression = "true" }, { name = "c48", expression = "true" }, { name = "c49", expression = "true" }, { name = "c50", expression = "true" }, { name = "c51", expression = "true" }, { name = "c52", expression = "true" }, { name = "c53", expression = "true" }, { name = "c54", expression = "true" }, { name = "c55", expression = "true" }, { name = "c56", expression = "true" }, { name = "c57", expression = "true" }, { name = "c58", expression = "true" }, { name = "c59", expression = "true" }, { name = "c60", expression = "true" }, { name = "c61", expression = "true" }, { name = "c62", expression = "true" }, { name = "c63", expression = "true" }, { name = "c64", expression = "true" }] } }
  }

  expect_failures = [var.overrides]
}

run "rejects_override_match_condition_bad_name" {
  command = plan

  variables {
    overrides = { demo = { match_conditions = [{ name = "not ok", expression = "true" }] } }
  }

  expect_failures = [var.overrides]
}

run "rejects_override_match_condition_empty_expression" {
  command = plan

  variables {
    overrides = { demo = { match_conditions = [{ name = "a", expression = " " }] } }
  }

  expect_failures = [var.overrides]
}

run "rejects_excluded_namespace_not_a_label" {
  command = plan

  variables {
    excluded_namespaces = ["Kube_System"]
  }

  expect_failures = [var.excluded_namespaces]
}

run "rejects_functions_namespace_not_a_label" {
  command = plan

  variables {
    functions_namespace = "tollgate.functions"
  }

  expect_failures = [var.functions_namespace]
}

run "rejects_negative_cold_start" {
  command = plan

  variables {
    timing = { cold_start_seconds = -1 }
  }

  expect_failures = [var.timing]
}

run "rejects_zero_evaluation" {
  command = plan

  variables {
    timing = { evaluation_seconds = 0 }
  }

  expect_failures = [var.timing]
}

run "rejects_configuration_name_invalid" {
  command = plan

  variables {
    configuration_name = "Tollgate_Hooks"
  }

  expect_failures = [var.configuration_name]
}

run "rejects_catalog_empty" {
  command = plan

  variables {
    catalog       = { functions = {} }
    function_urls = {}
  }

  expect_failures = [var.catalog]
}

run "rejects_catalog_bad_type" {
  command = plan

  variables {
    catalog = {
      functions = {
        demo = {
          webhooks = [{
            type = "readonly"
            path = "/demo"
            webhook = {
              name                    = "demo.tollgate.dev"
              sideEffects             = "None"
              admissionReviewVersions = ["v1"]

            }
          }]
        }
      }
    }
  }

  expect_failures = [var.catalog]
}

run "rejects_catalog_path_of_another_function" {
  command = plan

  variables {
    catalog = {
      functions = {
        demo = {
          webhooks = [{
            type = "validating"
            path = "/other"
            webhook = {
              name                    = "demo.tollgate.dev"
              sideEffects             = "None"
              admissionReviewVersions = ["v1"]

            }
          }]
        }
      }
    }
  }

  expect_failures = [var.catalog]
}

run "rejects_catalog_path_with_query" {
  command = plan

  variables {
    catalog = {
      functions = {
        demo = {
          webhooks = [{
            type = "validating"
            path = "/demo?x=1"
            webhook = {
              name                    = "demo.tollgate.dev"
              sideEffects             = "None"
              admissionReviewVersions = ["v1"]

            }
          }]
        }
      }
    }
  }

  expect_failures = [var.catalog]
}

run "rejects_catalog_name_not_qualified" {
  command = plan

  variables {
    catalog = {
      functions = {
        demo = {
          webhooks = [{
            type = "validating"
            path = "/demo"
            webhook = {
              name                    = "demo"
              sideEffects             = "None"
              admissionReviewVersions = ["v1"]

            }
          }]
        }
      }
    }
  }

  expect_failures = [var.catalog]
}

run "rejects_catalog_duplicate_names" {
  command = plan

  variables {
    catalog = {
      functions = {
        demo = {
          webhooks = [{
            type = "validating"
            path = "/demo"
            webhook = {
              name                    = "demo.tollgate.dev"
              sideEffects             = "None"
              admissionReviewVersions = ["v1"]

            }
          }, { type = "validating", path = "/demo/two", webhook = { name = "demo.tollgate.dev", sideEffects = "None", admissionReviewVersions = ["v1"] } }]
        }
      }
    }
  }

  expect_failures = [var.catalog]
}

run "rejects_catalog_side_effects_some" {
  command = plan

  variables {
    catalog = {
      functions = {
        demo = {
          webhooks = [{
            type = "validating"
            path = "/demo"
            webhook = {
              name                    = "demo.tollgate.dev"
              sideEffects             = "Some"
              admissionReviewVersions = ["v1"]

            }
          }]
        }
      }
    }
  }

  expect_failures = [var.catalog]
}

run "rejects_catalog_side_effects_missing" {
  command = plan

  variables {
    catalog = {
      functions = {
        demo = {
          webhooks = [{
            type = "validating"
            path = "/demo"
            webhook = {
              name                    = "demo.tollgate.dev"
              admissionReviewVersions = ["v1"]

            }
          }]
        }
      }
    }
  }

  expect_failures = [var.catalog]
}

run "rejects_catalog_failure_policy" {
  command = plan

  variables {
    catalog = {
      functions = {
        demo = {
          webhooks = [{
            type = "validating"
            path = "/demo"
            webhook = {
              name                    = "demo.tollgate.dev"
              sideEffects             = "None"
              admissionReviewVersions = ["v1"]
              failurePolicy           = "Never"
            }
          }]
        }
      }
    }
  }

  expect_failures = [var.catalog]
}

run "rejects_catalog_match_policy" {
  command = plan

  variables {
    catalog = {
      functions = {
        demo = {
          webhooks = [{
            type = "validating"
            path = "/demo"
            webhook = {
              name                    = "demo.tollgate.dev"
              sideEffects             = "None"
              admissionReviewVersions = ["v1"]
              matchPolicy             = "Fuzzy"
            }
          }]
        }
      }
    }
  }

  expect_failures = [var.catalog]
}

run "rejects_catalog_timeout_31" {
  command = plan

  variables {
    catalog = {
      functions = {
        demo = {
          webhooks = [{
            type = "validating"
            path = "/demo"
            webhook = {
              name                    = "demo.tollgate.dev"
              sideEffects             = "None"
              admissionReviewVersions = ["v1"]
              timeoutSeconds          = 31
            }
          }]
        }
      }
    }
  }

  expect_failures = [var.catalog]
}

run "rejects_catalog_timeout_0" {
  command = plan

  variables {
    catalog = {
      functions = {
        demo = {
          webhooks = [{
            type = "validating"
            path = "/demo"
            webhook = {
              name                    = "demo.tollgate.dev"
              sideEffects             = "None"
              admissionReviewVersions = ["v1"]
              timeoutSeconds          = 0
            }
          }]
        }
      }
    }
  }

  expect_failures = [var.catalog]
}

run "rejects_catalog_reinvocation_on_validating" {
  command = plan

  variables {
    catalog = {
      functions = {
        demo = {
          webhooks = [{
            type = "validating"
            path = "/demo"
            webhook = {
              name                    = "demo.tollgate.dev"
              sideEffects             = "None"
              admissionReviewVersions = ["v1"]
              reinvocationPolicy      = "IfNeeded"
            }
          }]
        }
      }
    }
  }

  expect_failures = [var.catalog]
}

run "rejects_catalog_reinvocation_value" {
  command = plan

  variables {
    catalog = {
      functions = {
        demo = {
          webhooks = [{
            type = "mutating"
            path = "/demo"
            webhook = {
              name                    = "demo.tollgate.dev"
              sideEffects             = "None"
              admissionReviewVersions = ["v1"]
              reinvocationPolicy      = "Always"
            }
          }]
        }
      }
    }
  }

  expect_failures = [var.catalog]
}

run "rejects_catalog_review_version_unknown" {
  command = plan

  variables {
    catalog = {
      functions = {
        demo = {
          webhooks = [{
            type = "validating"
            path = "/demo"
            webhook = {
              name                    = "demo.tollgate.dev"
              sideEffects             = "None"
              admissionReviewVersions = ["v2"]

            }
          }]
        }
      }
    }
  }

  expect_failures = [var.catalog]
}

run "rejects_catalog_review_versions_empty" {
  command = plan

  variables {
    catalog = {
      functions = {
        demo = {
          webhooks = [{
            type = "validating"
            path = "/demo"
            webhook = {
              name                    = "demo.tollgate.dev"
              sideEffects             = "None"
              admissionReviewVersions = []

            }
          }]
        }
      }
    }
  }

  expect_failures = [var.catalog]
}

run "rejects_catalog_match_conditions_over_64" {
  command = plan

  variables {
    catalog = {
      functions = {
        demo = {
          webhooks = [{
            type = "validating"
            path = "/demo"
            webhook = {
              name                    = "demo.tollgate.dev"
              sideEffects             = "None"
              admissionReviewVersions = ["v1"]
              matchConditions         = [{ name = "c0", expression = "true" }, { name = "c1", expression = "true" }, { name = "c2", expression = "true" }, { name = "c3", expression = "true" }, { name = "c4", expression = "true" }, { name = "c5", expression = "true" }, { name = "c6", expression = "true" }, { name = "c7", expression = "true" }, { name = "c8", expression = "true" }, { name = "c9", expression = "true" }, { name = "c10", expression = "true" }, { name = "c11", expression = "true" }, { name = "c12", expression = "true" }, { name = "c13", expression = "true" }, { name = "c14", expression = "true" }, { name = "c15", expression = "true" }, { name = "c16", expression = "true" }, { name = "c17", expression = "true" }, { name = "c18", expression = "true" }, { name = "c19", expression = "true" }, { name = "c20", expression = "true" }, { name = "c21", expression = "true" }, { name = "c22", expression = "true" }, { name = "c23", expression = "true" }, { name = "c24", expression = "true" }, { name = "c25", expression = "true" }, { name = "c26", expression = "true" }, { name = "c27", expression = "true" }, { name = "c28", expression = "true" }, { name = "c29", expression = "true" }, { name = "c30", expression = "true" }, { name = "c31", expression = "true" }, { name = "c32", expression = "true" }, { name = "c33", expression = "true" }, { name = "c34", expression = "true" }, { name = "c35", expression = "true" }, { name = "c36", expression = "true" }, { name = "c37", expression = "true" }, { name = "c38", expression = "true" }, { name = "c39", expression = "true" }, { name = "c40", expression = "true" }, { name = "c41", expression = "true" }, { name = "c42", expression = "true" }, { name = "c43", expression = "true" }, { name = "c44", expression = "true" }, { name = "c45", expression = "true" }, { name = "c46", expression = "true" }, { name = "c47", expression = "true" }, { name = "c48", expression = "true" }, { name = "c49", expression = "true" }, { name = "c50", expression = "true" }, { name = "c51", expression = "true" }, { name = "c52", expression = "true" }, { name = "c53", expression = "true" }, { name = "c54", expression = "true" }, { name = "c55", expression = "true" }, { name = "c56", expression = "true" }, { name = "c57", expression = "true" }, { name = "c58", expression = "true" }, { name = "c59", expression = "true" }, { name = "c60", expression = "true" }, { name = "c61", expression = "true" }, { name = "c62", expression = "true" }, { name = "c63", expression = "true" }, { name = "c64", expression = "true" }]
            }
          }]
        }
      }
    }
  }

  expect_failures = [var.catalog]
}

run "rejects_catalog_match_conditions_duplicate" {
  command = plan

  variables {
    catalog = {
      functions = {
        demo = {
          webhooks = [{
            type = "validating"
            path = "/demo"
            webhook = {
              name                    = "demo.tollgate.dev"
              sideEffects             = "None"
              admissionReviewVersions = ["v1"]
              matchConditions         = [{ name = "a", expression = "true" }, { name = "a", expression = "true" }]
            }
          }]
        }
      }
    }
  }

  expect_failures = [var.catalog]
}

run "rejects_catalog_function_without_webhooks" {
  command = plan

  variables {
    catalog = { functions = { demo = { webhooks = [] } } }
  }

  expect_failures = [var.catalog]
}

run "rejects_added_conditions_exceed_64_with_declared" {
  command = plan

  variables {
    catalog = {
      functions = {
        demo = {
          webhooks = [{
            type = "validating"
            path = "/demo"
            webhook = {
              name                    = "demo.tollgate.dev"
              sideEffects             = "None"
              admissionReviewVersions = ["v1"]
              matchConditions         = [{ name = "c0", expression = "true" }, { name = "c1", expression = "true" }, { name = "c2", expression = "true" }, { name = "c3", expression = "true" }, { name = "c4", expression = "true" }, { name = "c5", expression = "true" }, { name = "c6", expression = "true" }, { name = "c7", expression = "true" }, { name = "c8", expression = "true" }, { name = "c9", expression = "true" }, { name = "c10", expression = "true" }, { name = "c11", expression = "true" }, { name = "c12", expression = "true" }, { name = "c13", expression = "true" }, { name = "c14", expression = "true" }, { name = "c15", expression = "true" }, { name = "c16", expression = "true" }, { name = "c17", expression = "true" }, { name = "c18", expression = "true" }, { name = "c19", expression = "true" }, { name = "c20", expression = "true" }, { name = "c21", expression = "true" }, { name = "c22", expression = "true" }, { name = "c23", expression = "true" }, { name = "c24", expression = "true" }, { name = "c25", expression = "true" }, { name = "c26", expression = "true" }, { name = "c27", expression = "true" }, { name = "c28", expression = "true" }, { name = "c29", expression = "true" }, { name = "c30", expression = "true" }, { name = "c31", expression = "true" }, { name = "c32", expression = "true" }, { name = "c33", expression = "true" }, { name = "c34", expression = "true" }, { name = "c35", expression = "true" }, { name = "c36", expression = "true" }, { name = "c37", expression = "true" }, { name = "c38", expression = "true" }, { name = "c39", expression = "true" }, { name = "c40", expression = "true" }, { name = "c41", expression = "true" }, { name = "c42", expression = "true" }, { name = "c43", expression = "true" }, { name = "c44", expression = "true" }, { name = "c45", expression = "true" }, { name = "c46", expression = "true" }, { name = "c47", expression = "true" }, { name = "c48", expression = "true" }, { name = "c49", expression = "true" }, { name = "c50", expression = "true" }, { name = "c51", expression = "true" }, { name = "c52", expression = "true" }, { name = "c53", expression = "true" }, { name = "c54", expression = "true" }, { name = "c55", expression = "true" }, { name = "c56", expression = "true" }, { name = "c57", expression = "true" }, { name = "c58", expression = "true" }, { name = "c59", expression = "true" }]
            }
          }]
        }
      }
    }
    overrides = { demo = { match_conditions = [{ name = "d0", expression = "true" }, { name = "d1", expression = "true" }, { name = "d2", expression = "true" }, { name = "d3", expression = "true" }, { name = "d4", expression = "true" }] } }
  }

  expect_failures = [output.manifests]
}

run "rejects_added_condition_repeats_a_declared_name" {
  command = plan

  variables {
    catalog = {
      functions = {
        demo = {
          webhooks = [{
            type = "validating"
            path = "/demo"
            webhook = {
              name                    = "demo.tollgate.dev"
              sideEffects             = "None"
              admissionReviewVersions = ["v1"]
              matchConditions         = [{ name = "d1", expression = "true" }]
            }
          }]
        }
      }
    }
    overrides = { demo = { match_conditions = [{ name = "d0", expression = "true" }, { name = "d1", expression = "true" }, { name = "d2", expression = "true" }, { name = "d3", expression = "true" }, { name = "d4", expression = "true" }] } }
  }

  expect_failures = [output.manifests]
}

run "rejects_added_label_contradicts_declared" {
  command = plan

  variables {
    catalog = {
      functions = {
        demo = {
          webhooks = [{
            type = "validating"
            path = "/demo"
            webhook = {
              name                    = "demo.tollgate.dev"
              sideEffects             = "None"
              admissionReviewVersions = ["v1"]
              objectSelector          = { matchLabels = { team = "a" } }
            }
          }]
        }
      }
    }
    overrides = { demo = { object_selector = { matchLabels = { team = "b" } } } }
  }

  expect_failures = [output.manifests]
}

# A conversion function's URL and token may be in the same maps (one map for this module and crd-conversion).
run "urls_of_conversion_functions_are_accepted" {
  command = plan
  variables {
    catalog = {
      functions = var.catalog.functions
      conversions = {
        "databases.data.tollgate.dev" = {
          function = "crd-conversion", path = "/crd-conversion", versions = ["v1beta1", "v1"]
          webhook  = { conversionReviewVersions = ["v1"] }
        }
      }
    }
    function_urls = merge(var.function_urls, { crd-conversion = "https://crd-conversion.example.com" })
    path_tokens   = { crd-conversion = "0123456789abcdef0123" }
  }
}

run "accepts_a_path_token_where_the_function_requires_one" {
  command = plan

  variables {
    caller_credentials = { demo = "path-token" }
    path_tokens        = { demo = "0123456789abcdef0123" }
  }

  assert {
    condition     = nonsensitive(output.validating_configuration.webhooks[0].clientConfig.url) == "https://demo.example.com/0123456789abcdef0123/demo"
    error_message = "the token goes into the URL"
  }
}

run "rejects_a_function_that_requires_a_path_token_without_one" {
  command = plan

  variables {
    caller_credentials = { demo = "path-token" }
  }

  expect_failures = [var.caller_credentials]
}

run "rejects_caller_credentials_of_an_unknown_kind" {
  command = plan

  variables {
    caller_credentials = { demo = "password" }
  }

  expect_failures = [var.caller_credentials]
}

run "does_not_check_an_unregistered_function" {
  command = plan

  variables {
    caller_credentials = { other = "path-token" }
  }

  assert {
    condition     = length(output.validating_configuration.webhooks) == 1
    error_message = "a function outside the registration is not checked"
  }
}
