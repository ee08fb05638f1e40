import pytest

from gradrepl.engine import api


@pytest.fixture
def torch():
    """The engine's torch namespace as attribute access (tests only; user code goes through the facade)."""
    return _Namespace(api.TORCH)


class _Namespace:
    def __init__(self, d):
        self._d = d

    def __getattr__(self, name):
        v = self._d[name]
        return _Namespace(v) if isinstance(v, dict) else v
