"""pip install as a user does it: a clean clone of the source tree (its committed state) into a
fresh virtual environment that sees the system's numpy, setuptools and pybind11, then import,
a move, pip's listing and uninstall. A full build of the library (minutes): CTest runs it as
python.pip, which sets TANBO_TEST_PIP=1; python.module leaves it out."""
import os
import subprocess
import sys

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

CHECK = """
import tanbo, sys
assert "site-packages" in tanbo.__file__, tanbo.__file__
g = tanbo.Game("grid 9x9")
g.apply_action(g.legal_actions()[0])
assert g.current_player() == 1 and g.observation_tensor().shape == (4, 9, 9)
print(tanbo.__version__)
"""


@pytest.mark.skipif(os.environ.get("TANBO_TEST_PIP") != "1",
                    reason="a full build: run by CTest as python.pip (TANBO_TEST_PIP=1)")
def test_pip_installs_lists_and_uninstalls_from_a_clean_clone_in_a_venv(tmp_path):
    # (not named tanbo: from its parent folder, `import tanbo` would find it as a namespace)
    clone, venv = tmp_path / "source", tmp_path / "venv"
    subprocess.run(["git", "clone", "-q", ROOT, str(clone)], check=True)
    subprocess.run([sys.executable, "-m", "venv", "--system-site-packages", str(venv)],
                   check=True)
    python = str(venv / "bin" / "python")

    # What is tested is pip's path through setup.py and CMake, not the optimiser: the build
    # passes -O0 and a unity build through CMAKE_ARGS, as a user may. -O0 compiles in a third
    # of the time; the unity build (batches of 8 files) in half of that again: 37 s against
    # 70 s alone on 2 cores, 60 s of CPU against 122 s. The Release stage of the tests still
    # compiles each file alone.
    env = dict(os.environ, CMAKE_ARGS="-DCMAKE_CXX_FLAGS_RELEASE=-O0 -DCMAKE_UNITY_BUILD=ON")

    def pip(*args):
        return subprocess.run([python, "-m", "pip", "--disable-pip-version-check", *args],
                              capture_output=True, text=True, cwd=tmp_path, timeout=1800,
                              env=env)

    built = pip("install", "--no-build-isolation", "--no-index", str(clone))
    assert built.returncode == 0, built.stdout[-3000:] + built.stderr[-3000:]
    run = subprocess.run([python, "-c", CHECK], capture_output=True, text=True, cwd=tmp_path)
    assert run.returncode == 0, run.stderr
    version = run.stdout.strip()
    program = os.environ.get("TANBO")
    if program:
        assert subprocess.run([program, "--version"], capture_output=True, text=True,
                              check=True).stdout == "tanbo " + version + "\n"
    shown = pip("show", "-f", "tanbo").stdout
    assert "Version: " + version in shown and "Requires: numpy" in shown, shown
    assert "tanbo/py.typed" in shown and "tanbo/__init__.pyi" in shown, shown
    assert pip("uninstall", "-y", "tanbo").returncode == 0
    gone = subprocess.run([python, "-c", "import tanbo"], capture_output=True, text=True,
                          cwd=tmp_path)
    assert gone.returncode != 0 and "No module named 'tanbo'" in gone.stderr
