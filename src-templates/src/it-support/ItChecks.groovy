// Checks shared by the src/it verify scripts; loaded with evaluate(), so the script's methods are returned as `this`.
import dev.tollgate.catalog.RegistrationCatalog

/** Every surefire suite of the generated project ran, none failed, and at least minTests tests ran in all. */
def assertTestsPassed(File project, int suites, int minTests) {
    def reports = new File(project, 'target/surefire-reports').listFiles()?.findAll {
        it.name.startsWith('TEST-') && it.name.endsWith('.xml')
    } ?: []
    assert reports.size() == suites : "expected ${suites} test suites in ${project}, found ${reports*.name}"
    int tests = 0
    reports.each { report ->
        def suite = (report.text =~ /<testsuite\b[^>]*>/)[0]
        def count = { String attr -> ((suite =~ /\b${attr}="(\d+)"/)[0][1]) as int }
        assert count('failures') == 0 && count('errors') == 0 : "${report.name}: ${suite}"
        assert count('skipped') == 0 : "${report.name}: no generated test may be skipped: ${suite}"
        tests += count('tests')
    }
    assert tests >= minTests : "only ${tests} tests ran in ${project}"
}

/** The build rendered the function's Knative Service with the shared scale-from-zero settings. */
def assertKnativeManifest(File project, String name) {
    def manifest = new File(project, 'target/kubernetes/knative.yml')
    assert manifest.isFile() : "the build did not render ${manifest}"
    def text = manifest.text
    assert text.contains('kind: Service') && text.contains("name: ${name}\n")
    assert text.contains('autoscaling.knative.dev/min-scale: "0"')
    assert text.contains("image: ghcr.io/tollgate/${name}:")
}

/**
 * The generated webhook.yaml, dropped into a copy of the repository's functions/ beside the real ones, is picked up
 * by the Terraform catalog builder as it is: no list to edit, every rule of the API server satisfied.
 */
def assertJoinsCatalog(File repoRoot, File project, String name, String type, File scratch) {
    def root = new File(scratch, 'catalog-root')
    def functions = new File(root, 'functions')
    def existing = []
    repoRoot.toPath().resolve('functions').toFile().eachDir { dir ->
        def yaml = new File(dir, 'webhook.yaml')
        if (yaml.isFile()) {
            new File(functions, dir.name).mkdirs()
            new File(functions, "${dir.name}/webhook.yaml").bytes = yaml.bytes
            existing << dir.name
        }
    }
    assert !existing.isEmpty() : "no functions/*/webhook.yaml under ${repoRoot}"
    new File(functions, name).mkdirs()
    new File(functions, "${name}/webhook.yaml").bytes = new File(project, 'webhook.yaml').bytes

    def catalog = RegistrationCatalog.build(root.toPath())
    def listed = catalog.path('functions')
    (existing + name).each { assert listed.has(it) : "${it} missing from the catalog" }
    def entry = listed.path(name).path('webhooks').get(0)
    assert entry.path('type').asText() == type
    assert entry.path('path').asText() == "/${name}"
    assert entry.path('webhook').path('name').asText() == "${name}.tollgate.dev"
    RegistrationCatalog.write(root.toPath())
    assert new File(root, RegistrationCatalog.CATALOG_PATH).text.contains("\"${name}\"")
}

return this
