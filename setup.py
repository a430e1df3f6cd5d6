"""Compiled parts of the soloshop distribution (everything else is in pyproject.toml).

cffi builds each engine core in API mode; `pip install -e .` compiles them in place.
"""
from setuptools import setup

setup(cffi_modules=["engines/go/build_go.py:ffibuilder",
                    "engines/gomoku/build_gomoku.py:ffibuilder",
                    "engines/quoridor/build_quoridor.py:ffibuilder"])
