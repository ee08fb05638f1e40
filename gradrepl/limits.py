"""Resource limits shared by the engine and the interpreter (defaults: DECISIONS.md)."""
from dataclasses import dataclass

from gradrepl.errors import BudgetExceeded


@dataclass
class Limits:
    max_steps: int = 10_000_000          # interpreter steps per top-level statement
    time_limit: float = 10.0             # seconds of wall time per top-level statement
    max_depth: int = 200                 # call depth
    max_elements: int = 50_000_000       # elements per tensor
    max_bytes: int = 2 * 1024 ** 3       # live tensor data
    max_int_bits: int = 100_000          # integer results
    max_items: int = 10_000_000          # string / sequence length
    max_output: int = 1_000_000          # bytes printed per statement
    max_source: int = 100_000            # bytes of source per statement
    max_ast_depth: int = 100


LIMITS = Limits()


def check_numel(numel: int, shape=None) -> None:
    """Refuse a tensor of `numel` elements before it is allocated (Python ints: no wrap-around)."""
    if numel > LIMITS.max_elements:
        what = f" of shape {tuple(shape)}" if shape is not None else ""
        raise BudgetExceeded(
            "elements",
            f"tensor{what} would have {numel} elements, over the limit of "
            f"{LIMITS.max_elements} (raise it with --max-elements)",
            "--max-elements",
        )
