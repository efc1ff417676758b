// Checks shared by the src/it verify scripts; loaded with evaluate(), so the script's methods are returned as `this`.
import dev.tollgate.catalog.RegistrationCatalog

/** Every surefire suite of the generated project ran, none failed, and at least minTests tests ran in all. */
// The generated policy is only the policy: validate, mutate or convert (and its name); no entry point, nothing about
// transport (the runtime serves it).
def assertOnlyThePolicy(File policyFile) {
    def policy = policyFile.text
    assert !policy.contains('@Funq') && !policy.contains('io.quarkus.funqy') && !policy.contains('Uni<') :
            "no Funqy entry point in ${policyFile}"
    assert !policy.contains('dev.tollgate.runtime') : "the policy needs nothing of the runtime: ${policyFile}"
    assert policy =~ /public (Verdict validate|Verdict mutate|ObjectNode convert)\(/ : "no policy method in ${policyFile}"
    assert !(policy =~ /String name\(\)/) : "the policy does not name itself (its webhook.yaml does): ${policyFile}"
}

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

/**
 * The generated <Class>TestFileTest ran the generated src/test/resources/tollgate-test.yaml against the policy in
 * process: every case passed (the report it prints is in the surefire XML).
 */
def assertTestFilePassed(File project, String testClass, int cases) {
    def report = new File(project, "target/surefire-reports/TEST-${testClass}.xml")
    assert report.isFile() : "the generated ${testClass} did not run in ${project} (no ${report.name})"
    def text = report.text
    def suite = (text =~ /<testsuite\b[^>]*>/)[0]
    def count = { String attr -> ((suite =~ /\b${attr}="(\d+)"/)[0][1]) as int }
    assert count('tests') == 1 && count('failures') == 0 && count('errors') == 0 : "${report.name}: ${suite}"
    def summary = "${cases} case${cases == 1 ? '' : 's'}: ${cases} passed, 0 failed"
    assert text.contains(summary) : "${report.name}: not '${summary}'"
    assert new File(project, 'src/test/resources/tollgate-test.yaml').isFile()
}

/** The generated *IT ran against the packaged function (failsafe), none failed or skipped, at least minTests tests. */
def assertIntegrationTestsPassed(File project, String itClass, int minTests) {
    def report = new File(project, "target/failsafe-reports/TEST-${itClass}.xml")
    assert report.isFile() : "the generated ${itClass} did not run in ${project} (no ${report.name})"
    def suite = (report.text =~ /<testsuite\b[^>]*>/)[0]
    def count = { String attr -> ((suite =~ /\b${attr}="(\d+)"/)[0][1]) as int }
    assert count('failures') == 0 && count('errors') == 0 : "${report.name}: ${suite}"
    assert count('skipped') == 0 : "${report.name}: no generated test may be skipped: ${suite}"
    assert count('tests') >= minTests : "only ${count('tests')} tests of ${itClass} ran in ${project}"
}

/**
 * The build rendered the function's Knative Service: the shared scale-from-zero settings, and from the generated
 * src/main/kubernetes/knative.yml the request timeout (webhook timeout less 1 s) and the scale-down delay. This file
 * is what shared/knative-manifests copies to knative/<name>.yaml.
 */
def assertKnativeManifest(File project, String name, int webhookTimeout) {
    def manifest = new File(project, 'target/kubernetes/knative.yml')
    assert manifest.isFile() : "the build did not render ${manifest}"
    def text = manifest.text
    assert text.contains('kind: Service') && text.contains("name: ${name}\n")
    assert text.contains('autoscaling.knative.dev/min-scale: "0"')
    assert text.contains('autoscaling.knative.dev/scale-down-delay: 5m')
    assert text.contains("timeoutSeconds: ${Math.max(1, webhookTimeout - 1)}\n")
    assert text.contains("image: ghcr.io/tollgate/${name}:")
}

/**
 * The generated src/main/kubernetes/knative.yml is byte for byte what shared/knative-manifests writes for a function
 * with the same webhook timeout and the default scale-down delay (compared with such a function of the repository),
 * so its drift check passes on the first build.
 */
def assertFragmentLikeTheRepository(File repoRoot, File project, String name, int webhookTimeout) {
    def ours = new File(project, 'src/main/kubernetes/knative.yml').text
    def compared = [:]
    new File(repoRoot, 'functions').eachDir { dir ->
        def fragment = new File(dir, 'src/main/kubernetes/knative.yml')
        def webhook = new File(dir, 'webhook.yaml')
        if (fragment.isFile() && webhook.isFile()) {
            def timeouts = (webhook.text =~ /(?m)^timeoutSeconds:\s*(\d+)/).collect { it[1] as int }
            def theirs = fragment.text
            if (timeouts && timeouts.min() == webhookTimeout && theirs.contains("(Tollgate's default)")) {
                compared[dir.name] = theirs.replace(dir.name, name) == ours
            }
        }
    }
    assert !compared.isEmpty() : "no function in ${repoRoot}/functions with webhook timeoutSeconds ${webhookTimeout} " +
            "and the default scale-down delay to compare the generated knative.yml with"
    // One identical fragment suffices: a function may carry additions of its own.
    assert compared.values().any() : "the archetype's src/main/kubernetes/knative.yml matches none of what " +
            "shared/knative-manifests wrote for ${compared.keySet()}; update the archetype template"
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
    // conversion webhooks (type: conversion) are listed by CRD under `conversions`, not under `functions`
    def converters = []
    catalog.path('conversions').elements().each { converters << it.path('function').asText() }
    (existing + name).each { assert listed.has(it) || converters.contains(it) : "${it} missing from the catalog" }
    if (type == 'conversion') {
        def conversion = catalog.path('conversions').elements().find { it.path('function').asText() == name }
        assert conversion != null : "${name} is not listed under the catalog's conversions"
        assert conversion.path('path').asText() == "/${name}"
    } else {
        def entry = listed.path(name).path('webhooks').get(0)
        assert entry.path('type').asText() == type
        assert entry.path('path').asText() == "/${name}"
        assert entry.path('webhook').path('name').asText() == "${name}.tollgate.dev"
    }
    RegistrationCatalog.write(root.toPath())
    assert new File(root, RegistrationCatalog.CATALOG_PATH).text.contains("\"${name}\"")
}

/**
 * Step 4 of "Write your own policy": `quarkus:dev` in the generated function starts, serves reviews, and reloads a
 * changed application.properties on the next request, without copying target/ into target/classes (the build
 * copies only webhook.yaml from the project folder). Started with the integration tests' repositories.
 */
def assertDevModeServesAndReloads(File repoRoot, File project, String name, File localRepo, String repoTail) {
    int port = new ServerSocket(0).withCloseable { it.localPort }
    // Health lives on the management interface: a free port of its own too (9000 may be taken by another build).
    int managementPort = new ServerSocket(0).withCloseable { it.localPort }
    def log = new File(project, 'target/dev-mode.log')
    def mvn = new File(System.getProperty('maven.home'), 'bin/mvn').path
    def command = [mvn, '-B', 'quarkus:dev', "-Dquarkus.http.port=${port}",
                   "-Dquarkus.management.port=${managementPort}", '-Ddebug=false',
                   '-Dquarkus.analytics.disabled=true', "-Dmaven.repo.local=${localRepo}",
                   "-Dmaven.repo.local.tail=${repoTail}"]
    def process = new ProcessBuilder(command.collect { it.toString() }).directory(project).redirectErrorStream(true)
            .redirectOutput(log).redirectInput(ProcessBuilder.Redirect.from(new File('/dev/null'))).start()
    try {
        def review = { String image ->
            def body = """{"apiVersion":"admission.k8s.io/v1","kind":"AdmissionReview","request":{"uid":"u-1",
                "kind":{"group":"","version":"v1","kind":"Pod"},"resource":{"group":"","version":"v1","resource":"pods"},
                "name":"web","namespace":"shop","operation":"CREATE","userInfo":{"username":"dev"},
                "object":{"apiVersion":"v1","kind":"Pod","metadata":{"name":"web","namespace":"shop"},
                "spec":{"containers":[{"name":"app","image":"${image}"}]}}}}"""
            def c = new URL("http://127.0.0.1:${port}/${name}").openConnection()
            c.requestMethod = 'POST'
            c.doOutput = true
            c.connectTimeout = 5000
            c.readTimeout = 120000
            c.setRequestProperty('Content-Type', 'application/json')
            c.outputStream.withCloseable { it.write(body.getBytes('UTF-8')) }
            assert c.responseCode == 200 : "dev mode answered ${c.responseCode}; see ${log}"
            return new groovy.json.JsonSlurper().parse(c.inputStream).response
        }
        long deadline = System.currentTimeMillis() + 300_000
        boolean up = false
        while (!up && System.currentTimeMillis() < deadline) {
            assert process.alive : "quarkus:dev exited early:\n${log.text.readLines().takeRight(40).join('\n')}"
            try {
                def c = new URL("http://127.0.0.1:${managementPort}/q/health/ready").openConnection()
                c.connectTimeout = 2000
                up = c.responseCode == 200
            } catch (IOException ignored) {
                Thread.sleep(2000)
            }
        }
        assert up : "quarkus:dev did not serve within 300 s:\n${log.text.readLines().takeRight(40).join('\n')}"
        assert review('nginx:1.27').allowed == true
        assertReadmeTryIt(repoRoot, project, name) { Map object ->
            def c = new URL("http://127.0.0.1:${port}/${name}").openConnection()
            c.requestMethod = 'POST'
            c.doOutput = true
            c.readTimeout = 120000
            c.setRequestProperty('Content-Type', 'application/json')
            def body = groovy.json.JsonOutput.toJson([apiVersion: 'admission.k8s.io/v1', kind: 'AdmissionReview',
                    request: [uid: 'u-readme', kind: [group: '', version: 'v1', kind: object.kind],
                              resource: [group: '', version: 'v1', resource: object.kind.toLowerCase() + 's'],
                              name: object.metadata.name, namespace: object.metadata.namespace ?: 'default',
                              operation: 'CREATE', userInfo: [username: 'dev'], object: object]])
            c.outputStream.withCloseable { it.write(body.getBytes('UTF-8')) }
            assert c.responseCode == 200 : "dev mode answered ${c.responseCode}; see ${log}"
            return new groovy.json.JsonSlurper().parse(c.inputStream).response
        }
        def properties = new File(project, 'src/main/resources/application.properties')
        properties.text = properties.text.replace("tollgate.${name}.denied-tags=latest",
                "tollgate.${name}.denied-tags=latest,1.27")
        // Dev mode looks for changed files on a request at most every couple of seconds: ask until it has reloaded.
        def reloaded = null
        long reloadDeadline = System.currentTimeMillis() + 120_000
        while ((reloaded == null || reloaded.allowed) && System.currentTimeMillis() < reloadDeadline) {
            Thread.sleep(3000)
            reloaded = review('nginx:1.27')
        }
        assert reloaded.allowed == false : "the changed denied-tags were not reloaded: ${reloaded}"
        // The request that triggers a live reload is handed to the new application; the old one's deadline timer
        // (tollgate.deadline.timeout, 8 s) fires later and must stay quiet (it once logged a ~50-line ERROR,
        // SRCFG00027 for DecisionLogConfig, about 8 s after every reload). Wait past it, then read the log.
        Thread.sleep(12_000)
        def errors = log.readLines().findAll { it.contains('ERROR') || it.contains('SRCFG') }
        assert errors.isEmpty() : "dev mode logged errors after the reload:\n${errors.take(10).join('\n')}"
        def classes = new File(project, 'target/classes')
        assert !new File(classes, 'target').exists() : 'dev mode copied target/ into target/classes'
        assert new File(classes, 'META-INF/tollgate/webhook.yaml').text == new File(project, 'webhook.yaml').text
        assert !log.text.contains('Failed to copy') : "dev mode failed to copy resources: see ${log}"
        assert !log.text.contains('Help improve Quarkus') : 'dev mode asked the analytics question'
    } finally {
        process.toHandle().descendants().each { it.destroy() }
        process.destroy()
        process.waitFor()
    }
}

/**
 * The README's test command after generating, in the copy of the repository: the modules whose checks a new function
 * used to break (the Terraform catalog and the Knative manifests) build green with no hand step, and the build has
 * written the new function's catalog entry, knative/<name>.yaml, knative/jvm/<name>.yaml and its kn command.
 * Run with -pl, not the whole reactor: the other functions are not rebuilt here, so their committed manifests stand
 * in for their build output (the repository's own build compares those); the new one's is the generated build's.
 */
def assertRootChecksGreen(File copy, File project, String name, File localRepo, String repoTail, File fixtures) {
    def pomText = new File(copy, 'pom.xml').text
    (pomText =~ /<module>functions\/([^<]+)<\/module>/).each { m ->
        def built = new File(copy, "functions/${m[1]}/target/kubernetes/knative.yml")
        def committed = new File(copy, "knative/${m[1]}.yaml")
        if (m[1] != name && !built.isFile() && committed.isFile()) {
            built.parentFile.mkdirs()
            built.bytes = committed.bytes
        }
    }
    mavenInCopy(copy, 'root-checks', ['verify', '-pl', 'shared/registration-catalog,shared/knative-manifests',
                                      "-Dtollgate.fixtures.dir=${fixtures}"], localRepo, repoTail)
    def catalog = new groovy.json.JsonSlurper().parse(new File(copy, RegistrationCatalog.CATALOG_PATH))
    assert catalog.functions[name]?.webhooks?.getAt(0)?.path == "/${name}" :
            "the build did not list ${name} in the catalog"
    assert new File(copy, "knative/${name}.yaml").text == new File(project, 'target/kubernetes/knative.yml').text
    assert new File(copy, "knative/jvm/${name}.yaml").isFile()
    assert new File(copy, 'knative/README.md').text.contains("#### ${name}\n") : "no kn command for ${name}"
}

/**
 * README.md's "Try it in the simulator while it runs on 127.0.0.1" block, against the function in dev mode: it starts
 * dev mode in the function's folder, the manifests it reviews exist and are of kinds the generated webhook.yaml
 * registers, and the outcome it states is what the function answers each of them.
 */
def assertReadmeTryIt(File repoRoot, File project, String name, Closure review) {
    def readme = new File(repoRoot, 'README.md').text
    def block = readme.find(/(?s)while it runs on 127\.0\.0\.1.*?```bash\n(.*?)```/) { all, body -> body }
    assert block : 'README.md has no command block after "while it runs on 127.0.0.1"'
    assert block.contains("(cd functions/${name} && ../../mvnw -B quarkus:dev < /dev/null) &") :
            "no dev-mode start in: ${block}"
    def command = block.replace('\\\n', ' ').readLines().find { it.contains('tollgate review') }
    assert command?.contains("--webhook functions/${name}/webhook.yaml --url http://127.0.0.1:8080") : block
    def files = command.split(/\s+/).findAll { it.endsWith('.yaml') && !it.endsWith('webhook.yaml') }
    assert files : "no manifests in: ${command}"
    def registered = (new File(project, 'webhook.yaml').text =~ /resources: \[([^\]]*)\]/).collect { it[1] }
            .join(',').replaceAll(/[" ]/, '').split(',') as List
    def yaml = new com.fasterxml.jackson.databind.ObjectMapper(new com.fasterxml.jackson.dataformat.yaml.YAMLFactory())
    int allowed = 0
    files.each { path ->
        def file = new File(repoRoot, path)
        assert file.isFile() : "README.md reviews ${path}, which does not exist"
        Map object = yaml.readValue(file, Map)
        assert registered.contains(object.kind.toLowerCase() + 's') :
                "README.md reviews a ${object.kind} (${path}); the generated webhook registers ${registered}"
        def answer = review(object)
        allowed += answer.allowed ? 1 : 0
    }
    def summary = "${files.size()} manifests: ${allowed} allowed, ${files.size() - allowed} denied"
    assert readme.replaceAll(/\s+/, ' ').contains(summary) :
            "README.md does not state what the function answers: ${summary}"
}

/**
 * Runs Maven in the copy of the repository with the integration tests' repositories, its output in
 * {@code <copy>/<what>.log}; fails naming its errors.
 */
def mavenInCopy(File copy, String what, List args, File localRepo, String repoTail) {
    def log = new File(copy, "${what}.log")
    def command = [new File(System.getProperty('maven.home'), 'bin/mvn').path, '-B'] + args +
            ["-Dmaven.repo.local=${localRepo}", "-Dmaven.repo.local.tail=${repoTail}"]
    def process = new ProcessBuilder(command.collect { it.toString() }).directory(copy).redirectErrorStream(true)
            .redirectOutput(log).redirectInput(ProcessBuilder.Redirect.from(new File('/dev/null'))).start()
    int exit = process.waitFor()
    def failures = log.readLines().findAll { it.contains('[ERROR]') || it.contains('FAILURE') }.take(30)
    assert exit == 0 : "${args} failed in ${copy} (${log}):\n${failures.join('\n')}"
}

return this
