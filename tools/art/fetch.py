"""Fetch the scans of our own plate pool (``tools/art/public-domain-3``) from their sources.

The pool's ``manifest.json`` (committed) names, for every plate, the public GitHub mirror of
the Project Gutenberg book it comes from, the file's path there and its SHA-1; the scans
themselves are not committed (they are the build's input, not the game's). This writes each
``<number>-<name>.jpg`` beside the manifest, taking it from a local clone when ``--clones`` has
one (``<clones>/<owner>+<name>``, a work tree or a bare git directory), else cloning the mirror
from GitHub (network needed), and refuses a file whose SHA-1 differs.

    python3 tools/art/fetch.py [--clones DIR]
    .venv/bin/python -m dixit.decks.illustrated build --art-root ../shared/art --art-root tools/art
"""

from __future__ import annotations

import argparse
import hashlib
import json
import subprocess
import sys
import tempfile
from pathlib import Path

POOL = Path(__file__).resolve().parent / "public-domain-3"


def _git_dir(clones: Path | None, repo: str, scratch: Path) -> Path:
    if clones is not None:
        local = clones / repo.replace("/", "+")
        for candidate in (local / "repo" / ".git", local / "repo", local / ".git", local):
            if (candidate / "HEAD").is_file():
                return candidate
    target = scratch / repo.replace("/", "+")
    if not target.exists():
        url = f"https://github.com/{repo}.git"
        subprocess.run(["git", "clone", "--quiet", "--bare", url, str(target)], check=True)
    return target


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--clones", type=Path, help="folder of local clones <owner>+<name>")
    args = parser.parse_args(argv)
    entries = json.loads((POOL / "manifest.json").read_text("utf-8"))
    bad = 0
    with tempfile.TemporaryDirectory() as scratch:
        for entry in entries:
            git_dir = _git_dir(args.clones, entry["source_repo"], Path(scratch))
            data = subprocess.run(
                ["git", "--git-dir", str(git_dir), "show", f"HEAD:{entry['source_path']}"],
                check=True,
                capture_output=True,
            ).stdout
            if hashlib.sha1(data).hexdigest() != entry["sha1"]:
                print(f"{entry['file']}: SHA-1 differs from the manifest", file=sys.stderr)
                bad += 1
                continue
            (POOL / entry["file"]).write_bytes(data)
    print(f"{len(entries) - bad} of {len(entries)} scans in {POOL}")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
