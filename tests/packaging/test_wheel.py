"""The package as a user gets it: `python -m build` (`make dist`) makes an sdist and, from it, a
wheel; the wheel, installed with its dependencies from the package index into a fresh virtual
environment, serves the game (web client, decks) with nothing of the checkout around. No install
that the README's commands make prints a deprecation warning of the build backend."""

from __future__ import annotations

import fnmatch
import json
import os
import re
import socket
import subprocess
import sys
import tarfile
import time
import urllib.error
import urllib.request
import zipfile
from collections.abc import Iterator
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
CLIENT = ROOT / "web" / "dist"
WHEEL_CLIENT = "dixit/server/client/"
INSTALL_TIMEOUT_S = 900  # pip fetches the dependencies from the index (its cache helps)


def _clean_env() -> dict[str, str]:
    """This environment without the test run's own virtual environment or import path."""
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "VIRTUAL_ENV")}
    env["PATH"] = os.pathsep.join(
        p for p in env.get("PATH", "").split(os.pathsep) if not p.startswith(sys.prefix)
    )
    return env


def _run(args: list[str], cwd: Path, timeout: float = INSTALL_TIMEOUT_S) -> str:
    """Run a command; its output (stdout and stderr), or a failure showing it."""
    done = subprocess.run(
        args,
        cwd=cwd,
        env=_clean_env(),
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
        timeout=timeout,
    )
    assert done.returncode == 0, f"{' '.join(args)} exited {done.returncode}:\n{done.stdout}"
    return done.stdout


def _deprecations(output: str) -> list[str]:
    return [line for line in output.splitlines() if "deprecat" in line.lower()]


def _fresh_venv(where: Path) -> Path:
    """A new virtual environment (the Python this suite runs on); its bin folder."""
    _run([sys.executable, "-m", "venv", str(where)], cwd=where.parent)
    return where / "bin"


@pytest.fixture(scope="module")
def dist(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path, str]:
    """The sdist and the wheel `make dist` makes, and what the build printed."""
    if not (CLIENT / "index.html").is_file():
        pytest.skip("packaging: no built web client in web/dist (make web-build; make test does)")
    out = tmp_path_factory.mktemp("dist")
    printed = _run([sys.executable, "-m", "build", "--outdir", str(out), str(ROOT)], cwd=ROOT)
    (sdist,) = out.glob("dixit-*.tar.gz")
    (wheel,) = out.glob("dixit-*-py3-none-any.whl")
    return sdist, wheel, printed


def test_the_build_prints_no_deprecation_warning(dist: tuple[Path, Path, str]) -> None:
    _, _, printed = dist
    assert "Successfully built" in printed
    assert _deprecations(printed) == []


def _client_in_wheel(wheel: Path) -> dict[str, bytes]:
    """The web client's files the wheel carries, by path under the client folder."""
    with zipfile.ZipFile(wheel) as archive:
        return {
            n.removeprefix(WHEEL_CLIENT): archive.read(n)
            for n in archive.namelist()
            if n.startswith(WHEEL_CLIENT)
        }


def test_the_wheel_carries_client_decks_vectors_and_licences(dist: tuple[Path, Path, str]) -> None:
    """Compared with the sdist of the same build, not with web/dist now: someone working in
    this checkout may build the client again meanwhile."""
    sdist, wheel, _ = dist
    with zipfile.ZipFile(wheel) as archive:
        names = set(archive.namelist())
        metadata = archive.read("dixit-0.1.0.dist-info/METADATA").decode()
    with tarfile.open(sdist) as archive:
        in_sdist = {m.name.split("/", 1)[1] for m in archive.getmembers() if m.isfile()}
    client = _client_in_wheel(wheel)
    assert {f"web/dist/{c}" for c in client} == {n for n in in_sdist if n.startswith("web/dist/")}
    scripts = re.findall(r'(?:src|href)="/(assets/[^"]+)"', client["index.html"].decode())
    assert scripts and set(scripts) <= set(client)
    tracked = subprocess.run(
        ["git", "ls-files", "src/dixit"], cwd=ROOT, check=True, capture_output=True, text=True
    ).stdout.split()
    assert tracked
    missing = [t for t in tracked if t.removeprefix("src/") not in names]
    assert [t for t in missing if (ROOT / t).is_file()] == []
    assert "dixit/bots/data/vectors.npz" in names
    info = "dixit-0.1.0.dist-info/"
    assert {f"{info}licenses/LICENSE", f"{info}licenses/THIRD_PARTY_NOTICES"} <= names
    assert "License-Expression: MIT AND CC-BY-SA-4.0" in metadata.splitlines()


def test_the_image_is_made_of_the_wheel_alone(dist: tuple[Path, Path, str]) -> None:
    """deploy/Dockerfile copies the wheel `make dist` makes out of its build context dist/ (and
    the context sends nothing else); compose builds it so and leaves the client to the wheel."""
    sdist, wheel, _ = dist
    deploy = ROOT / "deploy"
    copies = re.findall(r"^COPY (\S+) ", (deploy / "Dockerfile").read_text(), re.MULTILINE)
    assert len(copies) == 1
    assert fnmatch.fnmatch(wheel.name, copies[0]) and not fnmatch.fnmatch(sdist.name, copies[0])
    ignored = (deploy / "Dockerfile.dockerignore").read_text().splitlines()
    assert [line for line in ignored if not line.startswith("#")] == ["*", f"!{copies[0]}"]
    compose = (deploy / "compose.yaml").read_text()
    assert "context: ../dist\n      dockerfile: ../deploy/Dockerfile\n" in compose
    assert "--client-dir" not in compose


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _get(url: str) -> tuple[int, str, bytes]:
    with urllib.request.urlopen(url, timeout=10) as response:
        return response.status, response.headers.get("content-type", ""), response.read()


@pytest.fixture(scope="module")
def installed(dist: tuple[Path, Path, str], tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The wheel installed with its dependencies into a fresh virtual environment; its bin."""
    _, wheel, _ = dist
    bin_dir = _fresh_venv(tmp_path_factory.mktemp("wheel-venv") / "venv")
    _run([str(bin_dir / "pip"), "install", str(wheel)], cwd=bin_dir)
    return bin_dir


@pytest.fixture
def served(installed: Path, tmp_path: Path) -> Iterator[str]:
    """`dixit serve` of the installed wheel on loopback, started away from the checkout."""
    port = _free_port()
    log = (tmp_path / "serve.log").open("w")
    server = subprocess.Popen(
        [str(installed / "dixit"), "serve", "--host", "127.0.0.1", "--port", str(port)],
        cwd=tmp_path,
        env={**_clean_env(), "DIXIT_DATA_DIR": str(tmp_path / "data")},
        stdout=log,
        stderr=subprocess.STDOUT,
    )
    base = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 60
        while True:
            assert server.poll() is None, (tmp_path / "serve.log").read_text()
            try:
                _get(f"{base}/api/health/live")
                break
            except (urllib.error.URLError, ConnectionError):
                assert time.monotonic() < deadline, (tmp_path / "serve.log").read_text()
                time.sleep(0.2)
        yield base
    finally:
        server.terminate()
        server.wait(timeout=30)
        log.close()


@pytest.mark.timeout(INSTALL_TIMEOUT_S + 120)
def test_the_installed_wheel_serves_the_game(
    dist: tuple[Path, Path, str], installed: Path, served: str
) -> None:
    client = _client_in_wheel(dist[1])
    where = _run([str(installed / "python"), "-c", "import dixit; print(dixit.__file__)"], ROOT)
    assert Path(where.strip()).is_relative_to(installed.parent)
    status, kind, page = _get(f"{served}/")
    assert (status, kind.split(";")[0]) == (200, "text/html")
    assert page == client["index.html"]
    (script,) = re.findall(r'src="/(assets/index-[^"]+\.js)"', page.decode())
    assert _get(f"{served}/{script}")[2] == client[script]
    decks = json.loads(_get(f"{served}/api/decks")[2])["decks"]
    (default,) = [d for d in decks if d["default"]]
    assert default["card_count"] > 0
    card = default["preview"][0]
    status, kind, picture = _get(f"{served}/cards/{card}")
    assert (status, kind) == (200, "image/webp")
    assert picture[:4] == b"RIFF" and picture[8:12] == b"WEBP"


def test_an_editable_install_prints_no_deprecation_warning(tmp_path: Path) -> None:
    """What `make run` and `make test` do (pip upgraded, then `pip install -e .` or `-e '.[dev]'`:
    the extras do not reach the build backend), with the backend's output shown (-v);
    dependencies are left out."""
    bin_dir = _fresh_venv(tmp_path / "venv")
    _run([str(bin_dir / "pip"), "install", "--quiet", "--upgrade", "pip"], ROOT)
    printed = _run([str(bin_dir / "pip"), "install", "-v", "--no-deps", "-e", str(ROOT)], ROOT)
    assert "Successfully installed dixit" in printed
    assert _deprecations(printed) == []
