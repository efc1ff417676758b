terraform {
  # No provider: this module only arranges the tokens it is given.
  required_version = ">= 1.9.0"
}
