"""Microseconds per op of the makemore training step: gradrepl against PyTorch eager.

Usage: python per_op.py {gradrepl,torch} [N]

Runs the same setup code (the shapes of makemore.py: batch 32, 3 x 10 embedding,
200 hidden units, 24 classes), then each statement below N times in a
`for i in range(N):` loop of the learner's language (gradrepl interprets the loop;
PyTorch's twin is CPython running it) and prints one JSON object: microseconds of CPU
time (the process's, all its threads; steadier than wall time on a shared machine) per
iteration of each statement, with the empty loop's cost (`pass`) subtracted from the others.
gradrepl's side runs through its Python API (gradrepl.lang.run_source), so the
numbers hold no start-up; PyTorch's side runs the same text with exec().
"""
import json
import sys
import time

SETUP = """\
import torch
import torch.nn.functional as F
g = torch.Generator().manual_seed(2147483647)
Xtr = torch.randint(0, 24, (28000, 3), generator=g)
Ytr = torch.randint(0, 24, (28000,), generator=g)
C = torch.randn((24, 10), generator=g)
W1 = torch.randn((30, 200), generator=g) * 0.3
b1 = torch.randn(200, generator=g) * 0.01
W2 = torch.randn((200, 24), generator=g) * 0.01
b2 = torch.randn(24, generator=g) * 0
parameters = [C, W1, b1, W2, b2]
for p in parameters:
    p.requires_grad = True
ix = torch.randint(0, Xtr.shape[0], (32,), generator=g)
Xb = Xtr[ix]
Yb = Ytr[ix]
emb = C[Xb]
e = emb.view(-1, 30)
a = e @ W1
pre = a + b1
h = torch.tanh(pre)
logits = h @ W2 + b2
loss = F.cross_entropy(logits, Yb)
loss.backward()
gW1 = W1.grad
lr = 0.1
"""

STEP_FORWARD = ("ix = torch.randint(0, Xtr.shape[0], (32,), generator=g); emb = C[Xtr[ix]]; "
                "h = torch.tanh(emb.view(-1, 30) @ W1 + b1); logits = h @ W2 + b2; "
                "loss = F.cross_entropy(logits, Ytr[ix])")
STEP_ZERO = "for p in parameters:\n        p.grad = None"
STEP_UPDATE = "for p in parameters:\n        p.data += -lr * p.grad"

# (label, statement): the statement is the body of `for i in range(N):`.
OPS = (
    ("loop (pass)", "pass"),
    ("randint (32,)", "ix = torch.randint(0, Xtr.shape[0], (32,), generator=g)"),
    ("Xtr[ix]", "Xb = Xtr[ix]"),
    ("C[Xb] (grad)", "emb = C[Xb]"),
    ("emb.view(-1, 30)", "e = emb.view(-1, 30)"),
    ("e @ W1 (32x30 @ 30x200)", "a = e @ W1"),
    ("a + b1", "pre = a + b1"),
    ("torch.tanh(pre)", "h = torch.tanh(pre)"),
    ("F.cross_entropy", "loss = F.cross_entropy(logits, Yb)"),
    ("p.grad = None", "W1.grad = None"),
    ("-lr * p.grad", "d = -lr * gW1"),
    ("p.data += d", "W1.data += d"),
    ("step: forward (11 ops)", STEP_FORWARD),
    ("step: forward + backward", STEP_FORWARD + "; loss.backward()"),
    ("step: whole (makemore loop body)",
     STEP_FORWARD + "\n    " + STEP_ZERO + "\n    loss.backward()\n    " + STEP_UPDATE),
)


def loop(statement, n):
    return f"for i in range({n}):\n    {statement}\n"


def timer(impl):
    """A function that runs source text in one persistent namespace and returns its CPU seconds."""
    if impl == "torch":
        namespace = {"__name__": "__main__"}

        def run(text):
            code = compile(text, "<per_op>", "exec")
            start = time.process_time()
            exec(code, namespace)
            return time.process_time() - start
        return run

    from gradrepl.lang import Session, run_source
    from gradrepl.limits import Limits

    session = Session(limits=Limits(max_steps=10 ** 12, time_limit=10 ** 6),
                      write=sys.stdout.write)

    def run(text):
        start = time.process_time()
        result = run_source(text, session, filename="<per_op>", echo="none")
        elapsed = time.process_time() - start
        if not result.ok:
            raise SystemExit(f"per_op: gradrepl failed: {result.errors[0].format()}")
        return elapsed
    return run


def main():
    impl = sys.argv[1]
    n = int(sys.argv[2]) if len(sys.argv) > 2 else 2000
    run = timer(impl)
    run(SETUP)
    results = {}
    for label, statement in OPS:
        run(loop(statement, max(1, n // 10)))          # warm-up
        best = min(run(loop(statement, n)) for _ in range(3))
        results[label] = best / n * 1e6
    empty = results["loop (pass)"]
    print(json.dumps({label: (us if label == "loop (pass)" else us - empty)
                      for label, us in results.items()}))


if __name__ == "__main__":
    main()
