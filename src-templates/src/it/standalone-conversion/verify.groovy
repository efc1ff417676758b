// The conversion function built on its own pom: its registration names the CRD and versions, its tests (in process
// and over HTTP in both ConversionReview versions) pass, and it joins the catalog under `conversions`.
def checks = evaluate(new File(itSupport, "ItChecks.groovy"))
def name = 'gadget-conversion'
def project = new File(basedir, name)

def webhook = new File(project, 'webhook.yaml').text
assert webhook.contains('type: conversion')
assert webhook.contains("path: /${name}")
assert webhook.contains('crd: gadgets.shop.example.com')
assert webhook.contains('versions: [v1alpha1, v1beta1, v2]')
assert webhook.contains('conversionReviewVersions: [v1, v1beta1]')
assert !webhook.contains('rules:') && !webhook.contains('timeoutSeconds') : 'no admission fields in a conversion entry'

def policy = new File(project, 'src/main/java/dev/tollgate/functions/gadgetconversion/GadgetConversion.java').text
assert policy.contains('implements ConversionPolicy')
checks.assertOnlyThePolicy(new File(project, 'src/main/java/dev/tollgate/functions/gadgetconversion/GadgetConversion.java'))
assert policy.contains('GROUP = "shop.example.com"')
assert policy.contains('List.of("v1alpha1", "v1beta1", "v2")')

// The generated objects carry the CRD's own kind (gadgets -> Gadget), not the template's example kind.
def testFile = new File(project, 'src/test/resources/tollgate-test.yaml').text
assert testFile.contains('kind: Gadget') && !testFile.contains('Widget') : 'the test file names the kind Gadget'
assert new File(project, 'src/test/java/dev/tollgate/functions/gadgetconversion/GadgetConversionTest.java').text
        .contains('kind: Gadget')

checks.assertTestsPassed(project, 3, 40)
checks.assertTestFilePassed(project, 'dev.tollgate.functions.gadgetconversion.GadgetConversionTestFileTest', 2)
checks.assertIntegrationTestsPassed(project, 'dev.tollgate.functions.gadgetconversion.GadgetConversionIT', 4)
checks.assertKnativeManifest(project, name, 10)
checks.assertJoinsCatalog(new File(tollgateRoot), project, name, 'conversion', basedir)
return true
