"""The id enums (agenthooks.enums) are a light stand-in for ``enum.Enum``
at run time: every behaviour a hook can rely on matches a real
``(str, Enum)`` with the same members, and importing them (or the
package) never imports ``enum``."""

from __future__ import annotations

import copy
import enum
import pickle
import subprocess
from typing import Any

import pytest

import agenthooks as ah
from conftest import PYTHON

ENUMS = [ah.Provider, ah.Kind, ah.Canonical, ah.DecisionKind]


def reference(cls: Any) -> Any:
    class Ref(str, enum.Enum):
        def __str__(self) -> str:
            return str(self.value)

        def __format__(self, spec: str) -> str:
            return str(self.value).__format__(spec)

    members = {m.name: m.value for m in cls}
    functional: Any = Ref  # Enum's functional API: Ref(name, members)
    return functional(cls.__name__, members)


@pytest.mark.parametrize("cls", ENUMS, ids=lambda c: c.__name__)
def test_enums_behave_like_enum(cls: Any) -> None:
    ref = reference(cls)
    assert [(m.name, m.value) for m in cls] == [(m.name, m.value) for m in ref]
    assert len(cls) == len(ref)
    assert [m.value for m in reversed(cls)] == [m.value for m in reversed(ref)]
    assert list(cls.__members__) == list(ref.__members__)
    for m, r in zip(cls, ref):
        assert isinstance(m, cls) and issubclass(type(m), str)
        assert m == r == r.value and m.value == r.value and m.name == r.name
        assert hash(m) == hash(r) == hash(r.value)
        assert str(m) == str(r) and f"{m}" == f"{r}" and f"{m:>20}" == f"{r:>20}"
        assert repr(m) == repr(r).replace("Ref.", f"{cls.__name__}.")
        assert cls(r.value) is m and cls(m) is m and cls[r.name] is m
        assert getattr(cls, r.name) is m
        assert m in cls
        assert pickle.loads(pickle.dumps(m)) is m
        assert copy.copy(m) is m and copy.deepcopy(m) is m
        assert {m: 1}[r.value] == 1
    with pytest.raises(ValueError):
        cls("no such id")
    with pytest.raises(ValueError):
        ref("no such id")
    with pytest.raises(KeyError):
        cls["NO_SUCH_NAME"]
    first = next(iter(cls))
    with pytest.raises(AttributeError):
        setattr(cls, first.name, "x")
    with pytest.raises(AttributeError):
        delattr(cls, first.name)
    assert repr(cls) == f"<enum {cls.__name__!r}>"


def test_the_hook_path_never_imports_enum() -> None:
    code = (
        "import sys, agenthooks as ah\n"
        "assert ah.Canonical.SHELL == 'shell' and ah.Kind('tool.pre') is ah.Kind.TOOL_PRE\n"
        "bad = sorted(m for m in ('enum', 'json', 're', 'typing', 'importlib', 'threading', 'asyncio')"
        " if m in sys.modules)\n"
        "print(','.join(bad))\n"
    )
    p = subprocess.run([PYTHON, "-c", code], capture_output=True, text=True, timeout=60)
    assert p.returncode == 0, p.stderr
    assert p.stdout.strip() == "", f"imported on the hook path: {p.stdout.strip()}"
