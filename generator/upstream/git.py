"""Reading an upstream repository (a clone or a bare git directory) with git itself."""
from __future__ import annotations

import re
import subprocess
import sys
from functools import lru_cache
from pathlib import Path
from typing import TYPE_CHECKING, Optional, Sequence

from generator.upstream.files import MAX_FILE_BYTES, TOO_LARGE, UnreadableFile, decode
from generator.core.exits import UsageError, safe_print
from generator.core.releases import UNRELEASED, release_key, sort_tags, tag_release

if TYPE_CHECKING:
    from generator.domain.family import Catalog


class GitError(OSError):
    """git could not read the repository; the message says what and where. An OSError, so that
    a failure no caller words itself still ends as one line (exit 1), never a traceback."""


@lru_cache(maxsize=None)
def _end_of_options() -> tuple[str, ...]:
    """`--end-of-options` where git knows it (2.30 and later, for rev-parse too): whatever
    follows is an argument even if it looks like an option."""
    try:
        version = subprocess.run(["git", "--version"], capture_output=True, text=True, timeout=60).stdout
    except (OSError, subprocess.SubprocessError):
        return ()
    match = re.search(r"(\d+)\.(\d+)", version)
    return ("--end-of-options",) if match and (int(match[1]), int(match[2])) >= (2, 30) else ()


class GitRepo:
    def __init__(self, name: str, directory: Path, default_branch: Optional[str] = None):
        # the branch the catalog names as the repository's default: a clone may have another checked out
        self.name, self.directory, self.default_branch = name, directory, default_branch
        work_tree = (directory / ".git").exists()
        self._base = ["git", "-c", "core.quotepath=off"] + (
            ["-C", str(directory)] if work_tree else ["--git-dir", str(directory)]
        )
        self._check()

    def _check(self) -> None:
        try:
            self.run("rev-parse", "--git-dir")
        except GitError as error:
            raise GitError(f"{self.name}={self.directory}: not a git repository ({error})") from None
        try:
            self.run("rev-parse", "--verify", "--quiet", "HEAD^{commit}")
        except GitError:
            raise GitError(f"{self.name}={self.directory}: the repository has no commits at HEAD; "
                           "clone or fetch it with its branch and tags") from None
        if self.run("rev-parse", "--is-shallow-repository").strip() == b"true":
            # which tags ship a file, and which release a page version is, need the whole history
            raise GitError(f"{self.name}={self.directory}: a shallow clone (its history and tags are cut): run "
                           "`git fetch --unshallow --tags` in it, or clone it whole")

    def has_commit(self, ref: str) -> bool:
        try:
            self.commit(ref)
            return True
        except GitError:
            return False

    def is_ancestor(self, older: str, newer: str) -> bool:
        """Whether commit `older` comes before `newer` in its history (both commits this repository has)."""
        try:
            self.run("merge-base", "--is-ancestor", older, newer)
        except GitError:
            return False
        return True

    def run(self, *args: str) -> bytes:
        try:
            result = subprocess.run(self._base + list(args), capture_output=True, timeout=300, stdin=subprocess.DEVNULL)
        except (OSError, subprocess.SubprocessError) as error:
            raise GitError(f"git {' '.join(args)}: {error}") from None
        if result.returncode != 0:
            lines = result.stderr.decode("utf-8", "replace").strip().splitlines()
            # which repository, and what was asked of it: git's own last line names neither
            raise GitError(f"{self.name} ({self.directory}): git {args[0]}: "
                           + (lines[-1] if lines else f"exit status {result.returncode}"))
        return result.stdout

    def revision(self, *args: str) -> bytes:
        """`git ARGS`, whose last argument is a revision (a ref, a commit, a blob id): never
        one git could read as an option, whatever a tag or the command line says."""
        if args[-1].startswith("-"):
            raise GitError(f"{args[-1]!r} is not a tag, branch or commit: a name never begins with -")
        return self.run(*args[:-1], *_end_of_options(), args[-1])

    @lru_cache(maxsize=None)
    def _tags(self) -> tuple[tuple[str, str], ...]:
        """(tag, the type of what it points at: commit, tree, blob) for every tag, an
        annotated tag peeled to its object."""
        listing = self.run("for-each-ref", "--format=%(refname:strip=2)%00%(objecttype)%00%(*objecttype)", "refs/tags")
        tags = []
        for line in listing.decode("utf-8", "surrogateescape").split("\n"):  # a name may hold U+2028, never \n
            if not line:
                continue
            name, kind, peeled = (line.split("\0") + ["", ""])[:3]
            tags.append((name, peeled or kind))
        return tuple(tags)

    @lru_cache(maxsize=None)
    def release_tags(self) -> tuple[str, ...]:
        """Tags that name a release and point at a commit, in release order."""
        return tuple(t for t in sort_tags(name for name, kind in self._tags() if kind == "commit") if tag_release(t))

    @lru_cache(maxsize=None)
    def release_branches(self) -> tuple[tuple[str, str], ...]:
        """(name, full ref) of each branch named as a release (`9.2.0-beta.2`, a branch a
        release is prepared on), local or fetched, in release order."""
        listing = self.run("for-each-ref", "--format=%(refname)", "refs/heads", "refs/remotes")
        found: dict[str, str] = {}
        for ref in listing.decode("utf-8", "surrogateescape").split("\n"):
            parts = ref.split("/")  # refs/heads/NAME or refs/remotes/REMOTE/NAME: a name without a folder
            name = parts[-1]
            if len(parts) == (3 if ref.startswith("refs/heads/") else 4) and release_key(name) is not None:
                found.setdefault(name, ref)
        return tuple(sorted(found.items(), key=lambda item: release_key(item[0]) or ()))

    def odd_tags(self) -> list[tuple[str, str]]:
        """(tag, what it points at) for each tag that names a release but points at no commit
        (a tree, a blob): no release ships files through it, so audit skips it."""
        return [(name, kind) for name, kind in self._tags() if kind != "commit" and tag_release(name)]

    @lru_cache(maxsize=None)
    def commit(self, ref: str) -> str:
        return self.revision("rev-parse", "--verify", f"{ref}^{{commit}}").decode().strip()

    @lru_cache(maxsize=None)
    def head_branch(self) -> str:
        """The default branch's name: the catalog's for the repository where this copy has it (a
        clone may have a topic branch checked out), else what HEAD points at."""
        if self.default_branch and self.head_ref() != "HEAD":
            return self.default_branch
        try:
            return self.run("symbolic-ref", "--short", "HEAD").decode().strip()
        except GitError:
            return "HEAD"

    @lru_cache(maxsize=None)
    def head_ref(self) -> str:
        """The ref of the default branch's head in this copy: the catalog's default branch (its own,
        else the one fetched from origin), else HEAD."""
        for ref in ((f"refs/heads/{self.default_branch}", f"refs/remotes/origin/{self.default_branch}")
                    if self.default_branch else ()):
            if self.has_commit(ref):
                return ref
        return "HEAD"

    def release_at(self, ref: str) -> str:
        """The release a ref stands for: a tag's, a release branch's (9.2.0-beta.2), else
        `unreleased` (the default branch, any other branch or commit)."""
        if ref in self.release_tags():
            return tag_release(ref) or UNRELEASED
        branch = ref.removeprefix("refs/heads/")
        return branch if branch in dict(self.release_branches()) and release_key(branch) else UNRELEASED

    @lru_cache(maxsize=None)
    def tree(self, ref: str) -> dict[str, str]:
        """{path: blob id} of every file at a ref."""
        files = {}
        for line in self.revision("ls-tree", "-r", "-z", ref).decode("utf-8", "surrogateescape").split("\0"):
            if "\t" in line:
                meta, path = line.split("\t", 1)
                parts = meta.split()
                if len(parts) == 3 and parts[1] == "blob":
                    files[path] = parts[2]
        return files

    def blob_at(self, ref: str, path: str) -> Optional[str]:
        return self.tree(ref).get(path)

    def blob_or_none(self, ref: str, path: str) -> Optional[str]:
        """The blob of a path at a ref, or None where the ref or the path is not there."""
        try:
            return self.blob_at(ref, path)
        except GitError:
            return None

    def file_at(self, ref: str, paths: tuple[str, ...]) -> tuple[Optional[str], Optional[str]]:
        """(path, blob) of a file that may have moved (its paths, oldest first) at a ref: the
        newest of its paths there; (None, None) where none is."""
        for path in reversed(paths):
            blob = self.blob_or_none(ref, path)
            if blob:
                return path, blob
        return None, None

    def moved_to(self, known: Sequence[str], ref: str) -> Optional[tuple[str, str]]:
        """(old path, new path): where the file at one of the `known` paths in the newest release
        before `ref` that has one went by `ref`, as git's rename detection sees it; else None."""
        key = release_key(tag_release(ref) or "")
        earlier = [t for t in self.release_tags() if t != ref and (key is None or (release_key(tag_release(t)) or ())
                                                                   < key)]
        for tag in reversed(earlier):
            old, blob = self.file_at(tag, tuple(known))
            if blob is not None:
                break
        else:
            return None
        listing = self.run("diff", "--name-status", "-M", "-z", self.commit(tag), self.commit(ref), "--")
        fields = listing.decode("utf-8", "surrogateescape").split("\0")
        for index, status in enumerate(fields):
            if status.startswith("R") and index + 2 < len(fields) and fields[index + 1] == old:
                return old, fields[index + 2]
        return None

    @lru_cache(maxsize=None)
    def read_blob(self, blob: str) -> bytes:
        return self.revision("cat-file", "-p", blob)

    def read_text(self, blob: str) -> str:
        """An upstream file's text, as generator.upstream.files.read_file reads a file: never more
        than MAX_FILE_BYTES read into memory, UnreadableFile for a file too large or not UTF-8."""
        if int(self.revision("cat-file", "-s", blob).decode().strip() or 0) > MAX_FILE_BYTES:
            raise UnreadableFile(1, TOO_LARGE)
        return decode(self.read_blob(blob))

    def files_containing(self, ref: str, text: str) -> set[str]:
        """The paths of the files at `ref` whose content holds `text` (a fixed string)."""
        if ref.startswith("-"):
            return set()  # git grep takes no --end-of-options before its revision
        try:
            out = self.run("grep", "-l", "-z", "-F", "-e", text, ref, "--")
        except GitError:
            return set()  # git grep exits 1 when nothing matches
        # each path as it is (-z: not quoted, ended by NUL, which no path holds; a path may hold U+2028 or \n)
        return {name.split(":", 1)[1] for name in out.decode("utf-8", "surrogateescape").split("\0") if ":" in name}

    def on_a_branch_or_tag(self, commit: str) -> bool:
        """Whether a branch (local or fetched) or a tag holds the commit; else only another ref
        does, such as a merge request's (refs/merge-requests/N/head, refs/keep-around/...)."""
        out = self.run("for-each-ref", f"--contains={commit}", "--count=1", "--format=%(refname)",
                       "refs/heads", "refs/remotes", "refs/tags")
        return bool(out.strip())

    def refs(self) -> list[tuple[str, str]]:
        """(label, ref) for every release tag, then the default branch's head."""
        return [(t, t) for t in self.release_tags()] + [(self.head_branch(), self.head_ref())]


def parse_upstream_args(values: list[str], catalog: Catalog) -> dict[str, GitRepo]:
    repos = {}
    for value in values:
        name, sep, directory = value.partition("=")
        if not sep or not name or not directory:
            raise UsageError(f"--upstream {value!r}: write OWNER/NAME=DIR")
        if name not in catalog.repositories:
            raise UsageError(
                f"--upstream {name}: the catalog cites no such repository; it cites "
                f"{', '.join(sorted(catalog.repositories))}"
            )
        path = Path(directory)
        if not path.is_dir():
            raise UsageError(f"--upstream {name}={directory}: no such directory")
        try:
            repos[name] = GitRepo(name, path, catalog.repositories[name].default_branch)
        except GitError as error:
            raise UsageError(str(error)) from None
        _warn_if_unrelated(repos[name], _cited_commits(catalog, name), catalog.repositories[name].url)
    return repos


def _cited_commits(catalog: Catalog, name: str) -> list[str]:
    """The commits of `name` the catalog cites (its page versions' sources and the pages of its
    families of messages), newest recorded first, once each."""
    found = [s.commit for family in catalog.families for version in reversed(family.versions)
             for s in version.sources if s.repo == name and s.commit]
    found += [f.pages.commit for f in catalog.message_families if f.pages.repo == name and f.pages.commit]
    return list(dict.fromkeys(found))


def _warn_if_unrelated(repo: GitRepo, cited: list[str], url: str) -> None:
    """A warning, first on standard error, where the directory holds none of the commits the
    catalog cites for the repository (a shallow clone is refused before): likely another
    repository, whose files the command then reads as this one's."""
    if not cited or any(repo.has_commit(commit) for commit in cited):
        return
    safe_print(f"warning: --upstream {repo.name}={repo.directory} holds none of the {len(cited)} commits the catalog "
               f"cites for {repo.name} (such as {cited[0][:12]}): is it a clone of {url}?", sys.stderr)
