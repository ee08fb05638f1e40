"""The `case` fixture: every case of tests/data/viz/cases."""
import pytest
from viz_cases import CASES


@pytest.fixture(params=CASES)
def case(request):
    return request.param
