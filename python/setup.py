"""Build charsniff for Python: the Go library's C ABI (charsniff/_capi)
built with `go build -buildmode=c-shared` into charsniff/libcharsniff.so,
shipped in the package. Needs Go (on PATH, or /usr/local/go/bin) and a C
compiler for cgo; nothing from a package index.

    python3 -m pip install --no-build-isolation ./python
"""

import os
import shutil
import subprocess

from setuptools import setup
from setuptools.command.build_py import build_py
from setuptools.dist import Distribution

HERE = os.path.dirname(os.path.abspath(__file__))
LIB = "libcharsniff.so"


def go() -> str:
    found = os.environ.get("GO") or shutil.which("go")
    if not found and os.path.exists("/usr/local/go/bin/go"):
        found = "/usr/local/go/bin/go"
    if not found:
        raise SystemExit("charsniff: building the package needs Go (https://go.dev/dl/) on PATH")
    return found


class BuildGo(build_py):
    """build_py that first builds the shared library into the package."""

    def run(self):
        capi = os.path.join(HERE, "charsniff", "_capi")
        out = os.path.join(HERE, "charsniff", LIB)
        env = dict(os.environ, CGO_ENABLED="1")
        env.setdefault("GOFLAGS", "-buildvcs=false")
        subprocess.check_call([go(), "build", "-buildmode=c-shared", "-trimpath",
                               "-o", out, "."], cwd=capi, env=env)
        os.remove(os.path.join(HERE, "charsniff", "libcharsniff.h"))
        super().run()


class BinaryDistribution(Distribution):
    """A distribution with a native library: its wheel is tagged for this
    platform and Python, not "any"."""

    def has_ext_modules(self):
        return True


setup(
    distclass=BinaryDistribution,
    name="charsniff",
    version="0.1.0",
    description="The HTML Standard's encoding sniffing, WHATWG decoders and a WARC reader, "
                "from the Go library charsniff",
    license="BSD-3-Clause",
    python_requires=">=3.10",
    packages=["charsniff"],
    package_data={"charsniff": [LIB, "py.typed"]},
    exclude_package_data={"charsniff": ["_capi/*"]},
    cmdclass={"build_py": BuildGo},
    zip_safe=False,
)
