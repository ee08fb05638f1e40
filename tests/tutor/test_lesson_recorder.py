"""scripts/record_lesson_outputs.py writes ```output blocks in place (the PyTorch run itself is not tested here)."""
import importlib.util
from pathlib import Path

SCRIPT = Path(__file__).resolve().parents[2] / "scripts" / "record_lesson_outputs.py"
spec = importlib.util.spec_from_file_location("record_lesson_outputs", SCRIPT)
recorder = importlib.util.module_from_spec(spec)
spec.loader.exec_module(recorder)

TEXT = """## A | 甲

```python
print(1)
```

```python
x = 2
```

```output
old
```

```python
y = 3
```
"""


def test_outputs_are_inserted_replaced_and_removed():
    new = recorder.rewrite(TEXT, {3: "1\n", 7: "", 15: "tensor(3.)\n\n"})
    assert new == """## A | 甲

```python
print(1)
```

```output
1
```

```python
x = 2
```

```python
y = 3
```

```output
tensor(3.)
```
"""
