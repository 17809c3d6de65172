"""setup.py -- the tafel package with the library it wraps (tafel/libtafel.so).

pyproject.toml holds the package's description; this file adds the library:
build_py copies it into the package, next to _lib.py, which looks there
first (after TAFEL_LIB).  The library is TAFEL_PREBUILT_LIB when that names
a file (a libtafel.so built already, as the tests do), else built here from
the source tree this folder is in: cmake, the library target only
(-DTAFEL_PROGRAM=OFF: the compiler, cmake, pkg-config and libcjson-dev are
all it needs; scripts/deps.sh installs them).  The wheel is platform-tagged
(cp311-cp311-linux_x86_64, not py3-none-any), since it carries machine code:
BinaryDistribution says it has extension modules.
"""
import os
import re
import shutil
import subprocess

from setuptools import Distribution, setup
from setuptools.command.build_py import build_py

HERE = os.path.dirname(os.path.abspath(__file__))
SOURCE = os.path.dirname(HERE)
HEADER = os.path.join(SOURCE, "include", "tafel.h")


def version():
    """TAFEL_VERSION of include/tafel.h: one version for C and Python."""
    if not os.path.isfile(HEADER):
        raise RuntimeError(
            "%s not found: python/ is built from inside the tafel source tree "
            "(pip install ./python from its top folder)" % HEADER)
    with open(HEADER, encoding="utf-8") as f:
        found = re.search(r'#define TAFEL_VERSION "([^"]+)"', f.read())
    if not found:
        raise RuntimeError("no TAFEL_VERSION in %s" % HEADER)
    return found.group(1)


class BinaryDistribution(Distribution):
    """A wheel for this platform and Python: the package holds a .so."""

    def has_ext_modules(self):
        return True


class BuildWithLibrary(build_py):
    """build_py, then libtafel.so into the built package."""

    def run(self):
        super().run()
        library = os.environ.get("TAFEL_PREBUILT_LIB") or self.build_library()
        if not os.path.isfile(library):
            raise RuntimeError("TAFEL_PREBUILT_LIB=%s: no such file" % library)
        target = os.path.join(self.build_lib, "tafel", "libtafel.so")
        shutil.copyfile(library, target)  # follows the .so -> .so.0 links
        os.chmod(target, 0o755)

    def build_library(self):
        if not shutil.which("cmake"):
            raise RuntimeError(
                "building libtafel.so needs cmake, a C compiler, pkg-config and "
                "libcjson-dev (Debian: scripts/deps.sh), or TAFEL_PREBUILT_LIB="
                "path/to/libtafel.so")
        build_temp = self.get_finalized_command("build").build_temp
        out = os.path.abspath(os.path.join(build_temp, "libtafel"))
        subprocess.check_call(
            ["cmake", "-S", SOURCE, "-B", out, "-DCMAKE_BUILD_TYPE=Release",
             "-DTAFEL_PROGRAM=OFF", "-DTAFEL_TESTS=OFF"])
        subprocess.check_call(
            ["cmake", "--build", out, "--target", "tafel-shared",
             "-j", str(os.cpu_count() or 1)])
        return os.path.join(out, "libtafel.so")


setup(version=version(), distclass=BinaryDistribution,
      cmdclass={"build_py": BuildWithLibrary})
