// Runs after maven-archetype-plugin has written the new function.
// 1. Checks every property: the plugin applies the descriptor's validationRegex only when it asks interactively. On a
//    bad value it removes what was generated (and the <module> line the plugin added to an enclosing pom) and fails
//    naming every problem.
// 2. Inside the Tollgate repository (generated in functions/): the plugin has rewritten functions/pom.xml to list the
//    new module there, reformatting the file. Put that file back as it was and list the function in the root pom
//    instead, next to the other functions, so it joins the build with no hand edit.

def props = request.properties
def problems = []

def name = request.artifactId ?: ''
// A Knative Service name is a DNS-1035 label, and Knative names the revision's Kubernetes Services
// <name>-00001-private, which must fit in 63 characters: so at most 49.
if (!(name ==~ /[a-z]([-a-z0-9]*[a-z0-9])?/)) {
    problems << "artifactId '${name}' is not a valid function name: use lowercase letters, digits and '-', " +
            "starting with a letter and not ending with '-' (a DNS-1035 label, e.g. deny-latest-tag)"
} else if (name.length() > 49) {
    problems << "artifactId '${name}' is ${name.length()} characters long: at most 49, so that Knative's " +
            "revision service names (<name>-00001-private) stay within 63"
}

def type = props.getProperty('type', '')
if (!(type in ['validating', 'mutating', 'conversion'])) {
    problems << "type '${type}' is unknown: use -Dtype=validating (allow or deny), -Dtype=mutating (edit objects) " +
            "or -Dtype=conversion (convert a CRD's objects between its versions)"
}

if (type == 'conversion') {
    // A CRD's name is <plural>.<group>, and a custom resource's group has a dot (apiextensions validation).
    def crd = props.getProperty('crd', '')
    if (!(crd ==~ /[a-z0-9]([-a-z0-9]*[a-z0-9])?\.[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)+/)) {
        problems << "crd '${crd}' is not a CustomResourceDefinition name <plural>.<group> with a dotted group, " +
                "e.g. -Dcrd=widgets.example.com"
    }
    def crdKind = props.getProperty('crdKind', '')
    if (!(crdKind ==~ /[A-Z][A-Za-z0-9]*/)) {
        problems << "crdKind '${crdKind}' is not a Kubernetes kind (an upper-case letter, then letters and digits), " +
                "e.g. -DcrdKind=Widget"
    }
    def versions = props.getProperty('versions', '').split(',').collect { it.trim() }
    versions.findAll { !(it ==~ /v[1-9][0-9]*((alpha|beta)[1-9][0-9]*)?/) }.each {
        problems << "versions entry '${it}' is not a Kubernetes API version such as v1, v1beta1 or v2alpha1"
    }
    if (versions.size() < 2 || versions.toSet().size() != versions.size()) {
        problems << "versions must list at least two distinct versions, oldest first, e.g. -Dversions=v1alpha1,v1"
    }
}

def pomStyle = props.getProperty('pomStyle', '')
if (!(pomStyle in ['parented', 'standalone'])) {
    problems << "pomStyle '${pomStyle}' is unknown: use -DpomStyle=parented (a module under the Tollgate " +
            "repository's functions/) or -DpomStyle=standalone (its own project)"
}

def className = props.getProperty('className', '')
def javaKeywords = ['abstract', 'assert', 'boolean', 'break', 'byte', 'case', 'catch', 'char', 'class', 'const',
        'continue', 'default', 'do', 'double', 'else', 'enum', 'extends', 'final', 'finally', 'float', 'for', 'goto',
        'if', 'implements', 'import', 'instanceof', 'int', 'interface', 'long', 'native', 'new', 'package', 'private',
        'protected', 'public', 'return', 'short', 'static', 'strictfp', 'super', 'switch', 'synchronized', 'this',
        'throw', 'throws', 'transient', 'try', 'void', 'volatile', 'while', 'true', 'false', 'null', 'var', 'record',
        'yield', 'sealed', 'permits']
if (!(className ==~ /[A-Z][A-Za-z0-9]*/)) {
    problems << "className '${className}' is not a Java class name starting with an upper-case letter"
}
def pkg = props.getProperty('package', '')
if (!(pkg ==~ /[a-z_][a-z0-9_]*(\.[a-z_][a-z0-9_]*)*/) || pkg.split('\\.').any { it in javaKeywords }) {
    problems << "package '${pkg}' is not a valid Java package name (lowercase segments, no keywords)"
}

// <resource>[/<subresource>][.<group>] in kubectl style: pods, deployments.apps, pods/ephemeralcontainers, *.*
def resourcePart = /(\*|[a-z0-9]+)(\/(\*|[a-z0-9]+))?/
def groupPart = /(\*|[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*)/
def resources = props.getProperty('resources', '').split(',').collect { it.trim() }
if (resources.every { it.isEmpty() }) {
    problems << "resources is empty: name at least one, e.g. -Dresources=pods or -Dresources=deployments.apps"
}
resources.findAll { !(it ==~ /${resourcePart}(\.${groupPart})?/) }.each {
    problems << "resources entry '${it}' is not <resource>[/<subresource>][.<group>] in lowercase, " +
            "e.g. pods, pods/ephemeralcontainers, deployments.apps, ingresses.networking.k8s.io"
}

def operationNames = ['CREATE', 'UPDATE', 'DELETE', 'CONNECT', '*']
def operations = props.getProperty('operations', '').split(',').collect { it.trim() }
operations.findAll { !(it in operationNames) }.each {
    problems << "operations entry '${it}' is unknown: use CREATE, UPDATE, DELETE, CONNECT or * (comma-separated)"
}

def failurePolicy = props.getProperty('failurePolicy', '')
if (!(failurePolicy in ['Fail', 'Ignore'])) {
    problems << "failurePolicy '${failurePolicy}' is unknown: use Fail or Ignore"
}

def timeout = props.getProperty('timeoutSeconds', '')
if (!(timeout ==~ /[0-9]{1,2}/) || !((timeout as int) in 1..30)) {
    problems << "timeoutSeconds '${timeout}' must be a whole number of seconds from 1 to 30 (the API server's limit)"
}

def outputDir = new File(request.outputDirectory)
def enclosingPom = new File(outputDir, 'pom.xml')

if (problems.isEmpty()) {
    if (pomStyle == 'parented' && enclosingPom.isFile() && isFunctionsParent(enclosingPom.getText('UTF-8'))) {
        enclosingPom.setText(restoreProjectStyle(withoutModule(enclosingPom.getText('UTF-8'), name)), 'UTF-8')
        def rootPom = new File(outputDir.canonicalFile.parentFile, 'pom.xml')
        def listed = rootPom.isFile() ? addFunctionModule(rootPom.getText('UTF-8'), name) : null
        if (listed != null) {
            rootPom.setText(listed, 'UTF-8')
            println "[INFO] Listed functions/${name} in ${rootPom}"
        } else {
            println "[WARNING] Add <module>functions/${name}</module> to the root pom.xml <modules> to build ${name}"
        }
    }
    return
}

// Undo the generation: the project folder, and the <module> line the plugin added to an enclosing aggregator pom.
def projectDir = new File(outputDir, name)
if (name && projectDir.isDirectory() && projectDir.canonicalFile.parentFile == outputDir.canonicalFile) {
    projectDir.deleteDir()
}
if (name && enclosingPom.isFile()) {
    def text = enclosingPom.getText('UTF-8')
    def cleaned = withoutModule(text, name)
    if (cleaned != text) {
        enclosingPom.setText(isFunctionsParent(cleaned) ? restoreProjectStyle(cleaned) : cleaned, 'UTF-8')
    }
}

throw new IllegalArgumentException("Tollgate function not generated:\n  - " + problems.join("\n  - "))

// --- helpers ---

static boolean isFunctionsParent(String pom) {
    // The first <artifactId> after </parent> is the project's own.
    def own = pom.replaceFirst(/(?s)<parent>.*?<\/parent>/, '') =~ /<artifactId>([^<]+)<\/artifactId>/
    own.find() && own.group(1) == 'tollgate-function-parent'
}

/** Removes <module>name</module>, and the <modules> block if nothing else is left in it. */
static String withoutModule(String pom, String name) {
    def moduleLine = ~/(?m)^[ \t]*<module>${java.util.regex.Pattern.quote(name)}<\/module>[ \t]*\r?\n/
    pom.replaceFirst(moduleLine, '').replaceFirst(~/(?m)^[ \t]*<modules>\s*<\/modules>[ \t]*\r?\n/, '')
}

/**
 * Undoes the plugin's XML rewrite in the project's pom style: the XML declaration on its own line, one attribute of
 * <project> per line, and a blank line after each multi-line top-level element.
 */
static String restoreProjectStyle(String pom) {
    def header = pom =~ /^(<\?xml[^>]*\?>)\s*<project\s+([^>]*)>/
    if (!header.find()) {
        return pom
    }
    def attributes = (header.group(2) =~ /[\w:]+="[^"]*"/).collect { it }
    def text = header.group(1) + '\n<project ' + attributes.join('\n         ') + '>' + pom.substring(header.end())
    def lines = text.split('\n', -1) as List
    def out = []
    def openTopLevel = null
    lines.eachWithIndex { line, i ->
        out << line
        def start = line =~ /^  <([\w.-]+)[ >]/
        if (openTopLevel == null && start.find() && !line.contains("</${start.group(1)}>") && !line.endsWith('/>')) {
            openTopLevel = start.group(1)
        } else if (openTopLevel != null && line.trim().endsWith("</${openTopLevel}>")) {
            openTopLevel = null
            def next = i + 1 < lines.size() ? lines[i + 1] : ''
            if (next.trim() && next.trim() != '</project>') {
                out << ''
            }
        }
    }
    out.join('\n')
}

/** Adds <module>functions/name</module> after the root pom's last function module that is not a bundle. */
static String addFunctionModule(String rootPom, String name) {
    if (!rootPom.contains('<module>functions</module>')) {
        return null
    }
    if (rootPom.contains("<module>functions/${name}</module>")) {
        return rootPom
    }
    def lines = rootPom.split('\n', -1) as List
    def last = lines.findLastIndexOf { it ==~ /\s*<module>functions(\/(?!all-in-one<)[^<]+)?<\/module>\s*/ }
    def indent = (lines[last] =~ /^\s*/)[0]
    lines.add(last + 1, "${indent}<module>functions/${name}</module>")
    lines.join('\n')
}
