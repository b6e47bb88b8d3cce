#!/usr/bin/env bash
# Gradescope runs this once, as root, when it builds the autograder's image
# (base image: Ubuntu 22.04, whose python3 is 3.10; the course needs Python >= 3.11).
# It installs Python 3.12 from the deadsnakes archive when the image's python3 is too old,
# makes a virtual environment in /autograder/venv and installs the course's wheel
# (shipped in this folder) with the grader's extra: NumPy, ipykernel, jupyter_client, pyzmq, jinja2.
set -euo pipefail
cd "$(dirname "$0")"

if python3 -c 'import sys; sys.exit(sys.version_info < (3, 11))' 2>/dev/null; then
    PYTHON=python3
else
    apt-get install -y software-properties-common
    add-apt-repository -y ppa:deadsnakes/ppa
    apt-get update
    apt-get install -y python3.12 python3.12-venv
    PYTHON=python3.12
fi

"$PYTHON" -m venv /autograder/venv
wheel=$(ls causality_heads_position-*.whl)
/autograder/venv/bin/python -m pip install --no-cache-dir "./${wheel}[grader]"
/autograder/venv/bin/python -c 'import grading.batch, lib; print("course installed:", lib.__file__)'
