def log = new File(basedir, 'build.log').text
assert log.contains("crd 'gadgets' is not a CustomResourceDefinition name <plural>.<group>") : 'names the bad crd'
assert log.contains('versions must list at least two distinct versions') : 'names the bad versions'
assert !new File(basedir, 'gadget-conversion').exists() : 'a failed generation leaves nothing behind'
return true
