"""The wheel carries the built web client, so that an installed ``dixit serve`` serves the game.

Everything else is in pyproject.toml. Building a wheel copies ``web/dist`` (``make web-build``)
into the package as ``dixit/server/client``; the sdist carries ``web/dist`` (MANIFEST.in), so a
wheel built from it needs no node. A build without the client stops with a message instead of
making a wheel that serves no game. An editable install copies nothing: a checkout serves its
own ``web/dist`` (``dixit.server.config.default_client_dir``).
"""

from __future__ import annotations

import shutil
from pathlib import Path

from setuptools import setup
from setuptools.command.build_py import build_py
from setuptools.command.sdist import sdist
from setuptools.errors import SetupError

CLIENT = Path("web") / "dist"  # builds run in the project's (or the unpacked sdist's) root
PACKAGED_CLIENT = Path("dixit") / "server" / "client"


def built_client() -> Path:
    if not (CLIENT / "index.html").is_file():
        raise SetupError(
            f"no built web client in {CLIENT.resolve()}: run `make web-build` "
            "(or `cd web && npm ci && npm run build`) first, or build with `make dist`"
        )
    return CLIENT


class BuildPyWithClient(build_py):
    def run(self) -> None:
        super().run()
        if self.editable_mode:
            return
        target = Path(self.build_lib) / PACKAGED_CLIENT
        shutil.rmtree(target, ignore_errors=True)
        shutil.copytree(built_client(), target)


class SdistWithClient(sdist):
    def run(self) -> None:
        built_client()
        super().run()


setup(cmdclass={"build_py": BuildPyWithClient, "sdist": SdistWithClient})
