# The environment each service gets for its mode, and the inputs the functions would refuse, refused at plan time.

variables {
  services = {
    "require-labels"     = ["require-labels"]
    "always-pull-images" = ["always-pull-images"]
    "all-in-one"         = ["pod-security", "cel-policy"]
  }
}

run "default_writes_nothing" {
  command = plan
  assert {
    condition     = length(output.environment) == 3 && alltrue([for e in values(output.environment) : length(e) == 0])
    error_message = "enforce everywhere is the functions' default: no variable written"
  }
}

run "modes_per_function_and_cluster" {
  command = plan
  variables {
    enforcement = {
      mode      = "warn"
      functions = { "always-pull-images" = "audit", "require-labels" = "enforce" }
      clusters  = { west = "audit", east = "warn" }
    }
  }
  assert {
    condition     = output.environment["always-pull-images"] == tomap({ TOLLGATE_ENFORCEMENT_MODE = "audit", TOLLGATE_ENFORCEMENT_CLUSTER_MODES = "east=warn,west=audit" })
    error_message = "the function's own mode, and the clusters' in name order"
  }
  assert {
    condition     = output.environment["require-labels"] == tomap({ TOLLGATE_ENFORCEMENT_CLUSTER_MODES = "east=warn,west=audit" })
    error_message = "enforce is the default mode: only the clusters' modes are written"
  }
  assert {
    condition     = output.environment["all-in-one"]["TOLLGATE_ENFORCEMENT_MODE"] == "warn"
    error_message = "a bundle whose functions set no mode gets the default mode"
  }
}

run "modes_per_function_per_cluster" {
  command = plan
  variables {
    enforcement = {
      functions         = { "require-labels" = "audit" }
      clusters          = { west = "warn" }
      function_clusters = { "require-labels" = { east = "warn", west = "enforce" }, "pod-security" = { east = "audit" }, "cel-policy" = { east = "audit" } }
    }
  }
  assert {
    condition     = output.environment["require-labels"] == tomap({ TOLLGATE_ENFORCEMENT_MODE = "audit", TOLLGATE_ENFORCEMENT_CLUSTER_MODES = "east=warn,west=enforce" })
    error_message = "a function's own per-cluster modes win over the clusters' modes for its calls"
  }
  assert {
    condition     = output.environment["always-pull-images"] == tomap({ TOLLGATE_ENFORCEMENT_CLUSTER_MODES = "west=warn" })
    error_message = "another function keeps the clusters' modes"
  }
  assert {
    condition     = output.environment["all-in-one"] == tomap({ TOLLGATE_ENFORCEMENT_CLUSTER_MODES = "east=audit,west=warn" })
    error_message = "a bundle whose functions agree per cluster gets their modes"
  }
}

run "bundle_function_with_its_own_mode_in_one_cluster" {
  # Issue 45: one policy of the bundle trialled in warn mode in one cluster, the rest of the bundle enforced.
  command = plan
  variables {
    enforcement = { function_clusters = { "cel-policy" = { west = "warn" } } }
  }
  assert {
    condition     = output.environment["all-in-one"] == tomap({ TOLLGATE_ENFORCEMENT_FUNCTION_CLUSTER_MODES = "cel-policy.west=warn" })
    error_message = "the bundle gets the function's own mode for the cluster, the runtime gives it to that function's calls only"
  }
  assert {
    condition     = jsonencode(output.softened) == jsonencode({ "function_clusters.cel-policy.west = warn" = ["cel-policy"] })
    error_message = "the plan lists the one function the setting softens"
  }
}

run "a_cluster_mode_lists_every_function_it_softens" {
  command = plan
  variables {
    enforcement = { clusters = { west = "warn" }, function_clusters = { "pod-security" = { west = "enforce" } }, functions = { "require-labels" = "audit" } }
  }
  assert {
    condition     = jsonencode(output.softened["clusters.west = warn"]) == jsonencode(["always-pull-images", "cel-policy", "require-labels"])
    error_message = "a cluster's mode softens every function that cluster calls, bundle functions included, but those with their own mode there"
  }
  assert {
    condition     = jsonencode(output.softened["functions.require-labels = audit"]) == jsonencode(["require-labels"])
    error_message = "a function's mode softens that function"
  }
  assert {
    condition     = output.environment["all-in-one"] == tomap({ TOLLGATE_ENFORCEMENT_CLUSTER_MODES = "west=warn", TOLLGATE_ENFORCEMENT_FUNCTION_CLUSTER_MODES = "pod-security.west=enforce" })
    error_message = "the bundle's functions do not share west's mode: the settings, per function"
  }
}

run "bad_function_cluster_mode" {
  command = plan
  variables {
    enforcement = { function_clusters = { "require-labels" = { east = "dryrun" } } }
  }
  expect_failures = [var.enforcement]
}

run "unknown_function_in_function_clusters" {
  command = plan
  variables {
    enforcement = { function_clusters = { "no-such-function" = { east = "warn" } } }
  }
  expect_failures = [output.environment]
}

run "bundle_functions_share_a_mode" {
  command = plan
  variables {
    enforcement = { functions = { "pod-security" = "audit", "cel-policy" = "audit" } }
  }
  assert {
    condition     = output.environment["all-in-one"] == tomap({ TOLLGATE_ENFORCEMENT_MODE = "audit" })
    error_message = "the bundle's mode is its functions' shared one"
  }
}

run "bundle_functions_with_two_modes" {
  command = plan
  variables {
    enforcement = { mode = "warn", functions = { "pod-security" = "enforce" } }
  }
  assert {
    condition     = output.environment["all-in-one"] == tomap({ TOLLGATE_ENFORCEMENT_MODE = "warn", TOLLGATE_ENFORCEMENT_FUNCTION_MODES = "pod-security=enforce" })
    error_message = "a bundle whose functions have two modes gets each function's"
  }
  assert {
    condition     = jsonencode(output.softened) == jsonencode({ "mode = warn" = ["always-pull-images", "cel-policy", "require-labels"] })
    error_message = "the default mode softens every function without a mode of its own"
  }
}

run "unknown_function" {
  command = plan
  variables {
    enforcement = { functions = { "require-label" = "audit" } }
  }
  expect_failures = [output.environment]
}

run "bad_mode" {
  command = plan
  variables {
    enforcement = { mode = "dryrun" }
  }
  expect_failures = [var.enforcement]
}

run "bad_function_mode" {
  command = plan
  variables {
    enforcement = { functions = { "require-labels" = "Deny" } }
  }
  expect_failures = [var.enforcement]
}

run "bad_cluster_mode" {
  command = plan
  variables {
    enforcement = { clusters = { east = "monitor" } }
  }
  expect_failures = [var.enforcement]
}

run "bad_cluster_name" {
  command = plan
  variables {
    enforcement = { clusters = { East_1 = "warn" } }
  }
  expect_failures = [var.enforcement]
}
