"""Reading an upstream repository (a clone or a bare git directory) with git itself."""
from __future__ import annotations

import subprocess
from functools import lru_cache
from pathlib import Path
from typing import Optional

from generator.upstream import MAX_FILE_BYTES, TOO_LARGE, UnreadableFile, decode
from generator.versions import sort_tags, tag_release


class GitError(OSError):
    """git could not read the repository; the message says what and where. An OSError, so that
    a failure no caller words itself still ends as one line (exit 1), never a traceback."""


class GitRepo:
    def __init__(self, name: str, directory: Path):
        self.name, self.directory = name, directory
        work_tree = (directory / ".git").exists()
        self._base = ["git", "-c", "core.quotepath=off"] + (["-C", str(directory)] if work_tree else ["--git-dir", str(directory)])
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

    def has_commit(self, ref: str) -> bool:
        try:
            self.commit(ref)
            return True
        except GitError:
            return False

    def run(self, *args: str) -> bytes:
        try:
            result = subprocess.run(self._base + list(args), capture_output=True, timeout=300)
        except (OSError, subprocess.SubprocessError) as error:
            raise GitError(f"git {' '.join(args)}: {error}") from None
        if result.returncode != 0:
            lines = result.stderr.decode("utf-8", "replace").strip().splitlines()
            raise GitError(lines[-1] if lines else f"git {args[0]} failed")
        return result.stdout

    @lru_cache(maxsize=None)
    def release_tags(self) -> tuple[str, ...]:
        """Tags that name a release, in release order."""
        return tuple(t for t in sort_tags(self.run("tag").decode("utf-8").split()) if tag_release(t))

    @lru_cache(maxsize=None)
    def commit(self, ref: str) -> str:
        return self.run("rev-parse", f"{ref}^{{commit}}").decode().strip()

    @lru_cache(maxsize=None)
    def head_branch(self) -> str:
        try:
            return self.run("symbolic-ref", "--short", "HEAD").decode().strip()
        except GitError:
            return "HEAD"

    @lru_cache(maxsize=None)
    def tree(self, ref: str) -> dict[str, str]:
        """{path: blob id} of every file at a ref."""
        files = {}
        for line in self.run("ls-tree", "-r", "-z", ref).decode("utf-8").split("\0"):
            if "\t" in line:
                meta, path = line.split("\t", 1)
                parts = meta.split()
                if len(parts) == 3 and parts[1] == "blob":
                    files[path] = parts[2]
        return files

    def blob_at(self, ref: str, path: str) -> Optional[str]:
        return self.tree(ref).get(path)

    @lru_cache(maxsize=None)
    def read_blob(self, blob: str) -> bytes:
        return self.run("cat-file", "-p", blob)

    def read_text(self, blob: str) -> str:
        """An upstream file's text, as generator.upstream.read_file reads a file: never more
        than MAX_FILE_BYTES read into memory, UnreadableFile for a file too large or not UTF-8."""
        if int(self.run("cat-file", "-s", blob).decode().strip() or 0) > MAX_FILE_BYTES:
            raise UnreadableFile(1, TOO_LARGE)
        return decode(self.read_blob(blob))

    def refs(self) -> list[tuple[str, str]]:
        """(label, ref) for every release tag, then the default branch's head."""
        return [(t, t) for t in self.release_tags()] + [(self.head_branch(), "HEAD")]
