// Generated in functions/: built and tested green, listed in the root pom, functions/pom.xml left as it was, and its
// registration joins the Terraform catalog with no edit.
def checks = evaluate(new File(itSupport, 'ItChecks.groovy'))
def name = 'deny-latest-tag'
def project = new File(basedir, name)
def root = new File(tollgateRoot)

def pom = new File(project, 'pom.xml').text
assert pom.contains('<artifactId>tollgate-function-parent</artifactId>') : 'parented pom must use the functions parent'
assert new File(project, 'src/main/java/dev/tollgate/functions/denylatesttag/DenyLatestTag.java').isFile()
checks.assertOnlyThePolicy(new File(project, 'src/main/java/dev/tollgate/functions/denylatesttag/DenyLatestTag.java'))

assert new File(basedir, 'pom.xml').text == new File(root, 'functions/pom.xml').text :
        'functions/pom.xml must be left exactly as it was'
def before = new File(root, 'pom.xml').readLines()
def after = new File(basedir.parentFile, 'pom.xml').readLines()
assert after.size() == before.size() + 1 && after.count { it.trim() == "<module>functions/${name}</module>" } == 1 :
        'the root pom gains exactly the new module line'
assert (after - ["    <module>functions/${name}</module>"]) == before

def webhook = new File(project, 'webhook.yaml').text
assert webhook.contains("name: ${name}.tollgate.dev")
assert webhook.contains('type: validating')
assert webhook.contains('operations: ["CREATE", "UPDATE"]')
assert webhook.contains('resources: ["pods"]')
assert webhook.contains('failurePolicy: Fail')
assert webhook.contains('timeoutSeconds: 10')
assert !webhook.contains('reinvocationPolicy') : 'a validating entry has no reinvocationPolicy'

checks.assertTestsPassed(project, 3, 40)
checks.assertTestFilePassed(project, 'dev.tollgate.functions.denylatesttag.DenyLatestTagTestFileTest', 2)
checks.assertIntegrationTestsPassed(project, 'dev.tollgate.functions.denylatesttag.DenyLatestTagIT', 30)
checks.assertKnativeManifest(project, name, 10)
checks.assertFragmentLikeTheRepository(root, project, name, 10)
checks.assertJoinsCatalog(root, project, name, 'validating', basedir.parentFile)
checks.assertDevModeServesAndReloads(project, name, localRepositoryPath, repoTail)
return true
