terraform {
  # 1.9 for validations that refer to other variables; no provider: this module only renders values.
  required_version = ">= 1.9.0"
}
