"""Packaging for cogtree_interfaces: cogtree's ROS 2 messages, actions and service.

``pip install --no-build-isolation ./interfaces`` (after ``pip install 'cogtree[ros]'``, which
brings the ros-* build wheels) runs the package's CMake build (``rosidl_generate_interfaces``)
against the ROS 2 wheels of the running environment, and installs what it made the way the
ros-* wheels install theirs: the Python package into site-packages, the ``lib*.so`` type
support libraries into the environment's ``lib/`` (on the loader path of every Python started
there) and ``share/`` (the interface definitions and the ament index) beside them. In a ROS 2
workspace the same folder builds with colcon like any interface package.

The build needs no network: cmake, the compilers (Debian's gcc) and the generators are
already installed. It fails with cmake's own message when one is missing.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

from setuptools import Distribution, setup
from setuptools.command.build import build

HERE = Path(__file__).resolve().parent
PACKAGE = "cogtree_interfaces"
PYTHON = f"python{sys.version_info.major}.{sys.version_info.minor}"

RUNTIME_WHEELS = [
    "ros-rosidl-default-runtime==1.7.1",
    "ros-builtin-interfaces==2.3.0",
    "ros-action-msgs==2.3.0",
]
"""The ROS 2 wheels the generated code was built against (Kilted, rosidl 4.9.5)."""


class BinaryDistribution(Distribution):
    """The wheel holds compiled libraries: tag it for this platform and Python."""

    def has_ext_modules(self) -> bool:
        """Always: the type support libraries are compiled."""
        return True


class BuildInterfaces(build):
    """Run the CMake build into a staging prefix and take its products from there."""

    def run(self) -> None:
        """Build as usual, then the interfaces with CMake into the build folder."""
        super().run()
        stage = self._cmake(Path(self.build_base).resolve() / "cmake")
        built = stage / "lib" / PYTHON / "site-packages" / PACKAGE
        target = Path(self.build_lib) / PACKAGE
        shutil.rmtree(target, ignore_errors=True)
        shutil.copytree(built, target)
        self.distribution.data_files = _data_files(stage)

    def _cmake(self, work: Path) -> Path:
        """Configure, build and install into ``work/stage``; that folder."""
        prefix = sys.prefix
        build, stage = work / "build", work / "stage"
        shutil.rmtree(stage, ignore_errors=True)
        env = {
            **os.environ,
            "PATH": os.pathsep.join([str(Path(sys.executable).parent), os.environ["PATH"]]),
            "AMENT_PREFIX_PATH": prefix,
            "CMAKE_PREFIX_PATH": prefix,
        }
        cmake = shutil.which("cmake", path=env["PATH"]) or "cmake"
        steps = [
            [
                cmake,
                "-S",
                str(HERE),
                "-B",
                str(build),
                f"-DPython3_EXECUTABLE={sys.executable}",
                f"-DCMAKE_INSTALL_PREFIX={stage}",
                f"-DCMAKE_PROJECT_INCLUDE={HERE / 'cmake' / 'wheel_python_include.cmake'}",
                "-DCMAKE_BUILD_TYPE=Release",
                "-DBUILD_TESTING=OFF",
            ],
            [cmake, "--build", str(build), "--parallel", str(os.cpu_count() or 1)],
            [cmake, "--install", str(build)],
        ]
        for step in steps:
            subprocess.run(step, check=True, env=env)
        return stage


def _data_files(stage: Path) -> list[tuple[str, list[str]]]:
    """Everything the build installed but the Python package, folder by folder."""
    files: dict[str, list[str]] = {}
    for path in sorted(stage.rglob("*")):
        relative = path.relative_to(stage)
        if path.is_dir() or relative.parts[:2] == ("lib", PYTHON):
            continue
        files.setdefault(str(relative.parent), []).append(str(path))
    return sorted(files.items())


setup(
    name="cogtree-interfaces",
    version="0.1.0",
    description="ROS 2 messages, actions and service of the cogtree behaviour-tree controller.",
    license="Apache-2.0",
    python_requires=">=3.11,<3.12",
    packages=[],
    install_requires=RUNTIME_WHEELS,
    distclass=BinaryDistribution,
    cmdclass={"build": BuildInterfaces},
    zip_safe=False,
)
