# Every input the API server (or the wiring) would refuse fails the plan, naming the problem.

variables {
  catalog = {
    conversions = {
      "databases.data.tollgate.dev" = {
        function = "crd-conversion"
        path     = "/crd-conversion"
        versions = ["v1alpha1", "v1beta1", "v1"]
        webhook  = { conversionReviewVersions = ["v1", "v1beta1"] }
      }
    }
  }
  function_urls = { crd-conversion = "https://crd-conversion.example.com" }
}

run "http_url" {
  command = plan
  variables {
    function_urls = { crd-conversion = "http://crd-conversion.example.com" }
  }
  expect_failures = [var.function_urls]
}

run "url_with_query" {
  command = plan
  variables {
    function_urls = { crd-conversion = "https://crd-conversion.example.com/?a=b" }
  }
  expect_failures = [var.function_urls]
}

run "no_url_for_the_function" {
  command = plan
  variables {
    function_urls = { other = "https://other.example.com" }
  }
  expect_failures = [var.function_urls]
}

run "unknown_crd_selected" {
  command = plan
  variables {
    crds = ["gadgets.shop.tollgate.dev"]
  }
  expect_failures = [var.crds]
}

run "short_path_token" {
  command = plan
  variables {
    path_tokens = { crd-conversion = "short" }
  }
  expect_failures = [var.path_tokens]
}

run "ca_bundle_not_pem" {
  command = plan
  variables {
    ca_bundle = "TUlJQg=="
  }
  expect_failures = [var.ca_bundle]
}

run "unknown_review_version" {
  command = plan
  variables {
    catalog = {
      conversions = {
        "databases.data.tollgate.dev" = {
          function = "crd-conversion", path = "/crd-conversion", versions = ["v1beta1", "v1"]
          webhook  = { conversionReviewVersions = ["v2"] }
        }
      }
    }
  }
  expect_failures = [var.catalog]
}

run "crd_name_without_group" {
  command = plan
  variables {
    catalog = {
      conversions = {
        "databases" = {
          function = "crd-conversion", path = "/crd-conversion", versions = ["v1beta1", "v1"]
          webhook  = { conversionReviewVersions = ["v1"] }
        }
      }
    }
  }
  expect_failures = [var.catalog]
}

run "path_of_another_function" {
  command = plan
  variables {
    catalog = {
      conversions = {
        "databases.data.tollgate.dev" = {
          function = "crd-conversion", path = "/other", versions = ["v1beta1", "v1"]
          webhook  = { conversionReviewVersions = ["v1"] }
        }
      }
    }
  }
  expect_failures = [var.catalog]
}

run "manifest_named_differently" {
  command = plan
  variables {
    crd_manifests = { "databases.data.tollgate.dev" = { apiVersion = "apiextensions.k8s.io/v1", kind = "CustomResourceDefinition", metadata = { name = "dbs.data.tollgate.dev" }, spec = { versions = [] } } }
  }
  expect_failures = [var.crd_manifests]
}

run "manifest_preserving_unknown_fields" {
  command = plan
  variables {
    crd_manifests = { "databases.data.tollgate.dev" = { apiVersion = "apiextensions.k8s.io/v1", kind = "CustomResourceDefinition", metadata = { name = "databases.data.tollgate.dev" }, spec = { preserveUnknownFields = true, versions = [{ name = "v1alpha1" }, { name = "v1beta1" }, { name = "v1" }] } } }
  }
  expect_failures = [var.crd_manifests]
}

run "manifest_with_other_versions" {
  command = plan
  variables {
    crd_manifests = { "databases.data.tollgate.dev" = { apiVersion = "apiextensions.k8s.io/v1", kind = "CustomResourceDefinition", metadata = { name = "databases.data.tollgate.dev" }, spec = { versions = [{ name = "v1beta1" }, { name = "v1" }] } } }
  }
  expect_failures = [output.conversions]
}

run "manifest_of_a_crd_without_conversion" {
  command = plan
  variables {
    crd_manifests = { "gadgets.shop.tollgate.dev" = { apiVersion = "apiextensions.k8s.io/v1", kind = "CustomResourceDefinition", metadata = { name = "gadgets.shop.tollgate.dev" }, spec = { versions = [{ name = "v1" }] } } }
  }
  expect_failures = [output.conversions]
}
