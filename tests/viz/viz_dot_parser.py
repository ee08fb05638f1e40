"""A strict parser for the DOT language subset (Graphviz grammar: graph, node, edge and
attribute statements, subgraphs, quoted IDs). Raises ValueError on anything invalid."""
import re

_TOKEN = re.compile(r"""\s*(?:
    (->|--|[{}\[\];,=])                                           # punctuation
    |("(?:[^"\\]|\\.)*")                                          # a quoted ID
    |([A-Za-z_\x80-\uffff][\w\x80-\uffff]*|-?(?:\.\d+|\d+(?:\.\d*)?))   # a name or a number
)""", re.VERBOSE)


def tokenize(text):
    tokens, pos = [], 0
    text = text.rstrip()
    while pos < len(text):
        m = _TOKEN.match(text, pos)
        if m is None or m.end() == pos:
            raise ValueError(f"bad token at {pos}: {text[pos:pos + 20]!r}")
        punct, quoted, ident = m.groups()
        tokens.append(("p", punct) if punct else ("id", quoted[1:-1] if quoted else ident))
        pos = m.end()
    return tokens


class DotGraph:
    def __init__(self):
        self.nodes = {}       # name -> attributes
        self.edges = []       # (src, dst, attributes)
        self.subgraphs = []   # (name, attributes, member names)


def parse(text):
    tokens = tokenize(text)
    graph = DotGraph()
    pos = 0

    def peek(k=0):
        return tokens[pos + k] if pos + k < len(tokens) else (None, None)

    def take(kind=None, value=None):
        nonlocal pos
        tok = peek()
        if tok[0] is None or (kind and tok[0] != kind) or (value and tok[1] != value):
            raise ValueError(f"expected {value or kind} at token {pos}, got {tok}")
        pos += 1
        return tok[1]

    def attrs():
        out = {}
        while peek() == ("p", "["):
            take("p", "[")
            while peek() != ("p", "]"):
                key = take("id")
                take("p", "=")
                out[key] = take("id")
                if peek() in (("p", ","), ("p", ";")):
                    take()
            take("p", "]")
        return out

    def stmts(members):
        while peek() != ("p", "}"):
            tok = peek()
            if tok == ("id", "subgraph"):
                take()
                name = take("id") if peek()[0] == "id" else ""
                take("p", "{")
                inner, sub_attrs = [], {}
                stmts_into(inner, sub_attrs)
                take("p", "}")
                graph.subgraphs.append((name, sub_attrs, inner))
                members.extend(inner)
            elif tok[1] in ("node", "edge", "graph") and peek(1) == ("p", "["):
                take()
                attrs()
            elif tok[0] == "id" and peek(1) == ("p", "="):
                key = take("id")
                take("p", "=")
                value = take("id")
                current_attrs[-1][key] = value
            else:
                chain = [take("id")]
                while peek() == ("p", "->"):
                    take()
                    chain.append(take("id"))
                a = attrs()
                if len(chain) == 1:
                    graph.nodes.setdefault(chain[0], {}).update(a)
                else:
                    for src, dst in zip(chain, chain[1:]):
                        graph.edges.append((src, dst, a))
                members.extend(chain)
            if peek() == ("p", ";"):
                take()

    current_attrs = [{}]

    def stmts_into(members, attributes):
        current_attrs.append(attributes)
        try:
            stmts(members)
        finally:
            current_attrs.pop()

    if peek() == ("id", "strict"):
        take()
    take("id", "digraph")
    if peek()[0] == "id":
        take()
    take("p", "{")
    stmts([])
    take("p", "}")
    if pos != len(tokens):
        raise ValueError("text after the graph")
    return graph
