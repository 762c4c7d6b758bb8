"""Builds tcsim's Python extension with the project's own CMake (python/CMakeLists.txt) and puts it
into the package: `pip install ./python` (offline: `pip install --no-build-isolation ./python`).
Environment: CMAKE_ARGS (extra configure arguments), TCSIM_BUILD_JOBS (default 2)."""
import os
import pathlib
import shutil
import subprocess
import sys

from setuptools import Extension, setup
from setuptools.command.build_ext import build_ext

ROOT = pathlib.Path(__file__).resolve().parent.parent


class CMakeBuild(build_ext):
    def build_extension(self, ext):
        build = pathlib.Path(self.build_temp).resolve() / "cmake"
        build.mkdir(parents=True, exist_ok=True)
        args = ["cmake", "-S", str(ROOT), "-B", str(build), "-DCMAKE_BUILD_TYPE=Release", f"-DTCSIM_PYTHON={sys.executable}"]
        if shutil.which("ninja"):
            args += ["-G", "Ninja"]
        if shutil.which("ccache"):
            args += ["-DCMAKE_CXX_COMPILER_LAUNCHER=ccache"]
        args += os.environ.get("CMAKE_ARGS", "").split()
        subprocess.check_call(args)
        subprocess.check_call(["cmake", "--build", str(build), "--target", "tcsim_python", "-j",
                               os.environ.get("TCSIM_BUILD_JOBS", "2")])
        built = next((build / "python" / "tcsim").glob("_tcsim*.so"))
        dest = pathlib.Path(self.get_ext_fullpath(ext.name))
        dest.parent.mkdir(parents=True, exist_ok=True)
        shutil.copy2(built, dest)


setup(ext_modules=[Extension("tcsim._tcsim", sources=[])], cmdclass={"build_ext": CMakeBuild})
