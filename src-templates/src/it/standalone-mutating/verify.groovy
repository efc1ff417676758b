// The standalone mutating function built on its own pom; the registration properties reached webhook.yaml.
def checks = evaluate(new File(itSupport, "ItChecks.groovy"))
def name = 'default-labels'
def project = new File(basedir, name)

def pom = new File(project, 'pom.xml').text
assert !pom.contains('<parent>') : 'a standalone pom has no parent'
assert pom.contains('<artifactId>tollgate-testing</artifactId>')

def webhook = new File(project, 'webhook.yaml').text
assert webhook.contains('type: mutating')
assert webhook.contains('operations: ["CREATE"]')
assert webhook.contains('apiGroups: [""]') && webhook.contains('resources: ["pods"]')
assert webhook.contains('apiGroups: ["apps"]') && webhook.contains('resources: ["deployments"]')
assert webhook.contains('failurePolicy: Ignore')
assert webhook.contains('timeoutSeconds: 5')
assert webhook.contains('reinvocationPolicy: IfNeeded')

project.eachFileRecurse { if (it.path.contains('src/main/java') && it.name.endsWith('.java')) checks.assertOnlyThePolicy(it) }
checks.assertTestsPassed(project, 3, 40)
checks.assertTestFilePassed(project, 'dev.tollgate.functions.defaultlabels.DefaultLabelsTestFileTest', 2)
checks.assertIntegrationTestsPassed(project, 'dev.tollgate.functions.defaultlabels.DefaultLabelsIT', 30)
checks.assertKnativeManifest(project, name, 5)
checks.assertJoinsCatalog(new File(tollgateRoot), project, name, 'mutating', basedir)
return true
