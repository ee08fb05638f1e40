"""Record the autograd graphs of tests/data/viz/cases/*.py from real PyTorch.

For each case (first line: `# ... root: NAME` and optionally `vector: NAME`) it runs the
file, then writes to tests/data/viz/torch_golden.json:
  nodes   the grad_fn graph of NAME, depth first from NAME.grad_fn in input order:
          [node name, [[child index or null, output_nr], ...], leaf variable names]
  order   the nodes (indices) in the order backward() runs them (node pre-hooks),
          AccumulateGrad nodes left out
  grads   .grad of every named leaf after NAME.backward(vector, retain_graph=True)

Usage (torch 2.13 in a scratch venv, outside the repo's own environment):
    /work/torchvenv/bin/python scripts/record_viz_golden.py
"""
import json
import pathlib
import re
import sys

import torch

HERE = pathlib.Path(__file__).resolve().parent.parent / "tests" / "data" / "viz"


def header(text):
    first = text.splitlines()[0]
    root = re.search(r"root: (\w+)", first).group(1)
    vector = re.search(r"vector: (\w+)", first)
    return root, vector.group(1) if vector else None


def walk(root_fn):
    index, nodes, stack = {}, [], [root_fn]
    while stack:
        node = stack.pop()
        if node in index:
            continue
        index[node] = len(nodes)
        nodes.append(node)
        stack.extend(child for child, _ in reversed(node.next_functions) if child is not None)
    return index, nodes


def record(path):
    text = path.read_text(encoding="utf-8")
    root, vector = header(text)
    ns = {"__name__": "__main__"}
    exec(compile(text, str(path), "exec"), ns)
    tensor = ns[root]
    index, nodes = walk(tensor.grad_fn)
    names = {}
    for name, value in ns.items():
        if isinstance(value, torch.Tensor):
            names.setdefault(id(value), []).append(name)
    out_nodes = []
    for node in nodes:
        edges = [[None if c is None else index[c], nr] for c, nr in node.next_functions]
        leaf = names.get(id(node.variable), []) if node.name().endswith("AccumulateGrad") else []
        out_nodes.append([node.name(), edges, leaf])
    order = []
    handles = [n.register_prehook(lambda grads, n=n: order.append(index[n])) for n in nodes
               if not n.name().endswith("AccumulateGrad")]
    leaves = {name: value for name, value in ns.items()
              if isinstance(value, torch.Tensor) and value.is_leaf and value.requires_grad}
    for leaf in leaves.values():
        leaf.grad = None
    tensor.backward(ns[vector] if vector else None, retain_graph=True)
    for h in handles:
        h.remove()
    grads = {name: None if t.grad is None else t.grad.tolist() for name, t in leaves.items()}
    return {"root": root, "vector": vector, "nodes": out_nodes, "order": order, "grads": grads}


def main():
    cases = sorted((HERE / "cases").glob("*.py"))
    golden = {p.stem: record(p) for p in cases}
    text = "{\n" + ",\n".join(f"{json.dumps(k)}: {json.dumps(v)}" for k, v in golden.items()) + "\n}\n"
    (HERE / "torch_golden.json").write_text(text, encoding="utf-8")
    print(f"recorded {len(golden)} cases with torch {torch.__version__}", file=sys.stderr)


if __name__ == "__main__":
    main()
