#!/usr/bin/env python3
"""The CI recipes of examples/ci/, checked as users paste them.

  recipes.py validate
      The GitHub workflow and the GitLab file validate against the published
      schemas (tests/published_schemas/ci/); broken copies of each must not;
      the three recipes build and install the package with the same
      commands; docs/ci.md shows each recipe byte for byte.
  recipes.py run SYSTEM SCENARIO WORKDIR
      Runs one recipe (github, gitlab, jenkins) the way its CI system would:
      jobs in their order, a fresh workspace per job (and per matrix cell or
      parallel instance), the system's variables set, artifacts or stashes
      handed from job to job, and every shell step (`run:`, `script:`, `sh`)
      run as written. What only the CI system can do is played here: a
      checkout copies the user's repository, upload/download steps move files
      through a local store, `apt-get` (tests/ci/shims/) installs the .deb by
      extracting it into the job's root. The package job's cmake and cpack
      reuse the project's build tree unless IDCONFORM_CI_FULL_BUILD=1.
      Prints one JSON object: jobs with their exit codes and results, the
      published test report, the apt-get calls.

The environment (set by tests/e2e/ci_recipes.sh): SRC, BUILD, CI_TEST_REPO
(the user's repository), CI_TEST_VARS (a JSON object of the CI/CD variables
and secrets), CI_TEST_DIE_SHARD (a shard whose job dies before it reports).
"""
import fnmatch
import glob
import itertools
import json
import os
import re
import shutil
import subprocess
import sys

SRC = os.environ.get("SRC") or os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
RECIPES = {
    "github": os.path.join(SRC, "examples/ci/github-workflow.yml"),
    "gitlab": os.path.join(SRC, "examples/ci/gitlab-ci.yml"),
    "jenkins": os.path.join(SRC, "examples/ci/Jenkinsfile"),
}
SCHEMAS = {
    "github": os.path.join(SRC, "tests/published_schemas/ci/github-workflow.json"),
    "gitlab": os.path.join(SRC, "tests/published_schemas/ci/gitlab-ci.json"),
}


def die(msg):
    print(f"recipes.py: {msg}", file=sys.stderr)
    sys.exit(2)


try:
    import yaml
except ImportError:
    die("needs python3-yaml (scripts/setup.sh tests installs it)")


class Yaml12Loader(yaml.SafeLoader):
    """YAML as GitHub and GitLab read these files: only true/false are
    booleans (PyYAML's YAML 1.1 would make the key `on` True)."""


Yaml12Loader.yaml_implicit_resolvers = {
    k: [(tag, rx) for tag, rx in v if tag != "tag:yaml.org,2002:bool"]
    for k, v in yaml.SafeLoader.yaml_implicit_resolvers.copy().items()
}
Yaml12Loader.add_implicit_resolver("tag:yaml.org,2002:bool", re.compile(r"^(?:true|false)$"), list("tf"))


def load_yaml(path):
    with open(path, encoding="utf-8") as f:
        return yaml.load(f, Loader=Yaml12Loader)


# --- validate --------------------------------------------------------------

def broken_copies(system, doc):
    """Copies of a recipe with one mistake a user could make; each must be refused."""
    def copy():
        return json.loads(json.dumps(doc))
    out = []
    if system == "github":
        d = copy(); d["jobs"]["contract"]["run-on"] = d["jobs"]["contract"].pop("runs-on")
        out.append(("runs-on misspelt run-on", d))
        d = copy(); d["on"]["pull-request"] = d["on"].pop("pull_request")
        out.append(("the event pull_request misspelt pull-request", d))
        d = copy(); d["jobs"]["merge"]["steps"][0]["with"] = "name=idconform-deb"
        out.append(("a step's with: not a mapping", d))
        d = copy(); del d["jobs"]
        out.append(("no jobs", d))
    else:
        d = copy(); d["idconform"]["parallel"] = 500
        out.append(("parallel above 200", d))
        d = copy(); d["idconform-merge"]["artifacts"]["reports"]["junit"] = {"path": "reports/junit.xml"}
        out.append(("artifacts:reports:junit a mapping", d))
        d = copy(); d["idconform"]["when"] = "sometimes"
        out.append(("when: sometimes", d))
        d = copy(); d["idconform-package"]["scripts"] = d["idconform-package"].pop("script")
        out.append(("script misspelt scripts", d))
    return out


def validate():
    try:
        import jsonschema
    except ImportError:
        die("needs python3-jsonschema (scripts/setup.sh tests installs it)")
    problems = []
    for system in ("github", "gitlab"):
        with open(SCHEMAS[system], encoding="utf-8") as f:
            schema = json.load(f)
        validator = jsonschema.Draft7Validator(schema)
        doc = load_yaml(RECIPES[system])
        errors = sorted(validator.iter_errors(doc), key=lambda e: list(e.absolute_path))
        for e in errors:
            where = "/".join(str(p) for p in e.absolute_path)
            problems.append(f"{RECIPES[system]}: at /{where}: {e.message[:300]}")
        if not errors:
            print(f"ok: {os.path.relpath(RECIPES[system], SRC)} validates against {os.path.relpath(SCHEMAS[system], SRC)}")
        for what, bad in broken_copies(system, doc):
            if validator.is_valid(bad):
                problems.append(f"{SCHEMAS[system]} accepts a broken copy of {RECIPES[system]} ({what})")
            else:
                print(f"ok: the broken copy ({what}) is refused")
    problems += same_commands() + in_docs()
    for p in problems:
        print(f"FAIL: {p}", file=sys.stderr)
    return 1 if problems else 0


def shell_steps(system):
    """The shell steps of a recipe, in order, each as its list of command lines."""
    out = []
    if system == "jenkins":
        with open(RECIPES[system], encoding="utf-8") as f:
            for m in JENKINS_STEP.finditer(f.read()):
                s = m.group("sh1") or m.group("sh2")
                if s:
                    out.append(s)
    elif system == "github":
        for job in load_yaml(RECIPES[system])["jobs"].values():
            out += [s["run"] for s in job["steps"] if "run" in s]
    else:
        for job in load_yaml(RECIPES[system]).values():
            if isinstance(job, dict) and "script" in job:
                out.append("\n".join(job.get("before_script", []) + job["script"]))
    return [[line.strip() for line in s.splitlines() if line.strip()] for s in out]


def same_commands():
    """The three recipes build the package and install it with the same
    commands, so the test that builds one of them for real speaks for all."""
    problems = []
    steps = {system: shell_steps(system) for system in RECIPES}
    def package_step(system):
        found = [s for s in steps[system] if any(l.startswith("cpack ") for l in s)]
        return found[0] if len(found) == 1 else None
    def installs(system):
        return sorted({l for s in steps[system] for l in s if l.startswith("apt-get install") and ".deb" in l})
    for system in RECIPES:
        if package_step(system) is None:
            problems.append(f"{RECIPES[system]}: no single package step (one with cpack)")
        if len(installs(system)) != 1:
            problems.append(f"{RECIPES[system]}: the .deb is installed with {installs(system)}, not one command")
    if not problems:
        for system in ("gitlab", "jenkins"):
            if package_step(system) != package_step("github"):
                problems.append(f"{RECIPES[system]} builds the package unlike {RECIPES['github']}")
            if installs(system) != installs("github"):
                problems.append(f"{RECIPES[system]} installs the package unlike {RECIPES['github']}")
        if not problems:
            print("ok: the three recipes build and install the package with the same commands")
    return problems


def in_docs():
    """docs/ci.md shows each recipe as it is in examples/ci/, byte for byte
    (the installed docs carry them; examples/ci/ is not installed)."""
    doc_path = os.path.join(SRC, "docs/ci.md")
    with open(doc_path, encoding="utf-8") as f:
        doc = f.read()
    problems = []
    for system, path in RECIPES.items():
        rel = os.path.relpath(path, SRC)
        m = re.search(r"<!-- recipe: " + re.escape(rel) + r" -->\n```\w*\n(.*?)^```$", doc, re.S | re.M)
        with open(path, encoding="utf-8") as f:
            text = f.read()
        if not m:
            problems.append(f"{doc_path} does not show {rel} (a <!-- recipe: {rel} --> block)")
        elif m.group(1) != text:
            line = doc[:m.start(1)].count("\n") + 1
            problems.append(f"{doc_path}:{line}: the block differs from {rel}; copy the file into it")
        else:
            print(f"ok: docs/ci.md shows {rel} as it is")
    return problems


# --- running jobs ----------------------------------------------------------

class Ci:
    """What every CI system does for a job: a fresh workspace and root, the
    shims on PATH, a shell step run with the job's environment."""

    def __init__(self, system, workdir):
        self.system = system
        self.workdir = workdir
        self.store = os.path.join(workdir, "store")   # artifacts / stashes
        os.makedirs(self.store, exist_ok=True)
        self.vars = json.loads(os.environ.get("CI_TEST_VARS", "{}"))
        self.jobs = []      # reported
        self.report = None  # the published test report
        self.njobs = 0

    def new_job(self, name):
        # Every job runs at the same paths, as every container of a CI
        # system has the same workspace and /usr: the run's plan (the
        # digest merge compares) holds the files of the packs, and those
        # must not differ from shard to shard. finish() moves the job aside.
        self.njobs += 1
        root = os.path.join(self.workdir, "job")
        ws = os.path.join(root, "workspace")
        os.makedirs(ws)
        os.makedirs(os.path.join(root, "sysroot"))
        return {"name": name, "root": root, "workspace": ws, "steps": [], "result": "success"}

    def job_env(self, job, extra):
        shims = os.path.join(SRC, "tests/ci/shims")
        env = {
            "PATH": f"{shims}/apt:{shims}/sysroot" + (f":{shims}/reuse-build" if not full_build() else "")
                    + ":" + os.environ["PATH"],
            "HOME": job["root"],
            "LANG": "C.UTF-8",
            "CI_TEST_SYSROOT": os.path.join(job["root"], "sysroot"),
            "CI_TEST_APT_LOG": os.path.join(self.workdir, "apt.log"),
            "CI_TEST_JOB": job["name"],
            "BUILD": os.environ.get("BUILD", ""),
        }
        for k in ("CI_TEST_DIE_SHARD", "CCACHE_DIR", "CMAKE_BUILD_PARALLEL_LEVEL", "IDCONFORM_GRPC_ADDRESS", "PRODUCTS_LEGACY_SALT", "TMPDIR"):
            if k in os.environ:
                env[k] = os.environ[k]
        env.update({k: str(v) for k, v in extra.items()})
        return env

    def shell(self, job, script, env, shell=("bash", "-e")):
        n = len(job["steps"]) + 1
        path = os.path.join(job["root"], f"step{n}.sh")
        with open(path, "w", encoding="utf-8") as f:
            f.write(script)
        log = os.path.join(job["root"], f"step{n}.log")
        with open(log, "w") as out:
            code = subprocess.call([*shell, path], cwd=job["workspace"], env=env, stdout=out,
                                   stderr=subprocess.STDOUT)
        with open(log, encoding="utf-8", errors="replace") as f:
            tail = f.read()[-3000:]
        job["steps"].append({"kind": "shell", "exit": code, "log": log, "tail": tail})
        return code

    def checkout(self, job):
        shutil.copytree(os.environ["CI_TEST_REPO"], job["workspace"], dirs_exist_ok=True)
        job["steps"].append({"kind": "checkout"})

    def finish(self, job, **extra):
        job.update(extra)
        kept = os.path.join(self.workdir, f"job{self.njobs}")
        os.rename(job["root"], kept)
        record = json.loads(json.dumps({k: v for k, v in job.items() if k != "root"}).replace(
            json.dumps(job["root"])[1:-1], json.dumps(kept)[1:-1]))
        self.jobs.append(record)

    def publish_report(self, job, path, how):
        p = os.path.join(job["workspace"], path)
        self.report = {"job": job["name"], "how": how, "path": p if os.path.exists(p) else None}
        if os.path.exists(p):
            dest = os.path.join(self.workdir, "published-junit.xml")
            shutil.copy(p, dest)
            self.report["path"] = dest

    def result(self):
        apt = []
        log = os.path.join(self.workdir, "apt.log")
        if os.path.exists(log):
            with open(log, encoding="utf-8") as f:
                apt = [json.loads(line) for line in f]
        return {"system": self.system, "jobs": self.jobs, "report": self.report, "apt": apt}


def full_build():
    return os.environ.get("IDCONFORM_CI_FULL_BUILD") == "1"


def copy_matches(base, patterns, dest, keep_dirs):
    """Copies the files of base matching the glob patterns into dest; keep_dirs
    keeps their paths relative to base, otherwise relative to their common
    directory (what actions/upload-artifact stores). Returns how many."""
    files = []
    for pat in patterns:
        for m in glob.glob(os.path.join(base, pat), recursive=True):
            if os.path.isdir(m):
                files += [os.path.join(d, f) for d, _, fs in os.walk(m) for f in fs]
            else:
                files.append(m)
    files = sorted(set(files))
    if not files:
        return 0
    top = base if keep_dirs else os.path.commonpath([os.path.dirname(f) for f in files])
    for f in files:
        target = os.path.join(dest, os.path.relpath(f, top))
        os.makedirs(os.path.dirname(target), exist_ok=True)
        shutil.copy(f, target)
    return len(files)


def copy_tree(src, dest):
    if os.path.isdir(src):
        shutil.copytree(src, dest, dirs_exist_ok=True)


# --- GitHub Actions ----------------------------------------------------------

EXPR = re.compile(r"\$\{\{\s*(.*?)\s*\}\}")


def gh_expr(text, ctx):
    def one(m):
        e = m.group(1)
        if e in ctx:
            return str(ctx[e])
        kind, _, name = e.partition(".")
        if kind in ("vars", "secrets"):
            return str(ctx["_vars"].get(name, ""))
        raise SystemExit(f"recipes.py: unsupported expression ${{{{ {e} }}}}")
    return EXPR.sub(one, text) if isinstance(text, str) else text


def gh_condition(cond, default_ok, ctx):
    """The few `if:` forms the recipe uses: always(), success(), failure(),
    needs.JOB.result == 'RESULT', joined by &&."""
    if cond is None:
        return default_ok
    value = True
    for part in (p.strip() for p in cond.replace("${{", "").replace("}}", "").split("&&")):
        if part == "always()":
            continue
        if part == "success()":
            value &= default_ok
            continue
        if part == "failure()":
            value &= not default_ok
            continue
        m = re.fullmatch(r"needs\.([\w-]+)\.result\s*==\s*'(\w+)'", part)
        if not m:
            raise SystemExit(f"recipes.py: unsupported if: {cond}")
        value &= ctx["_needs"].get(m.group(1)) == m.group(2)
    return value


def run_github(ci):
    wf = load_yaml(RECIPES["github"])
    order, results = [], {}
    jobs = wf["jobs"]
    while len(order) < len(jobs):  # in the order of needs
        for name, job in jobs.items():
            needs = job.get("needs", [])
            needs = [needs] if isinstance(needs, str) else needs
            if name not in order and all(n in order for n in needs):
                order.append(name)
    for name in order:
        job = jobs[name]
        needs = job.get("needs", [])
        needs = [needs] if isinstance(needs, str) else needs
        all_ok = all(results[n] == "success" for n in needs)
        if not gh_condition(job.get("if"), all_ok, {"_needs": results}):
            results[name] = "skipped"
            ci.jobs.append({"name": name, "result": "skipped", "steps": []})
            continue
        matrix = (job.get("strategy") or {}).get("matrix") or {}
        if "include" in matrix or "exclude" in matrix:
            raise SystemExit("recipes.py: matrix include/exclude is not played")
        keys = list(matrix)
        cells = [dict(zip(keys, vals)) for vals in itertools.product(*(matrix[k] for k in keys))] or [{}]
        outcome = "success"
        for index, cell in enumerate(cells):
            ctx = {"_vars": ci.vars, "_needs": results, "strategy.job-total": len(cells),
                   "strategy.job-index": index}
            ctx.update({f"matrix.{k}": v for k, v in cell.items()})
            j = ci.new_job(f"{name} {cell}" if cell else name)
            ok = True
            for step in job["steps"]:
                if not gh_condition(step.get("if"), ok, ctx):
                    j["steps"].append({"kind": "skipped", "name": step.get("name") or step.get("uses")})
                    continue
                if "run" in step:
                    env = {k: gh_expr(v, ctx) for k, v in {**job.get("env", {}), **step.get("env", {})}.items()}
                    env.update({"CI": "true", "GITHUB_ACTIONS": "true", "GITHUB_WORKSPACE": j["workspace"]})
                    if ci.shell(j, gh_expr(step["run"], ctx), ci.job_env(j, env)) != 0:
                        ok = False
                    continue
                uses, w = step["uses"], {k: gh_expr(v, ctx) for k, v in (step.get("with") or {}).items()}
                action = uses.split("@")[0]
                if action == "actions/checkout":
                    ci.checkout(j)
                elif action == "actions/upload-artifact":
                    dest = os.path.join(ci.store, w["name"])
                    n = copy_matches(j["workspace"], [p for p in w["path"].split("\n") if p.strip()], dest, False)
                    j["steps"].append({"kind": "upload", "name": w["name"], "files": n})
                    if n == 0 and w.get("if-no-files-found", "warn") == "error":
                        ok = False
                elif action == "actions/download-artifact":
                    dest = os.path.join(j["workspace"], w.get("path", "."))
                    if "name" in w:
                        src = os.path.join(ci.store, w["name"])
                        found = os.path.isdir(src)
                        copy_tree(src, dest)
                        if not found:
                            ok = False  # download-artifact fails on a missing name
                    else:
                        for a in sorted(os.listdir(ci.store)):
                            if fnmatch.fnmatch(a, w["pattern"]):
                                copy_tree(os.path.join(ci.store, a),
                                          dest if w.get("merge-multiple") else os.path.join(dest, a))
                    j["steps"].append({"kind": "download", "what": w.get("name") or w.get("pattern")})
                elif action == "mikepenz/action-junit-report":
                    ci.publish_report(j, w["report_paths"], uses)
                    j["steps"].append({"kind": "test-report", "uses": uses})
                else:
                    raise SystemExit(f"recipes.py: the action {uses} is not played")
            j["result"] = "success" if ok else "failure"
            ci.finish(j)
            if not ok:
                outcome = "failure"
        results[name] = outcome


# --- GitLab CI ---------------------------------------------------------------

GITLAB_KEYWORDS = {"stages", "variables", "default", "include", "workflow", "image", "services", "cache",
                   "before_script", "after_script"}


def run_gitlab(ci):
    doc = load_yaml(RECIPES["gitlab"])
    stages = doc.get("stages", ["build", "test", "deploy"])
    variables = {k: (v["value"] if isinstance(v, dict) else v) for k, v in (doc.get("variables") or {}).items()}
    variables.update(ci.vars)  # project CI/CD variables take precedence over the file's
    jobs = {k: v for k, v in doc.items() if k not in GITLAB_KEYWORDS and not k.startswith(".")}
    status = {}     # job name -> success/failure (a parallel job fails if an instance does)
    artifacts = {}  # job name -> list of artifact dirs
    for stage in stages:
        for name, job in jobs.items():
            if job.get("stage", "test") != stage:
                continue
            needs = job.get("needs")
            before = [n for n, jb in jobs.items()
                      if stages.index(jb.get("stage", "test")) < stages.index(stage)]
            deps = [n if isinstance(n, str) else n["job"] for n in needs] if needs is not None else before
            when = job.get("when", "on_success")
            ok_before = all(status.get(d) == "success" for d in deps)
            if when == "on_success" and not ok_before:
                status[name] = "skipped"
                ci.jobs.append({"name": name, "result": "skipped", "steps": []})
                continue
            total = job.get("parallel")
            instances = range(1, total + 1) if total else [None]
            outcome = "success"
            artifacts[name] = []
            for index in instances:
                j = ci.new_job(f"{name} {index}/{total}" if index else name)
                ci.checkout(j)  # GitLab fetches the repository into every job, then its needs' artifacts
                for d in deps:
                    for a in artifacts.get(d, []):
                        copy_tree(a, j["workspace"])
                env = dict(variables)
                env.update({"CI": "true", "GITLAB_CI": "true", "CI_JOB_NAME": name,
                            "CI_PROJECT_DIR": j["workspace"]})
                if index:
                    env.update({"CI_NODE_INDEX": index, "CI_NODE_TOTAL": total})
                script = "set -eo pipefail\n" + "\n".join(job.get("before_script", []) + job["script"]) + "\n"
                code = ci.shell(j, script, ci.job_env(j, env))
                ok = code == 0
                art = job.get("artifacts") or {}
                if art and (art.get("when", "on_success") == "always" or ok):
                    dest = os.path.join(ci.store, f"{name}.{index or 0}")
                    copy_matches(j["workspace"], art.get("paths", []), dest, True)
                    artifacts[name].append(dest)
                    junit = (art.get("reports") or {}).get("junit")
                    if junit:
                        ci.publish_report(j, junit, "artifacts:reports:junit")
                j["result"] = "success" if ok else "failure"
                ci.finish(j, exit=code)
                if not ok:
                    outcome = "failure"
            status[name] = outcome


# --- Jenkins -----------------------------------------------------------------

def groovy_blocks(text):
    """Spans of `stage('NAME') {...}` at any depth, with braces in strings
    and comments ignored. Returns (name, start, end, depth)."""
    spans, stack, i = [], [], 0
    pending = None
    while i < len(text):
        if text.startswith("'''", i):
            i = text.index("'''", i + 3) + 3
            continue
        c = text[i]
        if text.startswith("//", i):
            i = text.index("\n", i)
            continue
        if c in "'\"":
            j = i + 1
            while text[j] != c:
                j += 2 if text[j] == "\\" else 1
            i = j + 1
            continue
        m = re.match(r"stage\('([^']*)'\)\s*\{", text[i:])
        if m:
            pending = m.group(1)
            i += m.end() - 1
            continue
        if c == "{":
            stack.append((pending, i))
            pending = None
        elif c == "}":
            name, start = stack.pop()
            if name is not None:
                spans.append((name, start, i, sum(1 for n, _ in stack if n is not None)))
        i += 1
    return spans


JENKINS_STEP = re.compile(
    r"(?P<shs>sh\s+'''(?P<sh1>.*?)''')"
    r"|(?P<shr>sh\(returnStatus:\s*true,\s*script:\s*'''(?P<sh2>.*?)'''\s*\))"
    r"|(?P<stash>\bstash\s+name:\s*(?P<sname>'[^']*'|\"[^\"]*\"),\s*includes:\s*'(?P<sinc>[^']*)'(?P<sempty>,\s*allowEmpty:\s*true)?)"
    r"|(?P<unstash>\bunstash\s+(?P<uname>'[^']*'|\"[^\"]*\"))"
    r"|(?P<loop>for\s*\((?P<lvar>\w+)\s+in\s+\[(?P<lvals>[^\]]*)\]\))"
    r"|(?P<junit>\bjunit\s+testResults:\s*'(?P<jpath>[^']*)'(?P<jempty>,\s*allowEmptyResults:\s*true)?)"
    r"|(?P<post>\bpost\s*\{\s*always\s*\{)",
    re.S)


def groovy_env(text):
    env, creds = {}, {}
    for m in re.finditer(r"environment\s*\{(.*?)\}", text, re.S):
        for k, v in re.findall(r"(\w+)\s*=\s*'([^']*)'", m.group(1)):
            env[k] = v
        for k, v in re.findall(r"(\w+)\s*=\s*credentials\('([^']*)'\)", m.group(1)):
            creds[k] = v
    return env, creds


def groovy_str(s, scope):
    body = s[1:-1]
    if s[0] == '"':
        body = re.sub(r"\$\{(\w+)\}", lambda m: str(scope[m.group(1)]), body)
    return body


def run_jenkins(ci):
    with open(RECIPES["jenkins"], encoding="utf-8") as f:
        text = f.read()
    top = [(n, s, e) for n, s, e, d in groovy_blocks(text) if d == 0]
    env_all, creds = groovy_env(text)
    build_ok = True
    for name, start, end in top:
        body = text[start:end]
        if not build_ok:
            ci.jobs.append({"name": name, "result": "skipped", "steps": []})
            continue
        axes = re.findall(r"axis\s*\{\s*name\s+'(\w+)'\s+values\s+([^}]*)\}", body)
        cells = [{}]
        if axes:
            names = [a for a, _ in axes]
            values = [re.findall(r"'([^']*)'", v) for _, v in axes]
            cells = [dict(zip(names, vs)) for vs in itertools.product(*values)]
        stage_ok = True
        for cell in cells:
            j = ci.new_job(f"{name} {cell}" if cell else name)
            ci.checkout(j)  # every agent checks the repository out (declarative default)
            env = dict(env_all)
            env.update({k: ci.vars.get(k, v) for k, v in env_all.items()})  # the user's own values
            env.update({k: ci.vars[cred] for k, cred in creds.items()})
            env.update(cell)
            env.update({"JENKINS_URL": "http://jenkins.invalid/", "BUILD_NUMBER": "1",
                        "WORKSPACE": j["workspace"]})
            scope = dict(env)
            ok, in_post, loop = True, False, None
            for m in JENKINS_STEP.finditer(body):
                if m.group("post"):
                    in_post = True
                    continue
                if not ok and not in_post:
                    continue
                if m.group("loop"):
                    loop = (m.group("lvar"), re.findall(r"'([^']*)'", m.group("lvals")))
                elif m.group("shs") or m.group("shr"):
                    script = m.group("sh1") if m.group("shs") else m.group("sh2")
                    code = ci.shell(j, script, ci.job_env(j, env), shell=("sh", "-xe"))
                    if m.group("shs") and code != 0:
                        ok = False
                elif m.group("stash"):
                    sname = groovy_str(m.group("sname"), scope)
                    dest = os.path.join(ci.store, sname)
                    n = copy_matches(j["workspace"], [p.strip() for p in m.group("sinc").split(",")], dest, True)
                    os.makedirs(dest, exist_ok=True)
                    if n == 0 and not m.group("sempty"):
                        shutil.rmtree(dest)
                        ok = False  # "No files included in stash"
                    j["steps"].append({"kind": "stash", "name": sname, "files": n})
                elif m.group("unstash"):
                    caught = loop is not None and "${" + loop[0] + "}" in m.group("uname")
                    if caught:  # the recipe's `for (k in [...]) { try { unstash ... } catch ... }`
                        names = [groovy_str(m.group("uname"), {**scope, loop[0]: v}) for v in loop[1]]
                    else:
                        names = [groovy_str(m.group("uname"), scope)]
                    for n in names:
                        src = os.path.join(ci.store, n)
                        if os.path.isdir(src):
                            copy_tree(src, j["workspace"])
                        elif not caught:
                            ok = False  # "No such saved stash"
                        j["steps"].append({"kind": "unstash", "name": n, "found": os.path.isdir(src)})
                    loop = None
                elif m.group("junit"):
                    p = os.path.join(j["workspace"], m.group("jpath"))
                    if not os.path.exists(p) and not m.group("jempty"):
                        ok = False
                    ci.publish_report(j, m.group("jpath"), "junit step")
                    j["steps"].append({"kind": "junit"})
            j["result"] = "success" if ok else "failure"
            ci.finish(j)
            stage_ok &= ok
        build_ok = stage_ok


def run(system, workdir):
    ci = Ci(system, workdir)
    {"github": run_github, "gitlab": run_gitlab, "jenkins": run_jenkins}[system](ci)
    print(json.dumps(ci.result(), indent=1))
    return 0


if __name__ == "__main__":
    if len(sys.argv) == 2 and sys.argv[1] == "validate":
        sys.exit(validate())
    if len(sys.argv) == 4 and sys.argv[1] == "run":
        sys.exit(run(sys.argv[2], sys.argv[3]))
    die("usage: recipes.py validate | run SYSTEM WORKDIR")
