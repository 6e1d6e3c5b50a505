"""Compiled copies of pure-Python modules (scripts/build_native.py, mypyc).

A module that may have one ends with ``NATIVE = adopt(globals())``: its functions and
classes are then those of ``_<name>_native`` when that extension module was built from
this very source, else (not built: no C compiler, ``OVERLORD_NATIVE=0``, a source edited
since the build) the module stays pure Python.  The source is the one truth either way:
the copy is the same code, compiled.
"""
from __future__ import annotations

import hashlib
import importlib
import inspect
import os
from pathlib import Path
from typing import Any


def adopt(namespace: dict[str, Any]) -> bool:
    """Swap the compiled copy's functions and classes into the module whose globals are
    ``namespace``; True when it did."""
    name = str(namespace.get("__name__", ""))
    pkg, _, mod = name.rpartition(".")
    if not pkg or mod.endswith("_native") or "__file__" not in namespace:
        return False
    native = built_from(f"{pkg}._{mod}_native", str(namespace["__file__"]))
    return native is not None and _replace(namespace, native)


def built_from(module_name: str, source_path: str) -> Any:
    """The compiled module ``module_name`` when it was built from the very bytes of
    ``source_path`` (its ``SOURCE_SHA``), else None: not built, ``OVERLORD_NATIVE=0``,
    or a source edited since the build (also the C send thread, connection.py)."""
    if os.environ.get("OVERLORD_NATIVE", "1") == "0":
        return None
    try:
        native = importlib.import_module(module_name)
        source = Path(source_path).read_bytes()
    except (ImportError, OSError):              # not built; no source file to compare
        return None
    return native if getattr(native, "SOURCE_SHA", None) == hashlib.sha256(source).hexdigest() \
        else None


def swap(namespace: dict[str, Any], native: Any, source: bytes) -> bool:
    """The swap itself, when ``native.SOURCE_SHA`` is the SHA-256 of ``source``: every
    function and class the module defines itself (not what it imports) is replaced by
    the copy's of the same name."""
    if getattr(native, "SOURCE_SHA", None) != hashlib.sha256(source).hexdigest():
        return False
    return _replace(namespace, native)


def _replace(namespace: dict[str, Any], native: Any) -> bool:
    name = namespace.get("__name__")
    swapped = 0
    for key, value in list(namespace.items()):
        if key.startswith("__") or getattr(value, "__module__", None) != name:
            continue
        if not (inspect.isclass(value) or inspect.isfunction(value)):
            continue
        compiled = getattr(native, key, None)
        if compiled is None:
            continue
        namespace[key] = compiled
        swapped += 1
    return swapped > 0
