"""torch.profiler.profile / record_function / ProfilerActivity and the legacy
torch.autograd.profiler.profile, as tutorials open them: context managers whose
`prof.key_averages().table(...)` prints PyTorch's table (its columns, its `aten::NAME` rows,
the record_function blocks, the backward nodes under "autograd::engine::evaluate_function: ").

The times are gradrepl's own (its NumPy kernels, measured with the interpreter's overhead),
so they never match PyTorch's; the rows are the engine's ops as the program called them,
nested ops inside (matmul over mm). While a profile is open,
Python's profiling hook (sys.setprofile) sees each op's forward start and end.
"""
import sys
import time

from gradrepl.engine.ops import REGISTRY, SPECS
from gradrepl.engine.tensor import Tensor

ACTIVITIES = {"CPU": 0, "XPU": 1, "MTIA": 4, "CUDA": 2, "HPU": 3, "PrivateUse1": 5}


class _Activity:
    __slots__ = ("name", "value")

    def __init__(self, name, value):
        self.name = name
        self.value = value

    def __repr__(self):
        return f"<ProfilerActivity.{self.name}: {self.value}>"

    def __str__(self):
        return f"ProfilerActivity.{self.name}"


PROFILER_ACTIVITY = {name: _Activity(name, value) for name, value in ACTIVITIES.items()}

BACKWARD = "autograd::engine::evaluate_function: "
_CODES = {}         # code object of an op's forward -> its name, or {closure ids: name} when shared
_STACK = []         # open events: [frame or None, name, start ns, children ns, shapes]
_SESSIONS = []      # the profiles that are recording (innermost last)


def _op_codes():
    if _CODES:
        return
    fns = []
    for op in REGISTRY.values():
        fns += [(op.forward, "aten::" + op.name)] + [(f, "aten::" + op.name) for f in op.dunders.values()]
        if op.inplace is not None:
            fns.append((op.inplace, f"aten::{op.name}_"))
    # an op's complex guard (ops/__init__.py) is not an event: the function it wraps is
    fns = [(getattr(fn, "__wrapped__") if getattr(fn, "complex_guard", False) else fn, name) for fn, name in fns]
    fns += [(spec.backward, BACKWARD + spec.name) for spec in SPECS.values()]
    for fn, name in fns:
        code = getattr(fn, "__code__", None)
        if code is None:
            continue
        cells = tuple(id(c.cell_contents) for c in fn.__closure__ or ())
        known = _CODES.setdefault(code, {})
        known.setdefault(cells, name)


def _name_of(frame):
    known = _CODES.get(frame.f_code)
    if known is None:
        return None
    if len(known) == 1:
        return next(iter(known.values()))
    if frame.f_code.co_freevars:        # one code for several ops (exp, log, sqrt): its closure says which
        local = frame.f_locals
        key = tuple(id(local.get(v)) for v in frame.f_code.co_freevars)
        if key in known:
            return known[key]
    return next(iter(known.values()))


def _shapes(frame):
    code = frame.f_code
    local = frame.f_locals
    return [list(v.shape) if type(v) is Tensor else [] for v in
            (local.get(n) for n in code.co_varnames[:code.co_argcount])]


def _hook(frame, event, arg):
    if event == "call":
        name = _name_of(frame)
        if name is None or (_STACK and _STACK[-1][1] == name):     # x + y: __add__ over add, one row
            return
        if name.startswith(BACKWARD):   # a backward node: PyTorch's engine row, the node's row inside
            _STACK.append([frame, name, time.perf_counter_ns(), 0, []])
            name = name[len(BACKWARD):]
        shapes = _shapes(frame) if _SESSIONS[-1].record_shapes and name.startswith("aten::") else []
        _STACK.append([frame, name, time.perf_counter_ns(), 0, shapes])
    elif event == "return":
        while _STACK and _STACK[-1][0] is frame:
            _close()


def _close():
    frame, name, start, children, shapes = _STACK.pop()
    total = time.perf_counter_ns() - start
    if _STACK:
        _STACK[-1][3] += total
    for session in _SESSIONS:
        session.events.append((name, total, total - children, shapes))


class record_function:
    """with torch.profiler.record_function("label"): a row of its own, its ops nested inside."""


    def __init__(self, name, args=None):
        self.name = name

    def __enter__(self):
        if _SESSIONS:
            _STACK.append([None, str(self.name), time.perf_counter_ns(), 0, []])
        return self

    def __exit__(self, *exc):
        if _SESSIONS and _STACK and _STACK[-1][0] is None:
            _close()
        return False

    def __repr__(self):
        return f"<torch.autograd.profiler.record_function object at {id(self):#x}>"


class FunctionEventAvg:
    """One row of key_averages(): an op's calls added up."""

    def __init__(self, key, shapes):
        self.key = key
        self.count = 0
        self.cpu_time_total = 0.0       # microseconds, as PyTorch's
        self.self_cpu_time_total = 0.0
        self.input_shapes = shapes

    @property
    def cpu_time(self):
        return self.cpu_time_total / self.count if self.count else 0.0

    @property
    def self_cpu_time(self):
        return self.self_cpu_time_total / self.count if self.count else 0.0

    def __repr__(self):
        return (f"<FunctionEventAvg key={self.key} self_cpu_time={_time(self.self_cpu_time_total)} "
                f"cpu_time={_time(self.cpu_time_total)} input_shapes={self.input_shapes}>")


def _time(us):
    if us >= 1e6:
        return f"{us / 1e6:.3f}s"
    if us >= 1e3:
        return f"{us / 1e3:.3f}ms"
    return f"{us:.3f}us"


_SORT_KEYS = {"cpu_time_total": "cpu_time_total", "self_cpu_time_total": "self_cpu_time_total",
              "cpu_time": "cpu_time", "self_cpu_time": "self_cpu_time", "count": "count"}


class EventList(list):
    """key_averages()'s rows; str() and table() print PyTorch's table."""

    def __init__(self, rows, with_shapes):
        super().__init__(rows)
        self.with_shapes = with_shapes

    def table(self, sort_by=None, row_limit=100, max_src_column_width=75, max_name_column_width=55,
              max_shapes_column_width=80, header=None, top_level_events_only=False, time_unit=None):
        rows = list(self)
        if sort_by is not None:
            field = _SORT_KEYS.get(sort_by)
            if field is None:
                raise AttributeError(f"'FunctionEventAvg' object has no attribute '{sort_by}'")
            rows.sort(key=lambda r: getattr(r, field), reverse=True)
        if row_limit is not None and row_limit > 0:
            rows = rows[:row_limit]
        total_self = sum(r.self_cpu_time_total for r in self)
        name_w = max([len(r.key) for r in self] + [4]) + 4
        if max_name_column_width is not None:
            name_w = min(name_w, max_name_column_width)
        heads = ["Self CPU %", "Self CPU", "CPU total %", "CPU total", "CPU time avg", "# of Calls"]
        widths = [12] * len(heads)
        if self.with_shapes:
            shape_w = min(max([len(str(r.input_shapes)) for r in self] + [12]) + 4, max_shapes_column_width)
            heads.append("Input Shapes")
            widths.append(shape_w)
        line = "-" * name_w + "  " + "".join("-" * w + "  " for w in widths)
        out = []
        if header is not None:
            out += ["=" * len(line), header]
        out += [line, "Name".rjust(name_w) + "  " + "".join(h.rjust(w) + "  " for h, w in zip(heads, widths)), line]
        for r in rows:
            name = r.key if len(r.key) <= name_w else r.key[:name_w - 3] + "..."
            pct = (lambda t: f"{100 * t / total_self:.2f}%" if total_self else "0.00%")
            cells = [pct(r.self_cpu_time_total), _time(r.self_cpu_time_total), pct(r.cpu_time_total),
                     _time(r.cpu_time_total), _time(r.cpu_time), str(r.count)]
            if self.with_shapes:
                shapes = str(r.input_shapes)
                cells.append(shapes if len(shapes) <= widths[-1] else shapes[:widths[-1] - 3] + "...")
            out.append(name.rjust(name_w) + "  " + "".join(c.rjust(w) + "  " for c, w in zip(cells, widths)))
        out += [line, f"Self CPU time total: {_time(total_self)}", ""]
        return "\n".join(out)

    def total_average(self):
        avg = FunctionEventAvg("Total", [])
        for r in self:
            avg.count += r.count
            avg.cpu_time_total += r.cpu_time_total
            avg.self_cpu_time_total += r.self_cpu_time_total
        return avg

    def __str__(self):
        return self.table()

    __repr__ = __str__


class _Profile:
    torch_class = "torch.profiler.profiler.profile"

    def __init__(self, record_shapes=False, enabled=True):
        self.record_shapes = bool(record_shapes)
        self.enabled = enabled
        self.events = []
        self.previous = None
        self.running = False

    def start(self):
        if not self.enabled or self.running:
            return
        _op_codes()
        self.running = True
        if not _SESSIONS:
            self.previous = sys.getprofile()
            sys.setprofile(_hook)
        _SESSIONS.append(self)

    def stop(self):
        if not self.running:
            return
        self.running = False
        if self in _SESSIONS:
            _SESSIONS.remove(self)
        if not _SESSIONS:
            sys.setprofile(self.previous)
            _STACK.clear()

    def __enter__(self):
        self.start()
        return self

    def __exit__(self, *exc):
        self.stop()
        return False

    def step(self):
        return None

    def key_averages(self, group_by_input_shape=False, group_by_stack_n=0, group_by_overload_name=False):
        rows = {}
        for name, total, self_ns, shapes in self.events:
            key = (name, str(shapes)) if group_by_input_shape else name
            row = rows.get(key)
            if row is None:
                row = rows[key] = FunctionEventAvg(name, shapes if group_by_input_shape else [])
            row.count += 1
            row.cpu_time_total += total / 1e3
            row.self_cpu_time_total += self_ns / 1e3
        return EventList(rows.values(), group_by_input_shape)

    def export_chrome_trace(self, path):
        raise RuntimeError("export_chrome_trace is not available in gradrepl (no file I/O)")

    def __repr__(self):
        return f"<{self.torch_class} object at {id(self):#x}>"


class profile(_Profile):
    """torch.profiler.profile(activities=None, schedule=None, on_trace_ready=None, record_shapes=False, ...)."""

    def __init__(self, *, activities=None, schedule=None, on_trace_ready=None, record_shapes=False,
                 profile_memory=False, with_stack=False, with_flops=False, with_modules=False,
                 experimental_config=None, execution_trace_observer=None, acc_events=False, use_cuda=None,
                 custom_trace_id_callback=None, post_processing_timeout_s=None):
        super().__init__(record_shapes)


class legacy_profile(_Profile):
    """torch.autograd.profiler.profile(enabled=True, *, use_cuda=False, record_shapes=False, ...)."""

    torch_class = "torch.autograd.profiler.profile"

    def __init__(self, enabled=True, *, use_cuda=False, use_device=None, record_shapes=False, with_flops=False,
                 profile_memory=False, with_stack=False, with_modules=False, use_kineto=False, use_cpu=True,
                 experimental_config=None, acc_events=False, custom_trace_id_callback=None,
                 post_processing_timeout_s=None, activity_filters=None):
        super().__init__(record_shapes, enabled)


legacy_profile.__name__ = legacy_profile.__qualname__ = "profile"


# what user code may read on each of these objects (gradrepl.engine.api.public_attrs)
ATTRS = {
    profile: frozenset({"key_averages", "start", "stop", "step", "export_chrome_trace"}),
    legacy_profile: frozenset({"key_averages", "export_chrome_trace"}),
    record_function: frozenset(),
    EventList: frozenset({"table", "total_average"}),
    FunctionEventAvg: frozenset({"key", "count", "cpu_time_total", "self_cpu_time_total", "cpu_time", "self_cpu_time",
                                 "input_shapes"}),
    _Activity: frozenset({"name", "value"}),
}


def schedule(*, wait, warmup, active, repeat=0, skip_first=0, skip_first_wait=0):
    """torch.profiler.schedule: accepted; gradrepl records every step."""
    return None


def namespaces():
    """(torch.profiler, torch.autograd.profiler) as the torch facade's nested names."""
    prof = {"profile": profile, "record_function": record_function, "ProfilerActivity": dict(PROFILER_ACTIVITY),
            "schedule": schedule}
    autograd = {"profile": legacy_profile, "record_function": record_function}
    return prof, autograd
