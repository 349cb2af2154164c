"""Builds the Python module `tanbo` for pip (pyproject.toml): the CMake target tanbo_python,
configured with the interpreter that runs this build and the project's lean flags, its
extension copied into the package src/python/tanbo.

Environment: TANBO_BUILD_JOBS (default 2) parallel compile jobs; CMAKE_ARGS extra arguments
for CMake's configure step (as in `CMAKE_ARGS="-DCMAKE_CXX_COMPILER=clang++" pip install .`)."""
import os
import re
import shlex
import shutil
import subprocess
import sys
from pathlib import Path

from setuptools import Extension, setup
from setuptools.command.build_ext import build_ext

ROOT = Path(__file__).resolve().parent


def project_version():
    """The version of project() in CMakeLists.txt, the one `tanbo --version` prints."""
    text = (ROOT / "CMakeLists.txt").read_text()
    return re.search(r"project\(tanbo VERSION ([0-9.]+)", text).group(1)


class CMakeExtension(Extension):
    def __init__(self, name):
        super().__init__(name, sources=[])


class CMakeBuild(build_ext):
    def build_extension(self, ext):
        build = Path(self.build_temp).resolve() / "cmake"
        build.mkdir(parents=True, exist_ok=True)
        configure = ["cmake", "-S", str(ROOT), "-B", str(build), "-DCMAKE_BUILD_TYPE=Release",
                     "-DTANBO_PYTHON=ON", "-DTANBO_LTO=OFF", "-DTANBO_VIEWER=OFF",
                     "-DTANBO_BENCH=OFF", "-DTANBO_TESTS=OFF",
                     f"-DPython_EXECUTABLE={sys.executable}"]
        try:  # pybind11 from PyPI (an isolated build); Debian's pybind11-dev is found by CMake
            import pybind11
            configure.append(f"-Dpybind11_DIR={pybind11.get_cmake_dir()}")
        except ImportError:
            pass
        configure += shlex.split(os.environ.get("CMAKE_ARGS", ""))
        subprocess.run(configure, check=True)
        jobs = os.environ.get("TANBO_BUILD_JOBS", "2")
        subprocess.run(["cmake", "--build", str(build), "--target", "tanbo_python", "-j", jobs],
                       check=True)
        built = next((build / "python" / "tanbo").glob("_tanbo*"))
        target = Path(self.get_ext_fullpath(ext.name)).resolve()
        target.parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(built, target)


setup(
    version=project_version(),
    packages=["tanbo"],
    package_dir={"": "src/python"},
    package_data={"tanbo": ["py.typed", "*.pyi"]},
    ext_modules=[CMakeExtension("tanbo._tanbo")],
    cmdclass={"build_ext": CMakeBuild},
    zip_safe=False,
)
