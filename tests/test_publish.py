"""`publish`: the built site pushed to a branch, as `mkdocs gh-deploy` would, for hosting
under a sub-path; the checkout itself is never written."""
import re
import subprocess
from urllib.parse import urlsplit

import pytest

from generator.shipping.publish import site_url_for
from generator.core.exits import UsageError
from tests.support.helpers import MINI, ROOT, run_cli, tree

pytestmark = pytest.mark.slow  # builds the site with MkDocs

SITE_URL = "https://example.org/llm/"


def git(*args, git_dir=None):
    command = ["git"] + ([f"--git-dir={git_dir}"] if git_dir else []) + list(args)
    return subprocess.run(command, capture_output=True, text=True, check=True).stdout


def pushed_files(bare, branch="gh-pages"):
    return set(git("ls-tree", "-r", "--name-only", branch, git_dir=bare).split())


def show(bare, path, branch="gh-pages"):
    return git("show", f"{branch}:{path}", git_dir=bare)


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


def test_publish_pushes_both_languages_a_sitemap_and_only_sub_path_safe_links(mini_tree, bare):
    before = tree(mini_tree)
    result = run_cli("publish", "--catalog", MINI, "--out", mini_tree, "--remote", bare, "--site-url", SITE_URL)
    assert result.code == 0, result.err
    assert "published https://example.org/llm/" in result.out
    files = pushed_files(bare)
    assert {"index.html", "en/index.html", "sitemap.xml", ".nojekyll", "404.html"} <= files
    assert any(f.startswith("codes/") for f in files) and any(f.startswith("en/codes/") for f in files)
    sitemap = show(bare, "sitemap.xml")
    locations = re.findall(r"<loc>([^<]+)</loc>", sitemap)
    assert locations and all(loc.startswith(SITE_URL) for loc in locations), locations[:3]
    assert "None" not in sitemap
    assert f"{SITE_URL}en/" in sitemap  # the English pages are in the sitemap too
    prefix = urlsplit(SITE_URL).path
    for page in sorted(f for f in files if f.endswith(".html")):
        html = show(bare, page)
        for link in re.findall(r'(?:href|src)="(/[^"]*)"', html):
            assert link.startswith(prefix), \
                f"{page}: the absolute link {link} would break when the site is served under {prefix}"
    assert tree(mini_tree) == before, "publish wrote into the checkout"


def test_publishing_again_adds_a_commit_on_top_of_the_branch(mini_tree, bare):
    other = "https://example.org/other/"  # another address: other files (sitemap, canonical links)
    for url in (SITE_URL, other):
        assert run_cli("publish", "--catalog", MINI, "--out", mini_tree, "--remote", bare, "--site-url", url).code == 0
    log = git("log", "--format=%s", "gh-pages", git_dir=bare).splitlines()
    assert log == [f"Publish the site for {other}", f"Publish the site for {SITE_URL}"]


def test_another_branch_and_a_remote_by_name(mini_tree, bare, tmp_path):
    clone = tmp_path / "checkout"
    git("init", "--quiet", str(clone))
    git("-C", str(clone), "remote", "add", "pages", str(bare))
    for path, data in tree(mini_tree).items():
        (clone / path).parent.mkdir(parents=True, exist_ok=True)
        (clone / path).write_bytes(data)
    result = run_cli("publish", "--catalog", MINI, "--out", clone, "--remote", "pages", "--branch", "site",
                     "--site-url", "https://docs.example.org")
    assert result.code == 0, result.err
    assert "index.html" in pushed_files(bare, "site")
    assert "https://docs.example.org/" in show(bare, "sitemap.xml", "site")


def test_stale_pages_are_not_published(mini_tree, bare, tmp_path):
    stale = tmp_path / "stale"
    for path, data in tree(mini_tree).items():
        (stale / path).parent.mkdir(parents=True, exist_ok=True)
        (stale / path).write_bytes(data)
    page = stale / "site" / "docs" / "index.en.md"
    page.write_text(page.read_text(encoding="utf-8") + "\nedited by hand\n", encoding="utf-8")
    result = run_cli("publish", "--catalog", MINI, "--out", stale, "--remote", bare, "--site-url", SITE_URL)
    assert result.code == 1 and "site/docs/index.en.md" in result.err and "make generate" in result.err
    assert not branch_exists(bare, "gh-pages")


def branch_exists(bare, branch):
    found = subprocess.run(["git", f"--git-dir={bare}", "rev-parse", "--verify", "-q", branch], capture_output=True)
    return found.returncode == 0


def test_an_unreachable_remote_or_a_bad_url_is_one_line(mini_tree, tmp_path):
    result = run_cli("publish", "--catalog", MINI, "--out", mini_tree, "--remote", tmp_path / "nowhere.git",
                     "--site-url", SITE_URL)
    assert result.code == 1 and "cannot reach" in result.err and "Traceback" not in result.err
    result = run_cli("publish", "--catalog", MINI, "--out", mini_tree, "--remote", tmp_path / "nowhere.git",
                     "--site-url", "ftp://example.org/x")
    assert result.code == 2 and "SITE_URL" in result.err


@pytest.mark.parametrize("remote, expected", [
    ("https://github.com/hicann/llm-status-codes.git", "https://hicann.github.io/llm-status-codes/"),
    ("git@github.com:Someone/codes", "https://someone.github.io/codes/"),
    ("git@github.com:someone/someone.github.io.git", "https://someone.github.io/"),
])
def test_github_pages_address_is_derived_from_a_github_remote(remote, expected):
    assert site_url_for("", remote) == expected


def test_without_site_url_a_remote_that_is_not_github_is_refused():
    with pytest.raises(UsageError, match="SITE_URL"):
        site_url_for("", "/srv/git/pages.git")
    assert site_url_for("https://example.org/a", "/srv/x.git") == "https://example.org/a/"


def test_make_publish_passes_its_variables(tmp_path):
    """Through the environment (never pasted into the recipe): each value reaches publish as it is."""
    def make_publish(**values):
        return subprocess.run(["make", "--no-print-directory", "-o", ".venv/.installed", "publish",
                               *(f"{k}={v}" for k, v in values.items())], cwd=ROOT, capture_output=True, text=True)

    remote = tmp_path / "x.git"
    wrong_branch = make_publish(PUBLISH_REMOTE=remote, PUBLISH_BRANCH="bad..name", SITE_URL="https://example.org/llm/")
    assert "PUBLISH_BRANCH='bad..name'" in wrong_branch.stderr
    wrong_url = make_publish(PUBLISH_REMOTE=remote, SITE_URL="ftp://example.org/llm/")
    assert "SITE_URL='ftp://example.org/llm/'" in wrong_url.stderr
    unreachable = make_publish(PUBLISH_REMOTE=remote, SITE_URL="https://example.org/llm/")
    assert f"cannot reach {remote}" in unreachable.stderr
