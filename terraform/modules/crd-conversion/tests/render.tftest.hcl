# Rendering: spec.conversion field by field, the patch for CRDs applied elsewhere, and the CRD manifest with the
# block merged in, from a catalog with two converted CRDs and from the committed catalog with the real crd.yaml.

variables {
  catalog = {
    functions = {} # admission entries are the webhook-configurations module's; ignored here
    conversions = {
      "databases.data.tollgate.dev" = {
        function = "crd-conversion"
        path     = "/crd-conversion"
        versions = ["v1alpha1", "v1beta1", "v1"]
        webhook  = { conversionReviewVersions = ["v1", "v1beta1"] }
      }
      "widgets.shop.tollgate.dev" = {
        function = "widgets"
        path     = "/widgets/convert"
        versions = ["v1", "v2"]
        webhook  = { conversionReviewVersions = ["v1"] }
      }
    }
  }
  function_urls = {
    crd-conversion = "https://crd-conversion.tollgate.example.com/"
    widgets        = "https://fn.example.com:8443/base"
    require-labels = "https://require-labels.tollgate.example.com" # other functions' URLs are ignored
  }
  path_tokens = { crd-conversion = "0123456789abcdef0123" }
  ca_bundle   = "-----BEGIN CERTIFICATE-----\nMIIB\n-----END CERTIFICATE-----\n"
}

run "renders_spec_conversion_per_crd" {
  command = apply

  assert {
    condition     = nonsensitive(output.conversions["databases.data.tollgate.dev"].strategy) == "Webhook"
    error_message = "strategy must be Webhook"
  }
  assert {
    condition     = nonsensitive(output.conversions["databases.data.tollgate.dev"].webhook.clientConfig.url) == "https://crd-conversion.tollgate.example.com/0123456789abcdef0123/crd-conversion"
    error_message = "url = base URL (trailing slash dropped) + /<path token> + path"
  }
  assert {
    condition     = nonsensitive(output.conversions["widgets.shop.tollgate.dev"].webhook.clientConfig.url) == "https://fn.example.com:8443/base/widgets/convert"
    error_message = "a function without a path token: base URL + path"
  }
  assert {
    condition     = nonsensitive(output.conversions["databases.data.tollgate.dev"].webhook.clientConfig.caBundle) == base64encode(var.ca_bundle)
    error_message = "caBundle is the base64 of the PEM"
  }
  assert {
    condition     = nonsensitive(output.conversions["databases.data.tollgate.dev"].webhook.conversionReviewVersions) == tolist(["v1", "v1beta1"])
    error_message = "conversionReviewVersions as declared, in order (the API server uses the first it knows)"
  }
  assert {
    condition     = nonsensitive(output.conversions["widgets.shop.tollgate.dev"].webhook.conversionReviewVersions) == tolist(["v1"])
    error_message = "each CRD its own conversionReviewVersions"
  }
  assert {
    condition     = jsondecode(nonsensitive(output.crd_patches["databases.data.tollgate.dev"])).spec.conversion.webhook.clientConfig.url == nonsensitive(output.conversions["databases.data.tollgate.dev"].webhook.clientConfig.url)
    error_message = "the patch holds the same spec.conversion under spec"
  }
  assert {
    condition     = keys(jsondecode(nonsensitive(output.crd_patches["widgets.shop.tollgate.dev"]))) == ["spec"] && keys(jsondecode(nonsensitive(output.crd_patches["widgets.shop.tollgate.dev"])).spec) == ["conversion"]
    error_message = "the merge patch touches spec.conversion only"
  }
  assert {
    condition     = output.summary["widgets.shop.tollgate.dev"].function == "widgets" && output.summary["databases.data.tollgate.dev"].versions == tolist(["v1alpha1", "v1beta1", "v1"])
    error_message = "summary lists function and versions per CRD"
  }
  assert {
    condition     = length(nonsensitive(output.crd_manifests)) == 0 && nonsensitive(output.crd_manifests_yaml) == ""
    error_message = "no CRD manifests given, none rendered"
  }
}

run "without_ca_bundle_no_caBundle_field" {
  command = apply
  variables {
    ca_bundle = null
  }
  assert {
    condition     = !contains(keys(nonsensitive(output.conversions["widgets.shop.tollgate.dev"].webhook.clientConfig)), "caBundle")
    error_message = "no caBundle field when the API server should use its system roots"
  }
}

run "selects_crds_and_uses_default_url" {
  command = apply
  variables {
    crds          = ["widgets.shop.tollgate.dev"]
    function_urls = {}
    default_url   = "https://bundle.example.com"
  }
  assert {
    condition     = keys(nonsensitive(output.conversions)) == ["widgets.shop.tollgate.dev"]
    error_message = "only the selected CRD"
  }
  assert {
    condition     = nonsensitive(output.conversions["widgets.shop.tollgate.dev"].webhook.clientConfig.url) == "https://bundle.example.com/widgets/convert"
    error_message = "default_url for functions without their own URL"
  }
}

run "committed_catalog_and_a_crd_terraform_applies" {
  command = apply
  variables {
    catalog       = jsondecode(file("../../catalog/catalog.json"))
    function_urls = { crd-conversion = "https://crd-conversion.tollgate.example.com" }
    crd_manifests = {
      "databases.data.tollgate.dev" = {
        apiVersion = "apiextensions.k8s.io/v1"
        kind       = "CustomResourceDefinition"
        metadata   = { name = "databases.data.tollgate.dev" }
        spec = {
          group    = "data.tollgate.dev"
          scope    = "Namespaced"
          names    = { plural = "databases", kind = "Database" }
          versions = [{ name = "v1alpha1", served = true, storage = false }, { name = "v1beta1", served = true, storage = false }, { name = "v1", served = true, storage = true }]
        }
      }
    }
  }
  assert {
    condition     = nonsensitive(output.crd_manifests["databases.data.tollgate.dev"].spec.conversion.webhook.clientConfig.url) == "https://crd-conversion.tollgate.example.com/0123456789abcdef0123/crd-conversion"
    error_message = "the CRD gets the rendered spec.conversion"
  }
  assert {
    condition     = nonsensitive(output.crd_manifests["databases.data.tollgate.dev"].spec.conversion.strategy) == "Webhook" && nonsensitive(output.crd_manifests["databases.data.tollgate.dev"].spec.conversion.webhook.conversionReviewVersions) == tolist(["v1", "v1beta1"])
    error_message = "strategy and conversionReviewVersions from crd-conversion's webhook.yaml"
  }
  assert {
    condition     = length(nonsensitive(output.crd_manifests["databases.data.tollgate.dev"].spec.versions)) == 3 && nonsensitive(output.crd_manifests["databases.data.tollgate.dev"].spec.names.kind) == "Database"
    error_message = "everything else of the CRD as given"
  }
  assert {
    condition     = yamldecode(nonsensitive(output.crd_manifests_yaml)).spec.conversion.strategy == "Webhook"
    error_message = "the YAML stream holds the CRD with its conversion"
  }
}
